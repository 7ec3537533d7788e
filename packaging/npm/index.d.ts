// Types of the zoneoracle npm package (index.js).

/** A zcp request or answer: one JSON object (the protocol's reference is
 * share/zoneoracle/protocol/PROTOCOL.md; the Node reference adapter's
 * engine.d.ts types every message). */
export type ZcpMessage = { [key: string]: unknown };

/** An engine in this process: what ci/adapters/node/engine.js's Server is.
 * Give one of the three; none may throw (a throw is an `internal` error
 * answer for that request). */
export type Engine =
  | { answer(request: ZcpMessage): ZcpMessage }
  | { answerLine(line: string): string }
  | ((request: ZcpMessage) => ZcpMessage);

/** The exit codes of every command: 0 pass, 1 conformance failures, 2 usage
 * or I/O, 3 invalid case files, 4 the engine could not be started or driven. */
export type ExitCode = 0 | 1 | 2 | 3 | 4;

/** Any zoneoracle command line (without the program's name) run in this
 * process by the WebAssembly CLI; engines are registered for the call as
 * `--engine-plugin @NAME`. Output goes to this process's stdout and stderr,
 * reports where the command writes them (--report-dir, default ./reports). */
export function cli(args: string[], engines?: { [name: string]: Engine }): ExitCode;

/** `zoneoracle run ...args` on the built-in oracle. */
export function run(...args: string[]): ExitCode;

/** `zoneoracle gate ...args` against engine, in this process: every option
 * of the gate but --engine (--strict, --invariants, --expect-failures FILE,
 * --fuzz SECONDS, --seed N, --ruleset ID, --filter GLOB, --report-dir DIR).
 * No time limit: an engine that never returns blocks the call. */
export function gate(engine: Engine, ...args: string[]): ExitCode;

/** `zoneoracle smoke ...args` against engine, in this process. */
export function smoke(engine: Engine, ...args: string[]): ExitCode;

/** The suite and rule sets the package carries (cases/, rulesets/, protocol/). */
export const dataDir: string;
/** The package's version (zoneoracle's). */
export const version: string;
