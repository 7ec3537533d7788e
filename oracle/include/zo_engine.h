/* zo_engine.h: the plugin ABI of zoneoracle engines (zcp/1 as C calls).
 *
 * A rules engine written in C or C++ exports one function,
 *
 *     const struct zo_engine_ops *zo_engine_v1(void);
 *
 * and zoneoracle loads it with `zoneoracle gate --engine-plugin lib.so`
 * (dlopen). The messages are exactly those of the process protocol
 * (ci/protocol/PROTOCOL.md: hello, setup, step, observe, run, bye, as JSON objects), so
 * one engine adapter serves both paths; in process (the fuzz harnesses)
 * there are no pipes and no process switches. This header is self-contained (C99, no zoneoracle
 * types). The struct starts with abi_version and only ever gains fields at
 * its end; a loader refuses a plugin whose abi_version it does not know.
 * Under `gate` and `smoke` the runner loads the plugin in a forked worker
 * process and drives it like a process engine (time limit, restart, a
 * crash or exit() reported for the case); only the fuzz harnesses
 * (fuzz_diff, replay --harness diff) call it inside their own process.
 */
#ifndef ZO_ENGINE_H_PUBLIC
#define ZO_ENGINE_H_PUBLIC

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ZO_ENGINE_ABI_VERSION 1u

struct zo_engine_ops {
  /* ZO_ENGINE_ABI_VERSION the plugin was built against. Always first. */
  uint32_t abi_version;
  /* Engine name and version, static storage. The runner takes the name
   and version from the answer to hello, not from these fields. */
  const char *name;
  const char *version;
  /* Start a session (one engine instance); NULL on failure. The session is
     the plugin's, freed by close. */
  void *(*open)(void);
  /* Answer one request: `request` is one zcp/1 request as a NUL-terminated
     JSON object (no newline). Returns the response JSON object as a
     NUL-terminated string the caller frees with free_response; never
     NULL for a valid session (answer {"ok": false, "error": ...} instead). */
  char *(*request)(void *session, const char *request);
  /* Free a response returned by request. */
  void (*free_response)(char *response);
  /* End a session. */
  void (*close)(void *session);
};

/* The one symbol a plugin exports. */
const struct zo_engine_ops *zo_engine_v1(void);

#ifdef __cplusplus
}
#endif

#endif
