/* fake_engine: the oracle behind zcp/1 (like `zoneoracle serve`) that
 * misbehaves on purpose, so the gate's handling of broken engines can be
 * tested. `fake_engine MODE [N [MARKER...]]`: most modes misbehave once,
 * at the Nth request of their kind (setup unless said otherwise), counted
 * across restarts through a file named by FAKE_ENGINE_COUNT; MARKER
 * arguments are ignored (tests find leftover processes by them).
 *   hang N         stops answering (the gate times out)
 *   exit N         exits 3 without answering, after a line on stderr
 *   garbage N      answers a line that is not JSON
 *   nozcp          refuses the handshake (the gate exits 4)
 *   badschema N    answers the first observe of that game with
 *                  "layer": "bottom" on its first object (the schema wants
 *                  an integer or null; the gate reads it as null, so only
 *                  --validate sees it)
 *   lie            reports its first object in a made-up zone after the
 *                  first step (--strict must see it)
 *   lyingtoken     after a state_check step, reports every token on the
 *                  battlefield in its owner's graveyard (the gate's
 *                  --invariants must see tokens-in-arena)
 *   sameid         reports each object's first identity forever, as if no
 *                  move made a new object (identity-rule)
 * Hostile modes (oracle/tests/hostile.sh):
 *   closeout N      closes its stdout and stays alive
 *   closeoutexit N  closes its stdout, exits 5 50 ms later
 *   hellohang N     stops answering at the Nth hello
 *   stephang N      stops answering at the Nth step
 *   slow N          sleeps 2 s (past the test's limit), then answers
 *   flood N         writes 'x' forever, never a newline
 *   longline N      answers with a line of 17 MiB
 *   stderrflood N   writes lines to stderr forever
 *   stderrexit N    writes 200 KiB of lines to stderr, exits 9
 *   segv N, abort N dies of SIGSEGV, SIGABRT
 *   exitstep N      exits 0 at the Nth step
 *   exit7 N         exits 7
 *   wrongid N       answers with the id plus 1000
 *   bigid N         answers with the id plus 2^32
 *   emptyline N     answers an empty line
 *   nonobject N     answers [1,2,3]
 *   partial N       writes half an answer, then stops
 *   twice N         answers twice
 *   grandchild N    forks a child that ignores SIGTERM and keeps stdout
 *                   open, then exits
 *   ignoreterm      ignores SIGTERM/SIGINT/SIGHUP, bye and the end of its
 *                   input: it never exits by itself (answers are right)
 *   closein N       answers, then closes its stdin and stays alive
 *   hugepos         adds 2^32 to every position it observes
 *   negpos          observes position -1 for objects without one
 *   badutf8 N       answers an error whose message holds bytes that are
 *                   not UTF-8 (so not JSON), and writes such bytes to stderr
 *   utf8name N      names itself with 120 bytes of "é" and answers an
 *                   error message of 600 bytes of "ü" with a newline
 *   banner          writes a banner line on stdout before anything
 *   slowstart       sleeps 3 s before reading anything
 *   stop N          stops itself (SIGSTOP)
 *   wrongop N       answers the Nth step like an observe (no outcome)
 *   noobjects N     answers the Nth observe like a setup (no objects)
 *   fdcheck         refuses the handshake, naming them on stderr, when it
 *                   has any descriptor open beyond 0, 1 and 2
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "serve.h"

static int bump(void) {
  const char *path = getenv("FAKE_ENGINE_COUNT");
  if (!path) return 0;
  int n = 0;
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
  return n + 1;
}

/* Lies for --invariants: `tokens` holds the handles set up or created as
 * tokens (kind or type token); `ids` each handle's first identity. */
static json_t *tokens, *ids;

static const char *text_of(json_t *v) { return json_string_value(v) ? json_string_value(v) : ""; }

static int token_spec(json_t *spec) {
  if (!strcmp(text_of(json_object_get(spec, "kind")), "token")) return 1;
  size_t i;
  json_t *t;
  json_array_foreach(json_object_get(spec, "types"), i, t) {
    if (!strcmp(text_of(t), "token")) return 1;
  }
  return 0;
}

static void learn_tokens(const char *op, json_t *req) {
  const char *k;
  json_t *x;
  if (!strcmp(op, "setup")) {
    json_object_clear(tokens);
    json_object_clear(ids);
    json_object_foreach(json_object_get(req, "cards"), k, x) {
      if (token_spec(x)) json_object_set_new(tokens, k, json_true());
    }
  }
  json_t *create = json_object_get(json_object_get(req, "step"), "create");
  if (create && token_spec(create) && text_of(json_object_get(create, "as"))[0])
    json_object_set_new(tokens, text_of(json_object_get(create, "as")), json_true());
}

static void lie_about_invariants(const char *mode, int after_state_check, json_t *res) {
  const char *k;
  json_t *o;
  json_object_foreach(json_object_get(res, "objects"), k, o) {
    if (!strcmp(mode, "lyingtoken") && after_state_check && json_object_get(tokens, k) &&
        json_is_true(json_object_get(o, "exists")) &&
        !strcmp(text_of(json_object_get(o, "zone")), "battlefield")) {
      char zone[96];
      snprintf(zone, sizeof zone, "%s.graveyard", text_of(json_object_get(o, "owner")));
      json_object_set_new(o, "zone", json_string(zone));
      json_object_set_new(o, "controller", json_null());
    }
    if (!strcmp(mode, "sameid") && json_is_true(json_object_get(o, "exists"))) {
      if (!json_object_get(ids, k)) json_object_set(ids, k, json_object_get(o, "object"));
      json_object_set(o, "object", json_object_get(ids, k));
    }
  }
}

/* The kind of request a mode counts: its Nth one is where it misbehaves. */
static const char *counted_op(const char *mode) {
  if (!strcmp(mode, "hellohang") || !strcmp(mode, "utf8name")) return "hello";
  if (!strcmp(mode, "stephang") || !strcmp(mode, "exitstep") || !strcmp(mode, "wrongop")) return "step";
  if (!strcmp(mode, "noobjects")) return "observe";
  return "setup";
}

/* Sleep s seconds, signals notwithstanding. */
static void sleep_s(double s) {
  struct timespec t = {.tv_sec = (time_t)s, .tv_nsec = (long)((s - (double)(time_t)s) * 1e9)};
  while (nanosleep(&t, &t) && errno == EINTR) {
  }
}

/* Never return, never answer again. */
static void forever(void) {
  for (;;) pause();
}

/* Die of sig with its default action (not through a sanitizer's handler),
 * without a core file. */
static void die_of(int sig) {
  struct rlimit none = {0, 0};
  setrlimit(RLIMIT_CORE, &none);
  signal(sig, SIG_DFL);
  raise(sig);
  _exit(128 + sig);
}

/* One answer line on stdout, flushed (res stays the caller's). */
static void write_line(json_t *res) {
  static zo_zcp_line line; /* reused for every answer, held to the exit */
  zo_serve_write(stdout, res, &line);
}

/* Misbehave at the counted request (req, answered normally by res unless
 * the mode says otherwise). Returns 1 when the request is dealt with (res
 * not to be written), 0 to go on normally. */
static int misbehave(const char *mode, json_t *req, json_t *res) {
  json_int_t id = json_integer_value(json_object_get(req, "id"));
  if (!strcmp(mode, "hang") || !strcmp(mode, "hellohang") || !strcmp(mode, "stephang")) forever();
  if (!strcmp(mode, "exit")) {
    fputs("fake_engine: exiting on purpose\n", stderr);
    exit(3);
  }
  if (!strcmp(mode, "exit7")) exit(7);
  if (!strcmp(mode, "exitstep")) exit(0);
  if (!strcmp(mode, "garbage")) {
    puts("this is not JSON");
    fflush(stdout);
    return 1;
  }
  if (!strcmp(mode, "closeout")) {
    fclose(stdout);
    forever();
  }
  if (!strcmp(mode, "closeoutexit")) {
    fclose(stdout);
    sleep_s(0.05);
    fputs("fake_engine: closed stdout, now exiting\n", stderr);
    exit(5);
  }
  if (!strcmp(mode, "slow")) sleep_s(2.0);
  if (!strcmp(mode, "flood")) {
    static char x[65536];
    memset(x, 'x', sizeof x);
    for (;;) fwrite(x, 1, sizeof x, stdout);
  }
  if (!strcmp(mode, "longline")) {
    size_t n = 17u << 20;
    char *pad = malloc(n + 1);
    if (!pad) exit(1);
    memset(pad, 'x', n);
    pad[n] = 0;
    printf("{\"id\":%lld,\"ok\":true,\"pad\":\"%s\"}\n", (long long)id, pad);
    fflush(stdout);
    free(pad);
    return 1;
  }
  if (!strcmp(mode, "stderrflood"))
    for (long i = 0;; i++) fprintf(stderr, "fake_engine: noise line %ld\n", i);
  if (!strcmp(mode, "stderrexit")) {
    for (long i = 0; i < 6000; i++) fprintf(stderr, "fake_engine: log line %ld of a long story\n", i);
    fputs("fake_engine: the last words before exit 9\n", stderr);
    exit(9);
  }
  if (!strcmp(mode, "segv")) die_of(SIGSEGV);
  if (!strcmp(mode, "abort")) die_of(SIGABRT);
  if (!strcmp(mode, "stop")) raise(SIGSTOP);
  if (!strcmp(mode, "wrongid") || !strcmp(mode, "bigid")) {
    json_object_set_new(res, "id", json_integer(id + (!strcmp(mode, "bigid") ? ((json_int_t)1 << 32) : 1000)));
    write_line(res);
    return 1;
  }
  if (!strcmp(mode, "emptyline") || !strcmp(mode, "nonobject")) {
    puts(!strcmp(mode, "emptyline") ? "" : "[1,2,3]");
    fflush(stdout);
    return 1;
  }
  if (!strcmp(mode, "partial")) {
    printf("{\"id\": %lld, \"ok\"", (long long)id);
    fflush(stdout);
    forever();
  }
  if (!strcmp(mode, "twice")) {
    write_line(res);
    write_line(res);
    return 1;
  }
  if (!strcmp(mode, "grandchild")) {
    if (fork() == 0) {
      signal(SIGTERM, SIG_IGN);
      signal(SIGHUP, SIG_IGN);
      forever();
    }
    _exit(0);
  }
  if (!strcmp(mode, "closein")) {
    write_line(res);
    close(0);
    forever();
  }
  if (!strcmp(mode, "badutf8")) {
    fputs("fake_engine: bad bytes \xff\xfe on stderr\n", stderr);
    printf("{\"id\":%lld,\"ok\":false,\"error\":{\"code\":\"internal\",\"message\":\"bad \xff\xfe bytes\"}}\n",
           (long long)id);
    fflush(stdout);
    return 1;
  }
  if (!strcmp(mode, "utf8name")) { /* counted on hello: the name; setups fail below */
    char name[256] = "";
    for (int i = 0; i < 60; i++) strcat(name, "\xc3\xa9");
    json_object_set_new(res, "engine", json_string(name));
    return 0;
  }
  if (!strcmp(mode, "wrongop")) {
    json_t *o = json_pack("{s:I, s:b, s:{}, s:{}, s:{}, s:{}, s:{}}", "id", (json_int_t)id, "ok", 1, "objects",
                          "triggers", "refs", "players", "visible");
    write_line(o);
    json_decref(o);
    return 1;
  }
  if (!strcmp(mode, "noobjects")) {
    json_t *o = json_pack("{s:I, s:b}", "id", (json_int_t)id, "ok", 1);
    write_line(o);
    json_decref(o);
    return 1;
  }
  return 0;
}

/* fdcheck: the descriptors open beyond 0, 1, 2 written to stderr; how
 * many. */
static int inherited_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return 0;
  int n = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    int fd = atoi(de->d_name);
    if (de->d_name[0] == '.' || fd <= 2 || fd == dirfd(d)) continue;
    char path[64], target[256] = "";
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    ssize_t k = readlink(path, target, sizeof target - 1);
    target[k > 0 ? k : 0] = 0;
    fprintf(stderr, "fake_engine: inherited descriptor %d -> %s\n", fd, target);
    n++;
  }
  closedir(d);
  return n;
}

/* hugepos, negpos: positions beyond what the model holds. */
static void lie_about_positions(const char *mode, json_t *res) {
  const char *k;
  json_t *o;
  json_object_foreach(json_object_get(res, "objects"), k, o) {
    json_t *pos = json_object_get(o, "position");
    if (!strcmp(mode, "hugepos") && json_is_integer(pos))
      json_object_set_new(o, "position", json_integer(json_integer_value(pos) + ((json_int_t)1 << 32)));
    if (!strcmp(mode, "negpos") && !json_is_integer(pos)) json_object_set_new(o, "position", json_integer(-1));
  }
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  tokens = json_object();
  ids = json_object();
  int after_state_check = 0;
  int at = argc > 2 ? atoi(argv[2]) : 0;
  const char *counted = counted_op(mode);
  if (!strcmp(mode, "slowstart")) sleep_s(3.0);
  if (!strcmp(mode, "banner")) {
    puts("fake_engine 1.0 starting up");
    fflush(stdout);
  }
  if (!strcmp(mode, "ignoreterm")) {
    signal(SIGTERM, SIG_IGN);
    signal(SIGINT, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
  }
  zo_served *s = zo_served_new();
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, stdin) > 0) {
    json_error_t je;
    json_t *req = json_loads(line, 0, &je);
    const char *op = req ? json_string_value(json_object_get(req, "op")) : NULL;
    if (op && !strcmp(op, "hello") && !strcmp(mode, "fdcheck") && inherited_fds()) {
      printf("{\"id\":%lld,\"ok\":false,\"error\":{\"code\":\"internal\",\"message\":\"inherited descriptors\"}}\n",
             (long long)json_integer_value(json_object_get(req, "id")));
      fflush(stdout);
      json_decref(req);
      continue;
    }
    if (op && !strcmp(op, "hello") && !strcmp(mode, "nozcp")) {
      puts("{\"hello\": \"i speak something else\"}");
      fflush(stdout);
      continue;
    }
    if (op && !strcmp(op, "bye") && !strcmp(mode, "ignoreterm")) {
      json_t *ok = json_pack("{s:I, s:b}", "id", json_integer_value(json_object_get(req, "id")), "ok", 1);
      write_line(ok);
      json_decref(ok);
      json_decref(req);
      continue;
    }
    static int bad_observes, failing;
    json_t *res = zo_serve_request(s, req);
    if (op && !strcmp(op, counted) && bump() == at) {
      if (!strcmp(mode, "badschema")) bad_observes = 1;
      if (!strcmp(mode, "utf8name")) failing = 1;
      if (misbehave(mode, req, res)) {
        json_decref(res);
        json_decref(req);
        continue;
      }
    }
    if (failing && op && !strcmp(op, "setup")) { /* utf8name: long non-ASCII errors */
      char msg[1024] = "";
      for (int i = 0; i < 300; i++) strcat(msg, "\xc3\xbc");
      strcat(msg, "\nsecond line");
      json_decref(res);
      res = json_pack("{s:I, s:b, s:{s:s, s:s}}", "id", json_integer_value(json_object_get(req, "id")), "ok", 0,
                      "error", "code", "internal", "message", msg);
      fputs("fake_engine: \xd0\xbe\xd1\x88\xd0\xb8\xd0\xb1\xd0\xba\xd0\xb0 \xff\n", stderr);
    }
    static int steps;
    if (op && !strcmp(op, "step")) steps++;
    if (op && !strcmp(op, "setup")) steps = 0;
    if (op && !strcmp(op, "observe") && steps > 0 && !strcmp(mode, "lie")) {
      const char *k;
      json_t *o;
      json_object_foreach(json_object_get(res, "objects"), k, o) {
        json_object_set_new(o, "zone", json_string("nowhere"));
        break;
      }
    }
    if (op && !strcmp(op, "observe") && bad_observes > 0 && json_is_true(json_object_get(res, "ok"))) {
      bad_observes--;
      const char *k;
      json_t *o;
      json_object_foreach(json_object_get(res, "objects"), k, o) {
        json_object_set_new(o, "layer", json_string("bottom"));
        break;
      }
    }
    if (op) learn_tokens(op, req);
    if (op && !strcmp(op, "step"))
      after_state_check = json_object_get(json_object_get(req, "step"), "state_check") != NULL;
    if (op && !strcmp(op, "observe")) {
      lie_about_invariants(mode, after_state_check, res);
      lie_about_positions(mode, res);
    }
    write_line(res);
    json_decref(res);
    json_decref(req);
  }
  if (!strcmp(mode, "ignoreterm")) forever();
  json_decref(tokens);
  json_decref(ids);
  free(line);
  zo_served_free(s);
  return 0;
}
