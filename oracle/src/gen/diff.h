/* diff.h: differential runs of decoded fuzz inputs (fuzz_diff, `zoneoracle
 * replay --harness diff`, `zoneoracle gate --fuzz`).
 *
 * An input is decoded on the oracle (decoder.h), printed as the YAML case
 * `replay` would print, loaded back, and run on the oracle and on an
 * engine under test: the engine sees exactly the messages the case runner
 * sends. The observations are compared after the setup and after every
 * step (obs_diff.h); the first difference is the finding.
 */
#ifndef ZO_FUZZ_DIFF_H
#define ZO_FUZZ_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"
#include "obs_diff.h"
#include "decoder.h"

typedef enum {
  ZO_DIFF_SAME = 0,     /* the engine agreed after every step */
  ZO_DIFF_DIFFERS = 1,  /* a difference (or the engine failed): see the result */
  ZO_DIFF_SKIP = 2      /* the engine lacks the rule set or a feature the game needs */
} zo_diff_status;

typedef struct {
  zo_diff_status status;
  int step;                /* 1-based step after which it showed; 0 = the setup */
  size_t used;             /* bytes of the input that decode up to that step */
  int nsteps;              /* steps the input decodes into */
  zo_obs_difference d;     /* the difference (d.what "engine" for an engine error) */
  char ruleset[32];
  char message[600];       /* one line for people; the skip's reason for a skip */
} zo_diff_result;

/* Run input data on the oracle and on engine e (any zo_engine: plugin,
 * process or oracle). batch: send the steps as one zcp/1 `run` request
 * when e is a process or plugin engine (the fast path over a pipe);
 * otherwise one `step` and one `observe` per step. Never fails: an engine
 * error is a ZO_DIFF_DIFFERS result naming it. out is owned by the caller. */
zo_diff_status zo_diff_input(zo_engine *e, const uint8_t *data, size_t size, int batch,
                             zo_diff_result *out);

/* Shrink a differing input: cut it after the step that differs, then drop
 * each step's bytes in turn while some difference remains (the same test
 * the fuzzers' minimizers use: still failing, any way). Returns the new
 * size; data is rewritten in place and *res describes the minimized input. */
size_t zo_diff_minimize(zo_engine *e, uint8_t *data, size_t size, int batch,
                        zo_diff_result *res);

/* Print a differing input as a YAML case: the decoded game up to the step
 * that differs, each step expecting the oracle's outcome, that step also
 * expecting the oracle's value of the property that differed, and a final
 * expect of every object's zone. The case passes on the oracle and fails
 * on the engine. Returns 0, or -1 on a write error. */
int zo_diff_print_yaml(const uint8_t *data, size_t size, const zo_diff_result *res,
                       const char *id, FILE *out);

/* zo_fuzz_print_yaml (decoder.h) with one more expectation: d's
 * reference value at step dstep (1-based; 0 = the final expect). d may be
 * NULL. Returns 0, or -1 on a write error. */
int zo_fuzz_print_yaml_ex(const zo_fuzz *f, const zo_outcome *outcomes,
                          const zo_step_error *errors, const char *id, const char *rule,
                          const char *note, const zo_obs_difference *d, int dstep,
                          FILE *out);

#endif
