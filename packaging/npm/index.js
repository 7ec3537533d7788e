'use strict';
// zoneoracle for Node: the oracle and its CLI in WebAssembly
// (wasm/zoneoracle.wasm, built by packaging/npm/build.sh), the case suite
// and the rule sets (share/zoneoracle), and the gate for an engine object
// in this process. index.d.ts gives the types.
//
// The WebAssembly module sees the real file system (NODERAWFS): paths,
// report directories and case files are the host's. One module serves the
// whole process; calls run one at a time (each is synchronous).

const path = require('path');

const DATA = path.join(__dirname, 'share', 'zoneoracle');
const ABI_VERSION = 1;

let M = null;

/** The WebAssembly module, made once, its environment this process's. */
function wasm() {
  if (M) return M;
  const create = require('./wasm/zoneoracle.js');
  M = create({
    preRun: [(mod) => {
      for (const [k, v] of Object.entries(process.env)) if (v !== undefined) mod.ENV[k] = v;
      if (!process.env.ZO_DATA_DIR) mod.ENV.ZO_DATA_DIR = DATA;
    }],
  });
  return M;
}

/** A string copied into the module's memory (the caller frees it). */
function cstring(m, s) {
  const n = m.lengthBytesUTF8(s) + 1;
  const p = m._malloc(n);
  m.stringToUTF8(s, p, n);
  return p;
}

let registered = 0;

/** An engine object behind a struct zo_engine_ops in the module's memory
 * (zo_engine.h, on wasm32: 7 fields of 4 bytes), its calls JavaScript
 * functions in the module's table. answer(request) -> object (the Node
 * reference adapter's Server), answerLine(line) -> string, or a function
 * of the request object. free() releases it. */
function bridge(m, engine, name) {
  let answer;
  if (engine && typeof engine.answer === 'function') answer = (req) => JSON.stringify(engine.answer(req));
  else if (engine && typeof engine.answerLine === 'function') answer = (req, line) => engine.answerLine(line);
  else if (typeof engine === 'function') answer = (req) => JSON.stringify(engine(req));
  else throw new TypeError('an engine has answer(request) -> answer (ci/adapters/node/engine.js Server), '
                           + 'answerLine(line) -> line, or is a function');
  const stats = { requests: 0 };
  const errorAnswer = (line, code, message) => {
    let id = null;
    try { const r = JSON.parse(line); if (r && Number.isSafeInteger(r.id)) id = r.id; } catch (e) { /* not JSON */ }
    return JSON.stringify({ id, ok: false, error: { code, message } });
  };
  const fOpen = m.addFunction(() => 1, 'i');
  const fRequest = m.addFunction((session, reqPtr) => {
    stats.requests++;
    const line = m.UTF8ToString(reqPtr);
    let text;
    try {
      let req;
      try { req = JSON.parse(line); } catch (e) { return cstring(m, errorAnswer(line, 'bad_request', `not JSON: ${e.message}`)); }
      text = answer(req, line);
      if (typeof text !== 'string') text = errorAnswer(line, 'internal', 'the engine gave no answer');
    } catch (e) {
      text = errorAnswer(line, 'internal', `${e && e.name}: ${e && e.message}`);
    }
    return cstring(m, text);
  }, 'iii');
  const fFree = m.addFunction((p) => m._free(p), 'vi');
  const fClose = m.addFunction(() => {}, 'vi');
  const namePtr = cstring(m, name);
  const verPtr = cstring(m, '0');
  const ops = m._malloc(28);
  const h = ops >> 2;
  m.HEAPU32[h] = ABI_VERSION;
  m.HEAPU32[h + 1] = namePtr;
  m.HEAPU32[h + 2] = verPtr;
  m.HEAPU32[h + 3] = fOpen;
  m.HEAPU32[h + 4] = fRequest;
  m.HEAPU32[h + 5] = fFree;
  m.HEAPU32[h + 6] = fClose;
  return {
    ops, stats,
    free() {
      for (const f of [fOpen, fRequest, fFree, fClose]) m.removeFunction(f);
      m._free(ops); m._free(namePtr); m._free(verPtr);
    },
  };
}

/** Any zoneoracle command line (without the program's name), run in this
 * process by the WebAssembly CLI: its exit code (0 pass, 1 failures, 2
 * usage or I/O, 3 invalid case files, 4 the engine could not be started
 * or driven). engines: {NAME: engineObject} registered for the call as
 * --engine-plugin @NAME. */
function cli(args, engines = {}) {
  const m = wasm();
  const made = [];
  try {
    for (const [name, engine] of Object.entries(engines)) {
      const b = bridge(m, engine, `@${name}`);
      made.push([`@${name}`, b]);
      const np = cstring(m, `@${name}`);
      const rc = m._zo_engine_register(np, b.ops, 0);
      m._free(np);
      if (rc) throw new Error(`engine name @${name} refused (letters, digits, '-', at most 62)`);
    }
    const words = ['zoneoracle', ...args.map(String)];
    const ptrs = words.map((w) => cstring(m, w));
    const argv = m._malloc(4 * (ptrs.length + 1));
    ptrs.forEach((p, i) => { m.HEAPU32[(argv >> 2) + i] = p; });
    m.HEAPU32[(argv >> 2) + ptrs.length] = 0;
    let rc;
    try {
      rc = m._zo_cli_main(ptrs.length, argv);
    } finally {
      m._fflush(0);
      ptrs.forEach((p) => m._free(p));
      m._free(argv);
    }
    return rc;
  } finally {
    for (const [name, b] of made) {
      const np = cstring(m, name);
      m._zo_engine_register(np, 0, 0);
      m._free(np);
      b.free();
    }
  }
}

/** `zoneoracle run ...args` (the built-in oracle): the exit code. */
function run(...args) {
  return cli(['run', ...args]);
}

/** `zoneoracle gate ...args` against engine, an object in this process
 * (no subprocess, no pipe): every option of the gate but --engine
 * (--strict, --invariants, --expect-failures, --fuzz, --ruleset,
 * --filter, --report-dir...), the same reports and exit code. No time
 * limit: an engine that never returns blocks the call. */
function gate(engine, ...args) {
  return cli(['gate', '--engine-plugin', '@js', ...args], { js: engine });
}

/** `zoneoracle smoke` against engine in this process: the exit code. */
function smoke(engine, ...args) {
  return cli(['smoke', '--engine-plugin', '@js', ...args], { js: engine });
}

module.exports = { cli, run, gate, smoke, dataDir: DATA, version: require('./package.json').version };
