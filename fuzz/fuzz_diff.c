/* fuzz_diff: differential fuzzing. Each input is decoded into a game
 * (decoder.h) within the rule sets and features the engine plugin that
 * ZO_DIFF_ENGINE names declares (a zo_engine_v1 shared library,
 * zo_engine.h), straight into the case the plugin is sent, and run on the
 * oracle and on the plugin; their observations are compared after the
 * setup and after every step (diff.h). A difference prints the step, the
 * property and both values, then aborts, so the crash input replays into a
 * YAML case:
 *   zoneoracle replay --harness diff --engine-plugin LIB.so crash-...
 * An `unsupported` answer makes the input a skip. The corpus is
 * fuzz_moves' (same decoder). */
#include <stdio.h>
#include <stdlib.h>

#include "diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static zo_diff_engine *engine(void) {
  static zo_diff_engine x;
  static zo_engine *e;
  if (e) return &x;
  const char *path = getenv("ZO_DIFF_ENGINE");
  int builtin = 0;
#ifdef ZO_DIFF_BUILTIN_ENGINE
  /* Builds with static dependencies (OSS-Fuzz, ClusterFuzzLite) have no
     plugin file: ci/adapters/c-plugin/plugin.c is compiled into this
     fuzzer, which exports its zo_engine_v1, and with ZO_DIFF_ENGINE unset
     the engine is loaded from the executable itself (glibc's dlopen("") is
     the main program), so every message still takes the plugin path. */
  builtin = !path || !*path;
  if (builtin && getenv("ZO_MUTANT") && *getenv("ZO_MUTANT")) {
    fprintf(stderr, "fuzz_diff: ZO_MUTANT needs ZO_DIFF_ENGINE: the built-in plugin shares "
                    "the oracle's code, so a mutant would change both sides\n");
    exit(2);
  }
  if (builtin) path = "";
#endif
  if (!builtin && (!path || !*path)) {
    fprintf(stderr, "fuzz_diff: set ZO_DIFF_ENGINE to the engine plugin to compare with the "
                    "oracle (for instance build/lib/libzoneoracle_plugin.so)\n");
    exit(2);
  }
  zo_error err;
  /* in process: thousands of games a second; a plugin crash is a finding */
  zo_engine_process_options o = {.in_process = 1};
  e = zo_engine_plugin_open(path, &o, &err);
  if (!e) {
    fprintf(stderr, "fuzz_diff: %s: %s\n", builtin ? "the built-in plugin" : path, err.message);
    exit(2);
  }
  zo_diff_engine_init(&x, e, 1); /* its profile, once */
  return &x;
}

/* Load the plugin before fuzzing starts (AFL++: before its fork server). */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  engine();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  zo_diff_result r;
  if (zo_diff_run(engine(), data, size, &r) == ZO_DIFF_DIFFERS) {
    fprintf(stderr, "zoneoracle fuzz_diff: difference (%s) %s\n", r.ruleset, r.message);
    abort();
  }
  return 0;
}
