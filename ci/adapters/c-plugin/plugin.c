/* ci/adapters/c-plugin/plugin.c: zoneoracle's own oracle wrapped as a
 * zo_engine_v1 plugin (zo_engine.h). It is the template for engines in C or
 * C++: replace the three calls into the oracle (zo_server_new,
 * zo_server_answer, zo_server_free: zoneoracle's public API, zo.h) with
 * your engine's handling of the same zcp/1 messages. Built by CMake as
 * libzoneoracle_plugin.so. */
#include <stdio.h>
#include <stdlib.h>

#include "zo.h"
#include "zo_engine.h"

/* ZO_MUTANT=NAME (a name from `zoneoracle mutants --list`) makes this
 * plugin a deliberately wrong engine: how fuzz_diff's strength is measured
 * (fuzz/README.md). Not part of the template. */
static void *plugin_open(void) {
  static int mutated;
  const char *m = getenv("ZO_MUTANT");
  if (!mutated && m && *m) {
    zo_error err;
    if (zo_mutant_apply_named(m, &err)) {
      fprintf(stderr, "zoneoracle-plugin: %s\n", err.message);
      return NULL;
    }
    mutated = 1;
  }
  return zo_server_new();
}

static char *plugin_request(void *session, const char *request) {
  return zo_server_answer((zo_server *)session, request); /* any input: an answer */
}

static void plugin_free_response(char *response) { free(response); }

static void plugin_close(void *session) { zo_server_free((zo_server *)session); }

static const struct zo_engine_ops ops = {
    .abi_version = ZO_ENGINE_ABI_VERSION,
    .name = "zoneoracle-plugin",
    .version = ZO_VERSION,
    .open = plugin_open,
    .request = plugin_request,
    .free_response = plugin_free_response,
    .close = plugin_close,
};

const struct zo_engine_ops *zo_engine_v1(void) { return &ops; }
