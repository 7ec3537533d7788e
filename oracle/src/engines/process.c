/* engines/process.c: an engine under test as a child process speaking
 * zcp/1 (ci/protocol/PROTOCOL.md): one JSON request per line on its stdin, one response
 * per line on its stdout.
 *
 * Every request has a time limit; an engine that hangs, dies, closes its
 * output, writes a line that is not JSON or one longer than the size limit
 * makes that call fail with a kind (timeout, crash, error) and the stderr
 * tail, is killed, and is started again (handshake first) on the next
 * setup, so the run goes on with the next case.
 *
 * A tap (zo_engine_process_options.tap) records every request sent and
 * every answer received as one JSON line, for `gate --validate`; `smoke`
 * sends lines of its own through zo_engine_process_exchange.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../engine.h"
#include "../util.h"
#include "zo_engine.h"

#include <dlfcn.h>

#define LINE_MAX_BYTES (16u * 1024u * 1024u)

typedef struct {
  char *cmd;
  double timeout;         /* seconds per request */
  pid_t pid;
  int to, from;           /* pipes to and from the child */
  char errfile[64];       /* the child's stderr */
  char *buf;              /* read buffer */
  size_t len, cap;
  long next_id;
  char name[96], version[64];
  json_t *features, *rulesets;
  json_t *hello;          /* the last handshake's answer */
  FILE *tap;              /* the transcript, or NULL (borrowed) */
  const zo_case *c;
  int started_once, ever_ok;
  /* a plugin (zo_engine.h) instead of a child process */
  void *dl;
  const struct zo_engine_ops *plugin;
  void *session;
  zo_engine_vtable ops;      /* name/version filled after the handshake */
} proc;

static const char *or_text(const char *s, const char *dflt) { return s ? s : dflt; }

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void stderr_tail(proc *p, char *out, size_t cap) {
  out[0] = 0;
  FILE *f = fopen(p->errfile, "r");
  if (!f) return;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  long from = n > (long)cap - 1 ? n - (long)cap + 1 : 0;
  fseek(f, from, SEEK_SET);
  size_t r = fread(out, 1, cap - 1, f);
  out[r] = 0;
  fclose(f);
  for (char *s = out; *s; s++)
    if (*s == '\n') *s = ' ';
}

static void stop(proc *p) {
  if (p->pid > 0) {
    kill(p->pid, SIGKILL);
    waitpid(p->pid, NULL, 0);
  }
  if (p->to >= 0) close(p->to);
  if (p->from >= 0) close(p->from);
  p->pid = 0;
  p->to = p->from = -1;
  p->len = 0;
}

/* Fill err: kind is "timeout", "crash" or "error" (err->context). */
static zo_status engine_fail(proc *p, zo_error *err, const char *kind, const char *what) {
  char tail[300];
  stderr_tail(p, tail, sizeof tail);
  if (err) {
    err->code = ZO_ERR_ENGINE;
    err->line = err->column = 0;
    snprintf(err->file, sizeof err->file, "%s", p->cmd);
    snprintf(err->context, sizeof err->context, "%s", kind);
    snprintf(err->message, sizeof err->message, "%.190s%s%s", what, tail[0] ? "; stderr: " : "", tail);
  }
  stop(p);
  return ZO_ERR_ENGINE;
}

static zo_status start(proc *p, zo_error *err);

/* One transcript line: {"dir": dir, "op": op, "message": message}, or
 * "raw": the text of an answer that is not JSON (bytes >= 0x80 as '?' when
 * they are not UTF-8). Nothing when op is NULL (smoke's own lines). */
static void tap_write(proc *p, const char *dir, const char *op, json_t *message, const char *raw,
                      size_t rawlen) {
  if (!p->tap || !op) return;
  json_t *rec = json_pack("{s:s, s:s}", "dir", dir, "op", op[0] ? op : "?");
  if (message) json_object_set(rec, "message", message);
  else {
    json_t *text = json_stringn(raw ? raw : "", raw ? rawlen : 0);
    if (!text) {
      char *copy = zo_xmalloc(rawlen + 1);
      for (size_t i = 0; i < rawlen; i++) copy[i] = (unsigned char)raw[i] < 0x80 ? raw[i] : '?';
      text = json_stringn(copy, rawlen);
      free(copy);
    }
    json_object_set_new(rec, "raw", text ? text : json_string(""));
  }
  char *line = json_dumps(rec, JSON_COMPACT | JSON_PRESERVE_ORDER);
  if (line) {
    fputs(line, p->tap);
    fputc('\n', p->tap);
    free(line);
  }
  json_decref(rec);
}

/* A plugin's answer to `text` (the answer parsed into *out, new reference,
 * any JSON value or NULL; tapped as the answer to op unless op is NULL). */
static void plugin_answer(proc *p, const char *text, const char *op, json_t **out) {
  char *answer_text = p->plugin->request(p->session, text);
  json_error_t je;
  *out = answer_text ? json_loads(answer_text, JSON_DECODE_ANY, &je) : NULL;
  if (answer_text) tap_write(p, "response", op, *out, answer_text, strlen(answer_text));
  if (answer_text) p->plugin->free_response(answer_text);
}

/* Write n bytes (one line with its newline) to the child's stdin. */
static zo_status send_line(proc *p, const char *text, size_t n, zo_error *err) {
  size_t off = 0;
  while (off < n) {
    ssize_t w = write(p->to, text + off, n - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      int status = 0;
      char what[200] = "the engine closed its input";
      if (p->pid > 0 && waitpid(p->pid, &status, WNOHANG) == p->pid) {
        p->pid = 0;
        if (WIFSIGNALED(status)) snprintf(what, sizeof what, "the engine died (signal %d)", WTERMSIG(status));
        else snprintf(what, sizeof what, "the engine exited (status %d)", WEXITSTATUS(status));
      }
      return engine_fail(p, err, "crash", what);
    }
    off += (size_t)w;
  }
  return ZO_OK;
}

/* Read the child's next line within the time limit: a JSON object (new
 * reference in *out; tapped as the answer to op unless op is NULL), else
 * the engine fails. */
static zo_status read_answer(proc *p, const char *op, json_t **out, zo_error *err) {
  double deadline = now() + p->timeout;
  for (;;) {
    char *nl = p->len ? memchr(p->buf, '\n', p->len) : NULL;
    if (nl) {
      size_t line = (size_t)(nl - p->buf);
      json_error_t je;
      json_t *res = json_loadb(p->buf, line, 0, &je);
      tap_write(p, "response", op, res, p->buf, line);
      memmove(p->buf, nl + 1, p->len - line - 1);
      p->len -= line + 1;
      if (!res || !json_is_object(res)) {
        json_decref(res);
        char what[300];
        snprintf(what, sizeof what, "the engine wrote a line that is not a JSON object (%s)",
                 res ? "not an object" : je.text);
        return engine_fail(p, err, "error", what);
      }
      *out = res;
      return ZO_OK;
    }
    if (p->len >= LINE_MAX_BYTES) return engine_fail(p, err, "error", "the engine wrote a line over 16 MiB");
    double left = deadline - now();
    if (left <= 0) {
      char what[120];
      snprintf(what, sizeof what, "no answer within %.1f s", p->timeout);
      return engine_fail(p, err, "timeout", what);
    }
    struct pollfd pf = {.fd = p->from, .events = POLLIN};
    int r = poll(&pf, 1, (int)(left * 1000) + 1);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) continue;
    if (p->cap - p->len < 65536) {
      p->cap = p->cap ? p->cap * 2 : 1 << 16;
      p->buf = zo_xrealloc(p->buf, p->cap);
    }
    ssize_t got = read(p->from, p->buf + p->len, p->cap - p->len);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      int status = 0;
      char what[200] = "the engine closed its output";
      if (p->pid > 0 && waitpid(p->pid, &status, 0) == p->pid) {
        p->pid = 0;
        if (WIFSIGNALED(status)) snprintf(what, sizeof what, "the engine died (signal %d)", WTERMSIG(status));
        else snprintf(what, sizeof what, "the engine exited (status %d) without answering", WEXITSTATUS(status));
      }
      return engine_fail(p, err, "crash", what);
    }
    p->len += (size_t)got;
  }
}

/* Send a request, read the response object (new reference in *out). */
static zo_status call(proc *p, json_t *req, json_t **out, zo_error *err) {
  *out = NULL;
  json_object_set_new(req, "id", json_integer(++p->next_id));
  char op[32];
  snprintf(op, sizeof op, "%s", or_text(json_string_value(json_object_get(req, "op")), ""));
  char *text = json_dumps(req, JSON_COMPACT);
  if (text) tap_write(p, "request", op, req, NULL, 0);
  json_decref(req);
  if (!text) return engine_fail(p, err, "error", "could not encode a request");
  if (p->plugin) { /* in process: the same message through the plugin ABI */
    json_t *res;
    plugin_answer(p, text, op, &res);
    free(text);
    if (!json_is_object(res) || json_integer_value(json_object_get(res, "id")) != p->next_id) {
      json_decref(res);
      if (err) {
        err->code = ZO_ERR_ENGINE;
        snprintf(err->context, sizeof err->context, "error");
        snprintf(err->message, sizeof err->message, "the plugin answered no JSON object with the request's id");
      }
      return ZO_ERR_ENGINE;
    }
    *out = res;
    return ZO_OK;
  }
  size_t n = strlen(text);
  text[n] = '\n';
  zo_status st = send_line(p, text, n + 1, err);
  free(text);
  if (st) return st;
  json_t *res;
  if ((st = read_answer(p, op, &res, err))) return st;
  if (json_integer_value(json_object_get(res, "id")) != p->next_id) {
    json_decref(res);
    return engine_fail(p, err, "error", "the engine answered with another request's id");
  }
  *out = res;
  return ZO_OK;
}

/* ok: false answers become errors; `unsupported` is reported as such. */
static zo_status answer(proc *p, json_t *res, zo_error *err) {
  if (json_is_true(json_object_get(res, "ok"))) return ZO_OK;
  json_t *e = json_object_get(res, "error");
  const char *code = json_string_value(json_object_get(e, "code"));
  const char *msg = json_string_value(json_object_get(e, "message"));
  if (err) {
    err->code = ZO_ERR_ENGINE;
    err->line = err->column = 0;
    snprintf(err->file, sizeof err->file, "%s", p->cmd);
    snprintf(err->context, sizeof err->context, "%s",
             code && !strcmp(code, "unsupported") ? "unsupported" : "answer");
    snprintf(err->message, sizeof err->message, "engine answered %s: %s", code ? code : "an error",
             msg ? msg : "");
  }
  return ZO_ERR_ENGINE;
}

static zo_status start(proc *p, zo_error *err) {
  int in[2], outp[2];
  if (pipe(in) || pipe(outp)) return engine_fail(p, err, "crash", "pipe failed");
  snprintf(p->errfile, sizeof p->errfile, "/tmp/zoneoracle-engine-%ld.err", (long)getpid());
  pid_t pid = fork();
  if (pid < 0) return engine_fail(p, err, "crash", "fork failed");
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(outp[1], 1);
    int e = open(p->errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (e >= 0) dup2(e, 2);
    close(in[1]);
    close(outp[0]);
    execl("/bin/sh", "sh", "-c", p->cmd, (char *)NULL);
    _exit(127);
  }
  close(in[0]);
  close(outp[1]);
  p->pid = pid;
  p->to = in[1];
  p->from = outp[0];
  p->len = 0;
  p->started_once = 1;
  json_t *res;
  zo_status st = call(p, json_pack("{s:s, s:s}", "op", "hello", "protocol", "zcp/1"), &res, err);
  if (st) return st;
  if (answer(p, res, err)) {
    json_decref(res);
    stop(p);
    return ZO_ERR_ENGINE;
  }
  snprintf(p->name, sizeof p->name, "%s", or_text(json_string_value(json_object_get(res, "engine")), "engine"));
  snprintf(p->version, sizeof p->version, "%s", or_text(json_string_value(json_object_get(res, "version")), "?"));
  json_decref(p->features);
  json_decref(p->rulesets);
  json_decref(p->hello);
  p->features = json_incref(json_object_get(res, "features"));
  p->rulesets = json_incref(json_object_get(res, "rulesets"));
  p->hello = res;
  p->ever_ok = 1;
  return ZO_OK;
}

static zo_status pr_setup(void *self, const zo_ruleset *rs, const zo_case *c, zo_error *err) {
  proc *p = self;
  p->c = c;
  if (!p->plugin && p->pid <= 0) {
    zo_status st = start(p, err);
    if (st) return st;
  }
  json_error_t je;
  json_t *cards = json_loads(c->cards_json ? c->cards_json : "{}", 0, &je), *players = json_array();
  for (int i = 0; i < c->nplayers; i++) json_array_append_new(players, json_string(c->players[i]));
  json_t *res;
  zo_status st = call(p, json_pack("{s:s, s:s, s:o, s:o}", "op", "setup", "ruleset", rs->id,
                                   "players", players, "cards", cards ? cards : json_object()),
                      &res, err);
  if (st) return st;
  st = answer(p, res, err);
  json_decref(res);
  return st;
}

static int handle_of(const zo_case *c, const char *name) {
  for (int i = 0; name && i < c->nhandles; i++)
    if (!strcmp(c->handles[i], name)) return i;
  return -1;
}

static int player_of(const zo_case *c, const char *name) {
  for (int i = 0; name && i < c->nplayers; i++)
    if (!strcmp(c->players[i], name)) return i;
  return -1;
}

static void read_result(const zo_case *c, json_t *res, zo_step_result *r) {
  const char *o = json_string_value(json_object_get(res, "outcome"));
  int oc = o ? zo_outcome_parse(o) : -1;
  r->outcome = oc > 0 ? (zo_outcome)oc : ZO_OUTCOME_NONE;
  const char *e = json_string_value(json_object_get(res, "error"));
  int ec = e ? zo_step_error_parse(e) : 0;
  r->error = ec > 0 ? (zo_step_error)ec : ZO_E_NONE;
  size_t i;
  json_t *ev;
  json_array_foreach(json_object_get(res, "events"), i, ev) {
    int h = handle_of(c, json_string_value(json_object_get(ev, "handle")));
    const char *eo = json_string_value(json_object_get(ev, "outcome"));
    int k = eo ? zo_outcome_parse(eo) : -1;
    if (h < 0 || k <= 0) continue;
    if (r->nevents == r->capevents) {
      r->capevents = r->capevents ? r->capevents * 2 : 8;
      r->events = zo_xrealloc(r->events, (size_t)r->capevents * sizeof *r->events);
    }
    r->events[r->nevents].handle = h;
    r->events[r->nevents++].outcome = (zo_outcome)k;
  }
}

static zo_status pr_step(void *self, const zo_step *s, zo_step_result *r, zo_error *err) {
  proc *p = self;
  json_error_t je;
  json_t *step = json_loads(s->json ? s->json : "null", JSON_DECODE_ANY, &je);
  json_t *res;
  zo_status st = call(p, json_pack("{s:s, s:o}", "op", "step", "step", step ? step : json_null()),
                      &res, err);
  if (st) return st;
  st = answer(p, res, err);
  if (!st) read_result(p->c, res, r);
  json_decref(res);
  return st;
}

/* An identity token: a number, or a string hashed (compared only for
 * equality, ci/protocol/PROTOCOL.md). */
static uint64_t identity(json_t *v) {
  if (json_is_integer(v)) return (uint64_t)json_integer_value(v) + 1;
  const char *s = json_string_value(v);
  uint64_t h = 1469598103934665603ULL;
  for (; s && *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

static void read_observation(const zo_case *c, json_t *res, zo_observation *ob);

static zo_status pr_observe(void *self, zo_observation *ob, zo_error *err) {
  proc *p = self;
  json_t *res;
  zo_status st = call(p, json_pack("{s:s}", "op", "observe"), &res, err);
  if (st) return st;
  if ((st = answer(p, res, err))) {
    json_decref(res);
    return st;
  }
  read_observation(p->c, res, ob);
  json_decref(res);
  return ZO_OK;
}

/* An observe answer (or one of a run's observations) into ob. */
static void read_observation(const zo_case *c, json_t *res, zo_observation *ob) {
  ob->nhandles = c->nhandles;
  ob->objs = zo_xcalloc((size_t)c->nhandles + 1, sizeof *ob->objs);
  json_t *objs = json_object_get(res, "objects");
  for (int h = 0; h < c->nhandles; h++) {
    zo_obj_obs *o = &ob->objs[h];
    o->position = o->layer = o->controller = o->owner = o->under = -1;
    json_t *x = json_object_get(objs, c->handles[h]);
    if (!json_is_object(x)) continue;
    o->exists = json_is_true(json_object_get(x, "exists"));
    snprintf(o->zone, sizeof o->zone, "%s", or_text(json_string_value(json_object_get(x, "zone")), ""));
    o->object = identity(json_object_get(x, "object"));
    if (json_is_integer(json_object_get(x, "position"))) o->position = (int)json_integer_value(json_object_get(x, "position"));
    if (json_is_integer(json_object_get(x, "layer"))) o->layer = (int)json_integer_value(json_object_get(x, "layer"));
    const char *vis = json_string_value(json_object_get(x, "visibility"));
    o->visibility = vis && !strcmp(vis, "public");
    const char *face = json_string_value(json_object_get(x, "face"));
    o->face_down = face && !strcmp(face, "down");
    o->controller = player_of(c, json_string_value(json_object_get(x, "controller")));
    o->owner = player_of(c, json_string_value(json_object_get(x, "owner")));
    o->under = handle_of(c, json_string_value(json_object_get(x, "under")));
    o->phased_out = json_is_true(json_object_get(x, "phased_out"));
    snprintf(o->came_from, sizeof o->came_from, "%s", or_text(json_string_value(json_object_get(x, "came_from")), ""));
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(x, "marks"), i, m) {
      for (int k = 0; k < c->nmarknames && o->nmarks < ZO_MAX_MARKS_PER_OBJ; k++)
        if (json_string_value(m) && !strcmp(c->marknames[k], json_string_value(m))) o->marks[o->nmarks++] = k;
    }
  }
  ob->ntriggers = c->ntriggers;
  ob->trig_fired = zo_xcalloc((size_t)c->ntriggers + 1, sizeof(int));
  ob->trig_found = zo_xcalloc((size_t)c->ntriggers + 1, sizeof(int));
  ob->trig_controller = zo_xcalloc((size_t)c->ntriggers + 1, sizeof(int));
  for (int t = 0; t < c->ntriggers; t++) {
    json_t *x = json_object_get(json_object_get(res, "triggers"), c->triggers[t]);
    ob->trig_fired[t] = json_is_true(json_object_get(x, "fired"));
    json_t *found = json_object_get(x, "found");
    ob->trig_found[t] = json_is_boolean(found) ? json_is_true(found) : -1;
    ob->trig_controller[t] = player_of(c, json_string_value(json_object_get(x, "controller")));
  }
  ob->nrefs = c->nrefs;
  ob->ref_found = zo_xcalloc((size_t)c->nrefs + 1, sizeof(int));
  ob->ref_handle = zo_xcalloc((size_t)c->nrefs + 1, sizeof(int));
  for (int r = 0; r < c->nrefs; r++) {
    json_t *x = json_object_get(json_object_get(res, "refs"), c->refs[r]);
    ob->ref_found[r] = json_is_true(json_object_get(x, "found"));
    ob->ref_handle[r] = handle_of(c, json_string_value(json_object_get(x, "handle")));
  }
  ob->nplayers = c->nplayers;
  ob->sees = zo_xcalloc((size_t)(c->nplayers * c->nhandles) + 1, 1);
  for (int pl = 0; pl < c->nplayers; pl++) {
    ob->lost[pl] = json_is_true(json_object_get(json_object_get(json_object_get(res, "players"), c->players[pl]), "lost"));
    size_t i;
    json_t *h;
    json_array_foreach(json_object_get(json_object_get(res, "visible"), c->players[pl]), i, h) {
      int k = handle_of(c, json_string_value(h));
      if (k >= 0) ob->sees[pl * c->nhandles + k] = 1;
    }
  }
}

static void pr_teardown(void *self) { ((proc *)self)->c = NULL; }

static int pr_has(void *self, const char *what, int ruleset) {
  proc *p = self;
  json_t *list = ruleset ? p->rulesets : p->features;
  if (!json_is_array(list)) return 0;
  size_t i;
  json_t *x;
  json_array_foreach(list, i, x) if (json_string_value(x) && !strcmp(json_string_value(x), what)) return 1;
  return 0;
}

/* The ops, shared by processes and plugins. */
static zo_engine *finish(proc *p) {
  p->ops.abi_version = 1;
  p->ops.name = p->name;
  p->ops.version = p->version;
  p->ops.setup = pr_setup;
  p->ops.step = pr_step;
  p->ops.observe = pr_observe;
  p->ops.teardown = pr_teardown;
  p->ops.has = pr_has;
  zo_engine *e = zo_xcalloc(1, sizeof *e);
  e->ops = &p->ops;
  e->self = p;
  return e;
}

static zo_status plugin_hello(proc *p, zo_error *err) {
  json_t *res;
  zo_status st = call(p, json_pack("{s:s, s:s}", "op", "hello", "protocol", "zcp/1"), &res, err);
  if (st) return st;
  if (answer(p, res, err)) {
    json_decref(res);
    return ZO_ERR_ENGINE;
  }
  snprintf(p->name, sizeof p->name, "%s", or_text(json_string_value(json_object_get(res, "engine")), "engine"));
  snprintf(p->version, sizeof p->version, "%s", or_text(json_string_value(json_object_get(res, "version")), "?"));
  p->features = json_incref(json_object_get(res, "features"));
  p->rulesets = json_incref(json_object_get(res, "rulesets"));
  p->hello = res;
  return ZO_OK;
}

zo_engine *zo_engine_plugin_open(const char *path, const zo_engine_process_options *o,
                                 zo_error *err) {
  proc *p = zo_xcalloc(1, sizeof *p);
  p->cmd = zo_xstrdup(path);
  p->to = p->from = -1;
  p->tap = o ? o->tap : NULL;
  p->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  const struct zo_engine_ops *(*entry)(void) = NULL;
  char why[300] = "";
  if (!p->dl) snprintf(why, sizeof why, "%s", dlerror());
  else if (!(*(void **)&entry = dlsym(p->dl, "zo_engine_v1"))) snprintf(why, sizeof why, "no symbol zo_engine_v1");
  else if (!(p->plugin = entry()) || p->plugin->abi_version != ZO_ENGINE_ABI_VERSION)
    snprintf(why, sizeof why, "the plugin's abi_version is not %u", ZO_ENGINE_ABI_VERSION);
  else if (!(p->session = p->plugin->open())) snprintf(why, sizeof why, "the plugin's open() failed");
  else if (plugin_hello(p, err)) snprintf(why, sizeof why, "no zcp/1 handshake: %.200s", err ? err->message : "");
  if (why[0]) {
    if (err) {
      err->code = ZO_ERR_ENGINE;
      snprintf(err->file, sizeof err->file, "%s", path);
      snprintf(err->message, sizeof err->message, "%s", why);
    }
    if (p->session) p->plugin->close(p->session);
    if (p->dl) dlclose(p->dl);
    free(p->cmd);
    free(p);
    return NULL;
  }
  return finish(p);
}

zo_engine *zo_engine_plugin_new(const char *path, zo_error *err) {
  return zo_engine_plugin_open(path, NULL, err);
}

zo_engine *zo_engine_process_open(const char *cmd, const zo_engine_process_options *o,
                                  zo_error *err) {
  signal(SIGPIPE, SIG_IGN); /* a dead engine must not take the runner with it */
  proc *p = zo_xcalloc(1, sizeof *p);
  p->cmd = zo_xstrdup(cmd);
  p->timeout = o && o->timeout > 0 ? o->timeout : 5.0;
  p->tap = o ? o->tap : NULL;
  p->to = p->from = -1;
  if (start(p, err)) {
    /* 2: the engine could not be started or spoke no zcp */
    unlink(p->errfile);
    free(p->cmd);
    free(p->buf);
    free(p);
    return NULL;
  }
  return finish(p);
}

zo_engine *zo_engine_process_new(const char *cmd, double timeout, zo_error *err) {
  zo_engine_process_options o = {.timeout = timeout};
  return zo_engine_process_open(cmd, &o, err);
}

const json_t *zo_engine_process_hello(const zo_engine *e) { return ((const proc *)e->self)->hello; }

zo_status zo_engine_process_exchange(zo_engine *e, const char *line, json_t **answer, zo_error *err) {
  proc *p = e->self;
  *answer = NULL;
  if (p->plugin) {
    plugin_answer(p, line, NULL, answer);
    if (json_is_object(*answer)) return ZO_OK;
    json_decref(*answer);
    *answer = NULL;
    if (err) {
      err->code = ZO_ERR_ENGINE;
      snprintf(err->context, sizeof err->context, "error");
      snprintf(err->message, sizeof err->message, "the plugin answered no JSON object");
    }
    return ZO_ERR_ENGINE;
  }
  if (p->pid <= 0) {
    zo_status st = start(p, err);
    if (st) return st;
  }
  size_t n = strlen(line);
  char *text = zo_xmalloc(n + 2);
  memcpy(text, line, n);
  text[n] = '\n';
  zo_status st = send_line(p, text, n + 1, err);
  free(text);
  return st ? st : read_answer(p, NULL, answer, err);
}

zo_status zo_engine_process_bye(zo_engine *e, zo_error *err) {
  proc *p = e->self;
  if (!p->plugin && p->pid <= 0) {
    zo_status st = start(p, err);
    if (st) return st;
  }
  json_t *res;
  zo_status st = call(p, json_pack("{s:s}", "op", "bye"), &res, err);
  if (st) return st;
  st = answer(p, res, err);
  json_decref(res);
  if (st || p->plugin) {
    if (!p->plugin) stop(p);
    return st;
  }
  /* a process exits after answering (or at the end of its input, which
     comes now): its output ends, then it is gone */
  close(p->to);
  p->to = -1;
  double deadline = now() + p->timeout;
  int status = 0;
  for (;;) {
    pid_t w = waitpid(p->pid, &status, WNOHANG);
    if (w == p->pid) break;
    double left = deadline - now();
    if (left <= 0) {
      char what[120];
      snprintf(what, sizeof what, "still running %.1f s after answering bye", p->timeout);
      return engine_fail(p, err, "timeout", what);
    }
    struct pollfd pf = {.fd = p->from, .events = POLLIN};
    if (poll(&pf, 1, left < 0.02 ? (int)(left * 1000) + 1 : 20) > 0) {
      char sink[4096];
      if (read(p->from, sink, sizeof sink) <= 0) { /* closed: wait for the exit */
        close(p->from);
        p->from = -1;
      }
    }
  }
  p->pid = 0;
  stop(p);
  return ZO_OK;
}

void zo_engine_process_free(zo_engine *e) {
  if (!e) return;
  proc *p = e->self;
  if (p->plugin) {
    /* the library stays loaded until exit (its process-lifetime tables,
       such as a rule set registry, must stay reachable) */
    p->plugin->close(p->session);
  }
  if (p->pid > 0) {
    json_t *res;
    if (!call(p, json_pack("{s:s}", "op", "bye"), &res, NULL)) json_decref(res);
  }
  stop(p);
  unlink(p->errfile);
  json_decref(p->features);
  json_decref(p->rulesets);
  json_decref(p->hello);
  free(p->cmd);
  free(p->buf);
  free(p);
  free(e);
}

zo_status zo_engine_process_run(zo_engine *e, const zo_case *c, zo_step_result *results,
                                zo_observation *obs, zo_error *err) {
  memset(err, 0, sizeof *err);
  if (e->ops->setup != pr_setup) return ZO_ERR_USAGE; /* not a zcp/1 engine: no batch */
  proc *p = e->self;
  zo_status st = pr_observe(p, &obs[0], err);
  if (st) return st;
  json_t *steps = json_array();
  for (int i = 0; i < c->nsteps; i++) {
    json_error_t je;
    json_t *one = json_loads(c->steps[i].json ? c->steps[i].json : "null", JSON_DECODE_ANY, &je);
    json_array_append_new(steps, one ? one : json_null());
  }
  json_t *res;
  st = call(p, json_pack("{s:s, s:o, s:s}", "op", "run", "steps", steps, "observe", "each"), &res, err);
  if (st) return st;
  if ((st = answer(p, res, err))) {
    json_decref(res);
    return st;
  }
  json_t *rs = json_object_get(res, "results"), *os = json_object_get(res, "observations");
  if (json_array_size(rs) != (size_t)c->nsteps || json_array_size(os) != (size_t)c->nsteps) {
    json_decref(res);
    return engine_fail(p, err, "error", "a run answer needs one result and one observation per step");
  }
  for (int i = 0; i < c->nsteps; i++) {
    read_result(c, json_array_get(rs, (size_t)i), &results[i + 1]);
    read_observation(c, json_array_get(os, (size_t)i), &obs[i + 1]);
  }
  json_decref(res);
  return ZO_OK;
}
