/* engines/zcp_plugin.c: engines in shared libraries (zo_engine.h): one
 * loader (dlopen, zo_engine_v1, the ABI version, a session) for both ways
 * a plugin is driven, in this process (zcp_client.c) or in a forked worker
 * that relays request lines to it, so that a plugin that crashes, calls
 * exit() or loops forever fails its case instead of taking the runner with
 * it (internal/zcp_int.h). */
#define _GNU_SOURCE /* on_exit */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "zcp_int.h"
#include "util.h"
#include "zo_engine.h"

int zcp_plugin_load(zcp_plugin *pl, const char *path, char *why, size_t cap) {
  const struct zo_engine_ops *(*entry)(void) = NULL;
  if (!(pl->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
    snprintf(why, cap, "%s", dlerror());
    return 1;
  }
  if (!(*(void **)&entry = dlsym(pl->dl, "zo_engine_v1"))) snprintf(why, cap, "no symbol zo_engine_v1");
  else if (!(pl->ops = entry()) || pl->ops->abi_version != ZO_ENGINE_ABI_VERSION)
    snprintf(why, cap, "the plugin's abi_version is not %u", ZO_ENGINE_ABI_VERSION);
  else if (!(pl->session = pl->ops->open())) snprintf(why, cap, "the plugin's open() failed");
  else return 0;
  return 2;
}

void zcp_plugin_unload(zcp_plugin *pl, int unload) {
  if (pl->session) pl->ops->close(pl->session);
  if (unload && pl->dl) dlclose(pl->dl);
  memset(pl, 0, sizeof *pl);
}

/* Write all n bytes to fd (blocking): 0, or -1 when it fails. */
static int write_all(int fd, const char *s, size_t n) {
  while (n) {
    ssize_t w = write(fd, s, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    s += w;
    n -= (size_t)w;
  }
  return 0;
}

#ifdef __GLIBC__
/* In a worker, a plugin's exit(N) ends the worker with N at once: the
 * runner's own exit handlers (inherited through fork) must not run there. */
static void worker_on_exit(int status, void *arg) {
  (void)arg;
  fflush(stdout);
  fflush(stderr);
  _exit(status);
}
#endif

/* Answer one request line with the plugin's request() on descriptor 4,
 * newlines in the answer as spaces (NULL: the complaint on stderr and an
 * empty line). 0, or -1 when the runner has gone. */
static int relay(const zcp_plugin *pl, const char *path, const char *line) {
  char *reply = pl->ops->request(pl->session, line);
  int bad = 0;
  if (!reply) {
    fprintf(stderr, "zoneoracle: %s: request() returned NULL\n", path);
    fflush(stderr);
    return write_all(4, "\n", 1);
  }
  for (const char *s = reply; *s && !bad;) {
    size_t k = strcspn(s, "\n");
    bad = write_all(4, s, k) || (s[k] && write_all(4, " ", 1));
    s += k + (s[k] != 0);
  }
  bad = bad || write_all(4, "\n", 1);
  pl->ops->free_response(reply);
  return bad ? -1 : 0;
}

void zcp_plugin_worker(const char *path) {
#ifdef __GLIBC__
  on_exit(worker_on_exit, NULL);
#endif
  zcp_plugin pl = {0};
  char why[8192]; /* dlerror's text whole, the path in it */
  int failed = zcp_plugin_load(&pl, path, why, sizeof why);
  if (failed) {
    if (failed == 1) fprintf(stderr, "zoneoracle: cannot load plugin: %s\n", why);
    else fprintf(stderr, "zoneoracle: %s: %s\n", path, why);
    fflush(stderr);
    _exit(127);
  }
  char *buf = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    char *nl;
    while ((nl = len ? memchr(buf, '\n', len) : NULL)) {
      *nl = 0;
      if (relay(&pl, path, buf)) _exit(0); /* the runner has gone */
      size_t used = (size_t)(nl - buf) + 1;
      memmove(buf, nl + 1, len - used);
      len -= used;
    }
    if (cap - len < 65536) buf = zo_xrealloc(buf, cap = cap ? cap * 2 : 65536);
    ssize_t r = read(3, buf + len, cap - len);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    len += (size_t)r;
  }
  pl.ops->close(pl.session);
  _exit(0);
}
