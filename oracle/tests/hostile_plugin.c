/* hostile_plugin: the oracle as a zo_engine_v1 plugin (like
 * ci/adapters/c-plugin/plugin.c) that misbehaves on purpose, so that the
 * forked plugin worker of `gate --engine-plugin` can be tested
 * (oracle/tests/hostile.sh). HOSTILE_PLUGIN names the mode; most modes
 * misbehave once, at the HOSTILE_AT-th setup (default 1), counted across
 * restarts (each restart is a new worker process) through the file
 * HOSTILE_COUNT names:
 *   crash      dies of SIGSEGV
 *   abort      dies of SIGABRT
 *   exit7      calls exit(7) (the runner's exit code must stay its own)
 *   exit0      calls exit(0)
 *   loop       loops forever
 *   hellofail  answers hello ok: false (the gate exits 4)
 *   openfail   open() returns NULL (exit 4)
 *   abi        reports abi_version 99 (exit 4)
 *   ctor       dies of SIGSEGV while the library is being loaded (exit 4)
 *   null       request() returns NULL
 *   garbage    request() returns text that is not JSON
 *   stdout     prints to stdout at every request (the cases still pass)
 *   fork       forks a child that ignores SIGTERM and sleeps forever
 *              (the cases pass; the child must not outlive the run)
 *   setsid     the same child as a daemon (fork, setsid, fork) that leaves
 *              the worker's process group (the cases pass; it must not
 *              outlive the run)
 *   setsidcrash  the setsid daemon at every open(), then dies of SIGSEGV
 *              (the daemons must not outlive the run)
 *   hugepos    adds 2^32 to every position it observes
 *   newlines   answers indented JSON over several lines (the cases pass)
 *   fdcheck    open() fails, naming them on stderr, when the worker has any
 *              descriptor open beyond 0 to 4 (stdin, stdout, stderr and
 *              its two protocol pipes)
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "serve.h"
#include "zo_engine.h"

/* The mode: HOSTILE_PLUGIN, "" when unset. */
static const char *mode(void) {
  const char *m = getenv("HOSTILE_PLUGIN");
  return m ? m : "";
}

/* Is m the mode? */
static int is(const char *m) { return !strcmp(mode(), m); }

/* Die of sig with its default action (not a sanitizer's), no core file. */
static void die_of(int sig) {
  struct rlimit none = {0, 0};
  setrlimit(RLIMIT_CORE, &none);
  signal(sig, SIG_DFL);
  raise(sig);
  _exit(128 + sig);
}

/* ctor: die while dlopen() loads the library. */
__attribute__((constructor)) static void loaded(void) {
  if (is("ctor")) die_of(SIGSEGV);
}

/* Is this the setup to misbehave at? Counts setups in HOSTILE_COUNT. */
static int due(void) {
  const char *at_text = getenv("HOSTILE_AT"), *path = getenv("HOSTILE_COUNT");
  int at = at_text ? atoi(at_text) : 1, n = 0;
  if (!path) return at == 1;
  FILE *f = fopen(path, "r");
  if (f) {
    if (fscanf(f, "%d", &n) != 1) n = 0;
    fclose(f);
  }
  f = fopen(path, "w");
  if (f) {
    fprintf(f, "%d\n", n + 1);
    fclose(f);
  }
  return n + 1 == at;
}

/* fdcheck: how many descriptors beyond 0..4 are open (each on stderr). */
static int inherited_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return 0;
  int n = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    int fd = atoi(de->d_name);
    if (de->d_name[0] == '.' || fd <= 4 || fd == dirfd(d)) continue;
    char path[64], target[256] = "";
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    ssize_t k = readlink(path, target, sizeof target - 1);
    target[k > 0 ? k : 0] = 0;
    fprintf(stderr, "hostile_plugin: inherited descriptor %d -> %s\n", fd, target);
    n++;
  }
  closedir(d);
  return n;
}

/* A child that ignores SIGTERM and SIGHUP and sleeps forever; with
 * leave, a daemon out of the worker's process group and session (fork,
 * setsid, fork: the middle process exits at once) that keeps none of the
 * worker's descriptors. */
static void sleeper(int leave) {
  pid_t pid = fork();
  if (pid != 0) return;
  if (leave) { /* as a daemon does: its own session, no descriptor kept */
    setsid();
    if (fork() != 0) _exit(0);
    for (int fd = 0; fd <= 4; fd++) close(fd);
  }
  signal(SIGTERM, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  for (;;) pause();
}

static void *hostile_open(void) {
  if (is("openfail") || (is("fdcheck") && inherited_fds())) return NULL;
  if (is("fork")) sleeper(0);
  if (is("setsid") || is("setsidcrash")) sleeper(1);
  return zo_served_new();
}

static char *hostile_request(void *session, const char *request) {
  json_error_t je;
  json_t *req = json_loads(request, 0, &je);
  const char *op = json_string_value(json_object_get(req, "op"));
  if (is("stdout")) {
    printf("hostile_plugin: chatter on stdout about %s\n", op ? op : "?");
    fflush(stdout);
  }
  json_t *res = zo_serve_request((zo_served *)session, req); /* any input: an answer */
  if (op && !strcmp(op, "hello") && is("hellofail")) {
    json_decref(res);
    res = json_pack("{s:O, s:b, s:{s:s, s:s}}", "id", json_object_get(req, "id"), "ok", 0, "error", "code",
                    "internal", "message", "hostile_plugin refuses to shake hands");
  }
  if (op && !strcmp(op, "setup") && due()) {
    if (is("crash") || is("setsidcrash")) die_of(SIGSEGV);
    if (is("abort")) die_of(SIGABRT);
    if (is("exit7")) exit(7);
    if (is("exit0")) exit(0);
    if (is("loop"))
      for (volatile unsigned long i = 0;; i++) {
      }
    if (is("null")) {
      json_decref(res);
      json_decref(req);
      return NULL;
    }
    if (is("garbage")) {
      json_decref(res);
      json_decref(req);
      return strdup("hostile garbage, not JSON");
    }
  }
  if (op && !strcmp(op, "observe") && is("hugepos")) {
    const char *k;
    json_t *o;
    json_object_foreach(json_object_get(res, "objects"), k, o) {
      json_t *pos = json_object_get(o, "position");
      if (json_is_integer(pos))
        json_object_set_new(o, "position", json_integer(json_integer_value(pos) + ((json_int_t)1 << 32)));
    }
  }
  char *text = json_dumps(res, is("newlines") ? JSON_INDENT(2) : JSON_COMPACT);
  json_decref(res);
  json_decref(req);
  return text;
}

static void hostile_free_response(char *response) { free(response); }

static void hostile_close(void *session) { zo_served_free((zo_served *)session); }

static struct zo_engine_ops ops = {
    .abi_version = ZO_ENGINE_ABI_VERSION,
    .name = "hostile-plugin",
    .version = "0",
    .open = hostile_open,
    .request = hostile_request,
    .free_response = hostile_free_response,
    .close = hostile_close,
};

const struct zo_engine_ops *zo_engine_v1(void) {
  if (is("abi")) ops.abi_version = 99;
  return &ops;
}
