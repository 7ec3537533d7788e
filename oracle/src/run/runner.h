/* runner.h: the run layer's interface beyond zo.h's "Runs" section (which
 * declares the results, the options and zo_run_files): what the CLI and
 * the generator need of a run that is not public API. */
#ifndef ZO_RUNNER_H
#define ZO_RUNNER_H

#include "engine.h"
#include "error.h"

/* The first protocol feature (ci/protocol/PROTOCOL.md) case c needs, from its steps,
 * expectations and `features:` key, that engine e does not declare; NULL
 * when e can run it. Static storage. */
const char *zo_case_missing_feature(zo_engine *e, const zo_case *c);

#endif
