/* cli.h: what the zoneoracle commands in other files of oracle/cli/ offer
 * main.c (internal). Exit codes as in main.c: 0 pass, 1 failures, 2 usage
 * or I/O. */
#ifndef ZO_CLI_H
#define ZO_CLI_H

#include <stdio.h>

/* zoneoracle smoke --engine CMD | --engine-plugin PATH [--timeout S]:
 * the handshake, one built-in case per declared feature, malformed
 * requests, bye; one line per check on stdout. Returns the exit code: 0
 * every check ok, 1 one failed (or the engine could not be started), 2
 * usage. argv as main's. */
int zo_cli_smoke(int argc, char **argv);

/* gate --validate: the transcript of a run and its check against the
 * protocol's JSON Schemas by ci/protocol/validate.py (python3 with
 * jsonschema). */
typedef struct {
  char dir[4096];    /* the schema directory holding validate.py */
  char path[4096];   /* REPORT_DIR/protocol.jsonl */
  char tmp[4200];    /* written there first, renamed when complete */
  FILE *tap;         /* the transcript, for zo_engine_process_options.tap */
} zo_protocol_check;

/* Before the run: find the schema directory ($ZO_PROTOCOL_DIR, else
 * <executable's dir>/../share/zoneoracle/protocol, else the source tree's
 * ci/protocol), check that python3 ($ZO_PYTHON overrides) runs
 * validate.py with jsonschema, create report_dir and open the transcript
 * in pc->tap. Returns -1 when ready, else the exit code (2) after a
 * message on stderr naming what to install or set. argv0 is main's
 * argv[0]. On -1 the caller must call zo_protocol_check_finish. */
int zo_protocol_check_start(zo_protocol_check *pc, const char *argv0, const char *report_dir);

/* After the run, once the engine said bye: close the transcript, rename it
 * into place and check it; validate.py's report (each invalid message with
 * its transcript line, schema file and JSON path) goes to stdout. Returns
 * the number of invalid messages (0: all valid) and *checked the number
 * checked, or -1 when the validator could not run (message on stderr). */
int zo_protocol_check_finish(zo_protocol_check *pc, int *checked);

/* When the run does not happen (the engine could not be started...):
 * close and remove the transcript. Does nothing for a zeroed pc. */
void zo_protocol_check_abandon(zo_protocol_check *pc);

/* mkdir -p: 0, or -1 with errno set (main.c). */
int zo_cli_mkdirs(const char *dir);

/* gate --engine CMD --fuzz SECONDS --seed S [--out DIR] (gate_fuzz.c):
 * decoded random games on engine e (already started; borrowed) and on the
 * oracle, compared after every step over the protocol's batch `run`; each
 * difference (one per rule set and property) minimized and written as a
 * YAML case under out_dir. Prints one summary line with games/s and
 * steps/s. Returns the exit code: 0 no difference, 1 differences, 2 when a
 * case could not be written. */
#include <stdint.h>
struct zo_engine;
int zo_cli_gate_fuzz(struct zo_engine *e, const char *engine_name, double seconds,
                     uint64_t seed, const char *out_dir, int quiet);

#endif
