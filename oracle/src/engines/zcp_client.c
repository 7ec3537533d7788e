/* engines/zcp_client.c: an engine under test driven over zcp/1
 * (ci/protocol/PROTOCOL.md) behind the engine interface (engine.h): one
 * JSON request per line, one answer per line, each request with an id its
 * answer must carry, the handshake (hello) whenever the engine starts, bye
 * at the end, and `run` for many steps in one round trip. An engine is
 * one of
 *   - a command (--engine CMD): a child process (zcp_process.c);
 *   - a plugin (--engine-plugin LIB.so, zo_engine.h), by default in a
 *     forked worker: a child of the runner that loads the library and
 *     relays each request line to its request() and each answer back
 *     (zcp_plugin.c), so the runner drives it exactly like a command (time
 *     limits, restarts, crash reports) and a plugin that crashes, calls
 *     exit() or loops forever fails its case instead of taking the runner
 *     with it;
 *   - a plugin in process (zo_engine_process_options.in_process, for the
 *     fuzz harnesses, where speed matters): the same messages through its
 *     request(), no pipes, no isolation, no time limit.
 *
 * On top of what zcp_process.c guarantees for a child:
 *   - A line that is not a JSON object (an empty line, garbage, bytes that
 *     are not UTF-8) or an answer with another request's id is an error:
 *     the child is stopped and started again (handshake first) by the next
 *     setup, so the run goes on with the next case.
 *   - An answer that is JSON but not a right answer to its request (a step
 *     answer without an outcome, an observe answer without objects, a
 *     position or layer outside the range the model holds: zcp_json.c) is
 *     an error naming the field; the engine is kept.
 *   - ok: false is an answer failure, or unsupported when that is its code.
 *   - Messages and names taken from an engine are valid UTF-8 on one line
 *     (zcp_fault.c): bytes that are not UTF-8 are written \xNN, control
 *     characters as spaces, and text is cut only between characters.
 *
 * A tap (zo_engine_process_options.tap) records every request sent and
 * every answer received as one JSON line, for `gate --validate`; `smoke`
 * sends lines of its own through zo_engine_process_exchange.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "error.h"
#include "zcp_int.h"
#include "util.h"
#include "zcp_json.h"
#include "zo_engine.h"

typedef enum { RUN_COMMAND, RUN_WORKER, RUN_IN_PROCESS } run_kind;

/* One engine: what it said at the handshake, the case it plays, and the
 * child or the plugin that answers. */
typedef struct {
  char *cmd;               /* the command, or the plugin's path */
  run_kind kind;
  long next_id;            /* the last request's id */
  char name[96], version[64];
  json_t *features, *rulesets;
  json_t *hello;           /* the last handshake's answer */
  int protocol;            /* the version it speaks: 1 or 2 (zcp/2: run deltas) */
  uint64_t declared;       /* its features as bits, parts by its version included */
  zo_capabilities caps;    /* what its game holds (hello's capabilities, zcp/2) */
  int has_caps;            /* 1 when it said so */
  const char **cap_zones;  /* caps.zones: strings of hello (owned array) */
  const char **cap_face_down; /* caps.face_down, likewise */
  FILE *tap;               /* the transcript, or NULL (borrowed) */
  const zo_case *c;        /* the case set up, borrowed until teardown */
  zo_zcp_names names;      /* c's handle names, for reading answers */
  zcp_child child;         /* a command or a worker */
  zcp_plugin plugin;       /* a plugin in process */
  zo_engine_vtable ops;    /* name/version filled after the handshake */
  int inflight;            /* requests sent ahead whose answers are unread
                              (ids next_id - inflight + 1 .. next_id) */
  zo_zcp_line line;        /* the request being sent ahead (reused) */
  int run_steps;           /* steps of the run being exchanged (its time limit), 0 */
  int sight_changes;       /* it declared visible_changes (zcp/2): runs ask for them */
} proc;

static const char *or_text(const char *s, const char *dflt) { return s ? s : dflt; }

/* ---- the transcript --------------------------------------------------------- */

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

/* ---- requests and answers --------------------------------------------------- */

/* A plugin's answer to `text` in process (the answer parsed into *out,
 * new reference, any JSON value or NULL; tapped as the answer to op unless
 * op is NULL). */
static void plugin_answer(proc *p, const char *text, const char *op, json_t **out) {
  char *answer_text = p->plugin.ops->request(p->plugin.session, text);
  json_error_t je;
  *out = answer_text ? json_loads(answer_text, JSON_DECODE_ANY, &je) : NULL;
  if (answer_text) tap_write(p, "response", op, *out, answer_text, strlen(answer_text));
  if (answer_text) p->plugin.ops->free_response(answer_text);
}

/* Read the child's next line by the deadline: a JSON object (new
 * reference in *out; tapped as the answer to op unless op is NULL). Else
 * ZO_ERR_ENGINE with the child stopped and err filled (timeout, crash, or
 * error for a line that is not a JSON object). */
static zo_status read_answer(proc *p, const char *op, double deadline, json_t **out, zo_error *err) {
  size_t line;
  zo_status st = zcp_child_read_line(&p->child, deadline, &line, err);
  if (st) return st;
  json_error_t je;
  json_t *res = json_loadb(p->child.buf, line, 0, &je);
  tap_write(p, "response", op, res, p->child.buf, line);
  zcp_child_drop_line(&p->child, line);
  if (!res || !json_is_object(res)) {
    json_decref(res);
    const char *why = !line ? "an empty line" : res ? "not an object" : je.text;
    char what[300] = "the engine wrote a line that is not a JSON object (";
    zcp_text_put(what, sizeof what - 2, why, strlen(why));
    strcat(what, ")");
    return zcp_child_fail(&p->child, err, ZO_ENGINE_FAULT_ERROR, what);
  }
  *out = res;
  return ZO_OK;
}

static void drain(proc *p);

/* Send p->line (a request carrying id p->next_id, and its newline) and
 * read its answer: a JSON object with that id (new reference in *out, the
 * caller decrefs), within the time limit for a child; op names the request
 * in the transcript. Else ZO_ERR_ENGINE with err filled (a child is
 * stopped unless it was not running). */
static zo_status exchange(proc *p, const char *op, json_t **out, zo_error *err) {
  *out = NULL;
  if (p->kind == RUN_IN_PROCESS) { /* the same message through the plugin ABI */
    json_t *res;
    p->line.p[p->line.n - 1] = 0; /* a C string: its newline becomes its end */
    plugin_answer(p, p->line.p, op, &res);
    json_t *id = json_object_get(res, "id");
    if (!json_is_object(res) || !json_is_integer(id) || json_integer_value(id) != (json_int_t)p->next_id) {
      json_decref(res);
      return zcp_fault(err, ZO_ENGINE_FAULT_ERROR, p->cmd, "the plugin answered no JSON object with the request's id");
    }
    *out = res;
    return ZO_OK;
  }
  if (p->child.pid <= 0)
    return zcp_fault(err, ZO_ENGINE_FAULT_CRASH, p->cmd, "the engine is not running (it failed on an earlier request)");
  /* a run of n steps has the limits of 1 + n / 16 requests: time and
     answer size (PROTOCOL.md 1, 3) */
  double deadline = zo_now() + p->child.timeout * (1.0 + p->run_steps / 16.0);
  p->child.line_max = (size_t)(ZCP_LINE_MAX * (1.0 + p->run_steps / 16.0));
  zo_status st = zcp_child_send(&p->child, p->line.p, p->line.n, deadline, err);
  json_t *res;
  if (!st) st = read_answer(p, op, deadline, &res, err);
  p->child.line_max = 0;
  if (st) return st;
  json_t *id = json_object_get(res, "id");
  if (!json_is_integer(id) || json_integer_value(id) != (json_int_t)p->next_id) {
    char *shown = id ? json_dumps(id, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
    char what[200];
    snprintf(what, sizeof what, "the engine answered with another request's id (%.60s, expected %ld)",
             shown ? shown : "none", p->next_id);
    free(shown);
    json_decref(res);
    return zcp_child_fail(&p->child, err, ZO_ENGINE_FAULT_ERROR, what);
  }
  *out = res;
  return ZO_OK;
}

/* Request req (taken) written into p->line with the next id, and into the
 * transcript; its op word into op (32 bytes). 0, or -1 when it cannot be
 * encoded (no id taken, nothing written). */
static int request_line(proc *p, json_t *req, char *op) {
  json_object_set_new(req, "id", json_integer(++p->next_id));
  snprintf(op, 32, "%s", or_text(json_string_value(json_object_get(req, "op")), ""));
  int bad = zo_zcp_line_write(&p->line, req);
  if (bad) p->next_id--;
  else tap_write(p, "request", op, req, NULL, 0);
  json_decref(req);
  return bad;
}

/* The error of a request that could not be encoded. */
static zo_status unencodable(proc *p, zo_error *err) {
  return zcp_fault(err, ZO_ENGINE_FAULT_ERROR, p->cmd, "could not encode a request");
}

/* Send request req (taken) with the next id, and read its answer as
 * exchange() does. Else ZO_ERR_ENGINE with err filled (also when the
 * request could not be encoded). */
static zo_status call(proc *p, json_t *req, json_t **out, zo_error *err) {
  *out = NULL;
  if (p->inflight) drain(p); /* answers nobody waits for any more */
  char op[32];
  if (request_line(p, req, op)) return unencodable(p, err);
  return exchange(p, op, out, err);
}

/* ok: false answers become errors (kind answer; unsupported when that is
 * the error's code): "engine answered CODE: MESSAGE", the text up to the
 * code's end cut to 200 bytes. */
static zo_status answer(proc *p, json_t *res, zo_error *err) {
  if (json_is_true(json_object_get(res, "ok"))) return ZO_OK;
  json_t *e = json_object_get(res, "error");
  const char *code = json_string_value(json_object_get(e, "code"));
  const char *msg = json_string_value(json_object_get(e, "message"));
  if (!err) return ZO_ERR_ENGINE;
  char what[sizeof err->message] = "engine answered ";
  zcp_text_put(what, 200, code ? code : "an error", strlen(code ? code : "an error"));
  zcp_text_put(what, sizeof what, ": ", 2);
  if (msg) zcp_text_put(what, sizeof what, msg, strlen(msg));
  return zcp_fault(err, code && !strcmp(code, "unsupported") ? ZO_ENGINE_FAULT_UNSUPPORTED : ZO_ENGINE_FAULT_ANSWER,
                   p->cmd, what);
}

/* Answer res to request op against its shape in the version p speaks
 * (zcp_shape.c): ZO_OK, or ZO_ERR_ENGINE (kind error, the engine kept)
 * naming the field and its JSON path. */
static zo_status shaped(proc *p, const json_t *res, zcp_answer kind, const char *op, zo_error *err) {
  char why[300];
  if (!zcp_shape_check(res, kind, p->protocol, why, sizeof why)) return ZO_OK;
  return zcp_faultf(err, ZO_ENGINE_FAULT_ERROR, p->cmd, "the %s answer is not one zcp/%d defines: %s", op,
                    p->protocol, why);
}

/* The answer kind of a run in the version p speaks. */
static zcp_answer run_kind_of(const proc *p) {
  return p->protocol < 2 ? ZCP_ANSWER_RUN_EACH : p->sight_changes ? ZCP_ANSWER_RUN_CHANGES : ZCP_ANSWER_RUN_DELTA;
}

/* exchange() p->line (request op), and check the answer is ok: true with
 * nothing else (then dropped). ZO_OK, or ZO_ERR_ENGINE with err filled. */
static zo_status exchange_ok(proc *p, const char *op, zo_error *err) {
  json_t *res;
  zo_status st = exchange(p, op, &res, err);
  if (st) return st;
  st = shaped(p, res, ZCP_ANSWER_PLAIN, op, err);
  if (!st) st = answer(p, res, err);
  json_decref(res);
  return st;
}

/* ---- requests sent ahead (zo_engine_process_send_game) ---------------------- */

/* Send the n bytes of text (one request and its newline, the id already
 * in it) to the child without reading the answer: it joins the requests
 * in flight, answered in the order sent. ZO_OK, or ZO_ERR_ENGINE with err
 * filled and nothing in flight (the child stopped). Not for a plugin in
 * process nor with a tap. */
static zo_status send_ahead_text(proc *p, const char *text, size_t n, zo_error *err) {
  zo_status st = zcp_child_send(&p->child, text, n, zo_now() + p->child.timeout, err);
  if (st) {
    p->inflight = 0; /* the child is stopped */
    return st;
  }
  p->inflight++;
  return ZO_OK;
}

/* send_ahead_text for request req (taken), given the next id. */
static zo_status send_ahead(proc *p, json_t *req, zo_error *err) {
  char op[32];
  if (request_line(p, req, op)) return unencodable(p, err);
  return send_ahead_text(p, p->line.p, p->line.n, err);
}

/* The answer to the oldest request in flight (a new reference in *out),
 * within the time limit from now. ZO_OK, or ZO_ERR_ENGINE with err filled
 * (err may be NULL) and nothing in flight: the child is stopped. */
static zo_status receive_ahead(proc *p, json_t **out, zo_error *err) {
  *out = NULL;
  long id = p->next_id - p->inflight + 1;
  json_t *res;
  zo_status st = read_answer(p, NULL, zo_now() + p->child.timeout, &res, err);
  if (st) {
    p->inflight = 0;
    return st;
  }
  p->inflight--;
  json_t *got = json_object_get(res, "id");
  if (!json_is_integer(got) || json_integer_value(got) != (json_int_t)id) {
    json_decref(res);
    p->inflight = 0;
    return zcp_child_fail(&p->child, err, ZO_ENGINE_FAULT_ERROR, "the engine answered with another request's id");
  }
  *out = res;
  return ZO_OK;
}

/* Read and drop every answer still in flight (an error stops the child,
 * which is started again by the next request). */
static void drain(proc *p) {
  while (p->inflight > 0) {
    json_t *res;
    if (receive_ahead(p, &res, NULL)) break;
    json_decref(res);
  }
}

static int pr_has(void *self, const char *what, int ruleset);

/* hello's capabilities (x: NULL when not given; its shape already
 * checked) into p->caps: player counts, zone type names (borrowed from x,
 * kept with the hello), object kinds by their words. ZO_OK, or
 * ZO_ERR_ENGINE for a count or kind the case language has no word for. */
static zo_status read_capabilities(proc *p, json_t *x, zo_error *err) {
  free(p->cap_zones);
  free(p->cap_face_down);
  p->cap_zones = NULL;
  p->cap_face_down = NULL;
  memset(&p->caps, 0, sizeof p->caps);
  p->has_caps = x != NULL;
  if (!x) return ZO_OK;
  size_t i;
  json_t *v;
  json_array_foreach(json_object_get(x, "players"), i, v) {
    json_int_t k = json_integer_value(v);
    if (k < 1 || k > ZO_MAX_PLAYERS)
      return zcp_faultf(err, ZO_ENGINE_FAULT_ERROR, p->cmd,
                        "hello: $.capabilities.players[%zu] is %lld, not a number of players from 1 to %d", i,
                        (long long)k, ZO_MAX_PLAYERS);
    p->caps.players |= 1u << k;
  }
  json_t *zones = json_object_get(x, "zones");
  if (zones) {
    p->cap_zones = zo_xcalloc(json_array_size(zones) + 1, sizeof *p->cap_zones);
    json_array_foreach(zones, i, v) p->cap_zones[p->caps.nzones++] = json_string_value(v);
    p->caps.zones = p->cap_zones;
  }
  json_t *down = json_object_get(x, "face_down");
  if (down) {
    p->cap_face_down = zo_xcalloc(json_array_size(down) + 1, sizeof *p->cap_face_down);
    json_array_foreach(down, i, v) p->cap_face_down[p->caps.nface_down++] = json_string_value(v);
    p->caps.face_down = p->cap_face_down;
  }
  json_array_foreach(json_object_get(x, "objects"), i, v) {
    int k = -1;
    for (int j = 0; j < ZK_COUNT && k < 0; j++)
      if (!strcmp(zo_kind_names[j], json_string_value(v))) k = j;
    if (k < 0) {
      char shown[64];
      zcp_text_set(shown, sizeof shown, json_string_value(v));
      return zcp_faultf(err, ZO_ENGINE_FAULT_ERROR, p->cmd,
                        "hello: $.capabilities.objects[%zu] is \"%s\", not a kind of object (card, token, "
                        "ability, copy, macro, attack-proxy)",
                        i, shown);
    }
    p->caps.kinds |= 1u << k;
  }
  if (json_object_get(x, "objects") && !p->caps.kinds)
    return zcp_fault(err, ZO_ENGINE_FAULT_ERROR, p->cmd, "hello: $.capabilities.objects names no kind of object");
  return ZO_OK;
}

/* The handshake: hello, and its answer kept (name, version, rule sets,
 * features). ZO_OK, or ZO_ERR_ENGINE with err filled; a child that
 * answered with an error is stopped. */
static zo_status shake_hands(proc *p, zo_error *err) {
  json_t *res;
  /* zcp/1 in `protocol`, for engines that know no other; zcp/2 offered */
  zo_status st = call(p, json_pack("{s:s, s:s, s:[s, s]}", "op", "hello", "protocol", "zcp/1", "accepts",
                                   "zcp/1", "zcp/2"),
                      &res, err);
  if (st) return st;
  const char *proto = json_string_value(json_object_get(res, "protocol"));
  if (proto && strcmp(proto, "zcp/1") && strcmp(proto, "zcp/2")) {
    json_decref(res);
    if (p->kind != RUN_IN_PROCESS) zcp_child_stop(&p->child);
    return zcp_fault(err, ZO_ENGINE_FAULT_ERROR, p->cmd, "hello: the engine chose a protocol the runner did not offer (zcp/1, zcp/2)");
  }
  p->protocol = proto && !strcmp(proto, "zcp/2") ? 2 : 1;
  if ((st = shaped(p, res, ZCP_ANSWER_HELLO, "hello", err)) || (st = answer(p, res, err)) ||
      (st = read_capabilities(p, json_object_get(res, "capabilities"), err))) {
    json_decref(res);
    if (p->kind != RUN_IN_PROCESS) zcp_child_stop(&p->child);
    return st;
  }
  zcp_text_set(p->name, sizeof p->name, or_text(json_string_value(json_object_get(res, "engine")), "engine"));
  zcp_text_set(p->version, sizeof p->version, or_text(json_string_value(json_object_get(res, "version")), "?"));
  json_decref(p->features);
  json_decref(p->rulesets);
  json_decref(p->hello);
  p->features = json_incref(json_object_get(res, "features"));
  p->rulesets = json_incref(json_object_get(res, "rulesets"));
  p->hello = res;
  p->declared = zo_features_declared(pr_has, p, p->protocol);
  p->sight_changes = p->protocol >= 2 && (p->declared >> FT_VISIBLE_CHANGES & 1);
  return ZO_OK;
}

/* Start the child (a command or a plugin worker) and shake hands. ZO_OK,
 * or ZO_ERR_ENGINE with err filled and nothing left running. */
static zo_status start(proc *p, zo_error *err) {
  zo_status st = zcp_child_start(&p->child, err);
  return st ? st : shake_hands(p, err);
}

/* Start a child engine that is not running (the first request after a
 * failure); nothing for a plugin in process. */
static zo_status ensure_started(proc *p, zo_error *err) {
  return p->kind != RUN_IN_PROCESS && p->child.pid <= 0 ? start(p, err) : ZO_OK;
}

/* ---- the engine interface --------------------------------------------------- */

/* Order is never left to the order of keys (PROTOCOL.md, setup): every
 * card of an ordered zone that the case placed by the order it was
 * written in gets the position the oracle gives it. cards: the case's
 * cards as JSON, changed in place. A case the oracle cannot set up is
 * sent as written (the engine's answer is what counts then). */
static void explicit_positions(const zo_ruleset *rs, const zo_case *c, json_t *cards) {
  zo_game *g;
  zo_error err = {0};
  if (zo_game_new(rs, c, &g, &err)) return;
  zo_observation ob;
  zo_game_observe(g, &ob);
  for (int h = 0; h < c->nsetup && h < ob.nhandles; h++) {
    json_t *card = json_object_get(cards, c->handles[h]);
    if (!json_is_object(card) || ob.objs[h].position < 0 || json_object_get(card, "position") ||
        json_object_get(card, "under"))
      continue;
    json_object_set_new(card, "position", json_integer(ob.objs[h].position));
  }
  zo_observation_free(&ob);
  zo_game_free(g);
}

static json_t *setup_request(const proc *p, const zo_ruleset *rs, const zo_case *c);
static int setup_request_line(proc *p, const zo_ruleset *rs, const zo_case *c);

/* c's setup request in p->line with the next id: its cards as written when
 * they give every position and no transcript wants the request as JSON
 * (setup_request_line), else built and encoded (setup_request). 0, or -1
 * when it cannot be encoded. */
static int setup_line(proc *p, const zo_ruleset *rs, const zo_case *c) {
  if (c->cards_json && c->cards_json_placed && !p->tap) return setup_request_line(p, rs, c);
  char op[32];
  return request_line(p, setup_request(p, rs, c), op);
}

static zo_status pr_setup(void *self, const zo_ruleset *rs, const zo_case *c, zo_error *err) {
  proc *p = self;
  p->c = c;
  zo_status st = ensure_started(p, err);
  if (st) return st;
  zcp_capture_mark(&p->child.errs); /* this case's stderr starts here */
  if (p->inflight) drain(p);
  if (setup_line(p, rs, c)) return unencodable(p, err);
  return exchange_ok(p, "setup", err);
}

static zo_status pr_step(void *self, const zo_step *s, zo_step_result *r, zo_error *err) {
  proc *p = self;
  json_t *res;
  zo_status st = call(p, json_pack("{s:s, s:o}", "op", "step", "step", zo_zcp_step_json(s)), &res, err);
  if (st) return st;
  st = shaped(p, res, ZCP_ANSWER_STEP, "step", err);
  if (!st) st = answer(p, res, err);
  if (!st) st = zo_zcp_result_read(&p->names, p->c, res, r, p->cmd, err);
  json_decref(res);
  return st;
}

static zo_status pr_observe(void *self, zo_observation *ob, zo_error *err) {
  proc *p = self;
  json_t *res;
  zo_status st = call(p, json_pack("{s:s}", "op", "observe"), &res, err);
  if (st) return st;
  if (!(st = shaped(p, res, ZCP_ANSWER_OBSERVE, "observe", err)) && !(st = answer(p, res, err))) st = zo_zcp_observation_read(&p->names, p->c, res, ob, p->cmd, err);
  json_decref(res);
  return st;
}

static void pr_teardown(void *self) {
  proc *p = self;
  p->c = NULL;
  zo_zcp_names_forget(&p->names); /* the case may be freed and its address reused */
}

static int pr_has(void *self, const char *what, int ruleset) {
  proc *p = self;
  json_t *list = ruleset ? p->rulesets : p->features;
  if (!json_is_array(list)) return 0;
  size_t i;
  json_t *x;
  json_array_foreach(list, i, x) if (json_string_value(x) && !strcmp(json_string_value(x), what)) return 1;
  return 0;
}

static uint64_t pr_features(void *self) { return ((proc *)self)->declared; }

static const zo_capabilities *pr_capabilities(void *self) {
  proc *p = self;
  return p->has_caps ? &p->caps : NULL;
}

static char *pr_stderr_text(void *self) {
  proc *p = self;
  return p->kind == RUN_IN_PROCESS ? NULL : zcp_capture_since_mark(&p->child.errs);
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
  p->ops.stderr_text = pr_stderr_text;
  p->ops.features = pr_features;
  p->ops.capabilities = pr_capabilities;
  zo_engine *e = zo_xcalloc(1, sizeof *e);
  e->ops = &p->ops;
  e->self = p;
  return e;
}

/* ---- making and freeing ----------------------------------------------------- */

/* A new engine record for cmd (a command or a plugin's path), nothing
 * started: a child kind gets its capture and a live slot
 * (zcp_child_init). Free with proc_free. */
static proc *proc_new(const char *cmd, run_kind kind, const zo_engine_process_options *o) {
  proc *p = zo_xcalloc(1, sizeof *p);
  p->cmd = zo_xstrdup(cmd);
  p->kind = kind;
  p->tap = o ? o->tap : NULL;
  if (kind != RUN_IN_PROCESS)
    zcp_child_init(&p->child, p->cmd, kind == RUN_WORKER, o && o->timeout > 0 ? o->timeout : 5.0);
  return p;
}

/* Stop whatever runs, remove the capture, free p. */
static void proc_free(proc *p) {
  if (p->kind != RUN_IN_PROCESS) zcp_child_free(&p->child);
  json_decref(p->features);
  json_decref(p->rulesets);
  json_decref(p->hello);
  free(p->cap_zones);
  free(p->cap_face_down);
  free(p->cmd);
  zo_zcp_names_free(&p->names);
  free(p->line.p);
  free(p);
}

/* The plugin at path loaded into this process and past its handshake, or
 * NULL with err filled (no kind). */
static zo_engine *plugin_in_process(const char *path, const zo_engine_process_options *o, zo_error *err) {
  proc *p = proc_new(path, RUN_IN_PROCESS, o);
  char why[300] = "";
  if (!zcp_plugin_load(&p->plugin, path, why, sizeof why)) {
    zo_error herr = {0};
    if (shake_hands(p, &herr)) snprintf(why, sizeof why, "no zcp/1 handshake: %.200s", herr.message);
  }
  if (why[0]) {
    zcp_fault(err, ZO_ENGINE_FAULT_NONE, path, why);
    zcp_plugin_unload(&p->plugin, 1);
    proc_free(p);
    return NULL;
  }
  return finish(p);
}

/* ---- engines living in this process (zo.h: zo_engine_register) ------------- */

#define REGISTRY_MAX 16
static struct {
  char name[64];
  const struct zo_engine_ops *ops;
} registry[REGISTRY_MAX];

/* The ops registered under name, or NULL. */
static const struct zo_engine_ops *registered(const char *name) {
  for (int i = 0; i < REGISTRY_MAX; i++)
    if (registry[i].ops && !strcmp(registry[i].name, name)) return registry[i].ops;
  return NULL;
}

zo_status zo_engine_register(const char *name, const struct zo_engine_ops *ops, zo_error *err) {
  if (!name || name[0] != '@' || !name[1] || strlen(name) >= sizeof registry[0].name)
    return zo_error_set(err, ZO_ERR_USAGE, "", 0, 0, "an engine's name is '@' and 1 to 62 characters, not '%s'",
                        name ? name : "(null)");
  if (ops && ops->abi_version != ZO_ENGINE_ABI_VERSION)
    return zo_error_set(err, ZO_ERR_USAGE, "", 0, 0, "engine %s: abi_version %u is not %u", name,
                        (unsigned)ops->abi_version, ZO_ENGINE_ABI_VERSION);
  int free_slot = -1;
  for (int i = 0; i < REGISTRY_MAX; i++) {
    if (registry[i].ops && !strcmp(registry[i].name, name)) {
      registry[i].ops = ops; /* replaced, or removed with NULL */
      return ZO_OK;
    }
    if (!registry[i].ops && free_slot < 0) free_slot = i;
  }
  if (!ops) return ZO_OK;
  if (free_slot < 0)
    return zo_error_set(err, ZO_ERR_USAGE, "", 0, 0, "no room for engine %s: %d are registered", name,
                        REGISTRY_MAX);
  snprintf(registry[free_slot].name, sizeof registry[free_slot].name, "%s", name);
  registry[free_slot].ops = ops;
  return ZO_OK;
}

/* An engine from ops in this process, past its handshake, or NULL with err
 * filled (no kind); name (copied) names it in messages. */
static zo_engine *ops_open(const struct zo_engine_ops *ops, const char *name, const zo_engine_process_options *o,
                           zo_error *err) {
  proc *p = proc_new(name ? name : "(engine)", RUN_IN_PROCESS, o);
  char why[300] = "";
  p->plugin.ops = ops;
  if (!ops || ops->abi_version != ZO_ENGINE_ABI_VERSION)
    snprintf(why, sizeof why, "the engine's abi_version is not %u", ZO_ENGINE_ABI_VERSION);
  else if (!(p->plugin.session = ops->open()))
    snprintf(why, sizeof why, "the engine's open() failed");
  else {
    zo_error herr = {0};
    if (shake_hands(p, &herr)) snprintf(why, sizeof why, "no zcp/1 handshake: %.200s", herr.message);
  }
  if (why[0]) {
    zcp_fault(err, ZO_ENGINE_FAULT_NONE, p->cmd, why);
    if (!ops || ops->abi_version != ZO_ENGINE_ABI_VERSION) p->plugin.ops = NULL;
    zcp_plugin_unload(&p->plugin, 0);
    proc_free(p);
    return NULL;
  }
  return finish(p);
}

zo_engine *zo_engine_plugin_open(const char *path, const zo_engine_process_options *o,
                                 zo_error *err) {
  if (path[0] == '@') { /* an engine of this process (zo_engine_register), never a file */
    const struct zo_engine_ops *ops = registered(path);
    if (!ops) {
      zcp_fault(err, ZO_ENGINE_FAULT_NONE, path, "no engine is registered under this name in this process");
      return NULL;
    }
    return ops_open(ops, path, o, err);
  }
  if (o && o->in_process) return plugin_in_process(path, o, err);
  proc *p = proc_new(path, RUN_WORKER, o);
  if (start(p, err)) {
    proc_free(p);
    return NULL;
  }
  return finish(p);
}

zo_engine *zo_engine_ops_open(const struct zo_engine_ops *ops, const char *name, zo_error *err) {
  return ops_open(ops, name, NULL, err);
}

void zo_engine_ops_free(zo_engine *e) { zo_engine_process_free(e); }

zo_engine *zo_engine_plugin_new(const char *path, zo_error *err) {
  return zo_engine_plugin_open(path, NULL, err);
}

zo_engine *zo_engine_process_open(const char *cmd, const zo_engine_process_options *o,
                                  zo_error *err) {
  proc *p = proc_new(cmd, RUN_COMMAND, o);
  if (start(p, err)) {
    /* the engine could not be started or spoke no zcp: the caller exits 4 */
    proc_free(p);
    return NULL;
  }
  return finish(p);
}

zo_engine *zo_engine_process_new(const char *cmd, double timeout, zo_error *err) {
  zo_engine_process_options o = {.timeout = timeout};
  return zo_engine_process_open(cmd, &o, err);
}

void zo_engine_process_free(zo_engine *e) {
  if (!e) return;
  proc *p = e->self;
  if (p->kind == RUN_IN_PROCESS) {
    zcp_plugin_unload(&p->plugin, 0); /* the library stays loaded until exit */
  } else if (p->child.pid > 0) { /* bye (a second at most), then the group is killed */
    double limit = p->child.timeout;
    if (p->child.timeout > 1.0) p->child.timeout = 1.0;
    json_t *res;
    if (!call(p, json_pack("{s:s}", "op", "bye"), &res, NULL)) json_decref(res);
    p->child.timeout = limit;
  }
  proc_free(p);
  free(e);
}

/* ---- for smoke, gate --validate and the fuzzers ------------------------------ */

const json_t *zo_engine_process_hello(const zo_engine *e) { return ((const proc *)e->self)->hello; }

zo_status zo_engine_process_exchange(zo_engine *e, const char *line, json_t **answer, zo_error *err) {
  proc *p = e->self;
  *answer = NULL;
  if (p->kind == RUN_IN_PROCESS) {
    plugin_answer(p, line, NULL, answer);
    if (json_is_object(*answer)) return ZO_OK;
    json_decref(*answer);
    *answer = NULL;
    return zcp_fault(err, ZO_ENGINE_FAULT_ERROR, p->cmd, "the plugin answered no JSON object");
  }
  zo_status st = ensure_started(p, err);
  if (st) return st;
  double deadline = zo_now() + p->child.timeout;
  size_t n = strlen(line);
  char *text = zo_xmalloc(n + 2);
  memcpy(text, line, n);
  text[n] = '\n';
  st = zcp_child_send(&p->child, text, n + 1, deadline, err);
  free(text);
  return st ? st : read_answer(p, NULL, deadline, answer, err);
}

zo_status zo_engine_process_bye(zo_engine *e, zo_error *err) {
  proc *p = e->self;
  zo_status st = ensure_started(p, err);
  if (st) return st;
  json_t *res;
  if ((st = call(p, json_pack("{s:s}", "op", "bye"), &res, err))) return st;
  st = shaped(p, res, ZCP_ANSWER_PLAIN, "bye", err);
  if (!st) st = answer(p, res, err);
  json_decref(res);
  if (p->kind == RUN_IN_PROCESS) return st;
  if (st) {
    zcp_child_stop(&p->child);
    return st;
  }
  /* a process exits after answering (or at the end of its input, which
     comes now) */
  return zcp_child_await_exit(&p->child, err);
}

/* Does p's engine take the rule set's digest in setup (the feature
 * ruleset_digest, PROTOCOL.md 7.2)? Never sent to one that did not
 * declare it: the field is not in its version of the protocol. */
static int wants_digest(const proc *p, const zo_ruleset *rs) {
  return (p->declared >> FT_RULESET_DIGEST & 1u) && rs->digest[0];
}

/* The cards of c as the setup request sends them: positions explicit. */
static json_t *setup_request(const proc *p, const zo_ruleset *rs, const zo_case *c) {
  json_error_t je;
  json_t *cards = json_loads(c->cards_json ? c->cards_json : "{}", 0, &je), *players = json_array();
  if (cards) explicit_positions(rs, c, cards);
  for (int i = 0; i < c->nplayers; i++) json_array_append_new(players, json_string(c->players[i]));
  json_t *req = json_pack("{s:s, s:s, s:o, s:o}", "op", "setup", "ruleset", rs->id, "players", players,
                          "cards", cards ? cards : json_object());
  if (req && wants_digest(p, rs)) json_object_set_new(req, "ruleset_digest", json_string(rs->digest));
  if (req && (p->declared >> FT_RULESET_ZONES & 1u))
    json_object_set_new(req, "ruleset_zones", zo_zcp_ruleset_zones_json(rs, (int)(p->declared >> FT_ZONE_RULES & 1u)));
  return req;
}

/* The run request of c's steps (observe: delta on zcp/2, each on zcp/1). */
static json_t *run_request(const proc *p, const zo_case *c, int first, int n) {
  json_t *steps = json_array();
  for (int i = first; i < first + n; i++) json_array_append_new(steps, zo_zcp_step_json(&c->steps[i]));
  json_t *run = json_pack("{s:s, s:o, s:s}", "op", "run", "steps", steps, "observe", p->protocol >= 2 ? "delta" : "each");
  if (p->sight_changes) json_object_set_new(run, "visible", json_string("changes"));
  return run;
}

/* c's setup request with the next id, and its newline, written into
 * p->line: its cards are c->cards_json as it is, so c->cards_json_placed
 * must say it gives every position (a generated game's: zo_fuzz_jsonify).
 * The rest is written by jansson, then the cards and the id are put in
 * place of its closing brace: no JSON is parsed or printed twice. 0, or -1
 * when a name is not JSON text (nothing written, no id taken). */
static int setup_request_line(proc *p, const zo_ruleset *rs, const zo_case *c) {
  json_t *players = json_array();
  for (int i = 0; i < c->nplayers; i++) json_array_append_new(players, json_string(c->players[i]));
  json_t *head = json_pack("{s:s, s:s, s:o}", "op", "setup", "ruleset", rs->id, "players", players);
  if (head && wants_digest(p, rs)) json_object_set_new(head, "ruleset_digest", json_string(rs->digest));
  if (head && (p->declared >> FT_RULESET_ZONES & 1u))
    json_object_set_new(head, "ruleset_zones", zo_zcp_ruleset_zones_json(rs, (int)(p->declared >> FT_ZONE_RULES & 1u)));
  int bad = zo_zcp_line_write(&p->line, head); /* {...}\n */
  json_decref(head);
  if (bad) return -1;
  static const char key[] = ",\"cards\":";
  char tail[64];
  int nt = snprintf(tail, sizeof tail, ",\"id\":%ld}\n", ++p->next_id);
  size_t n = p->line.n - 2, kn = sizeof key - 1, k = strlen(c->cards_json); /* n: without "}\n" */
  size_t len = n + kn + k + (size_t)nt;
  if (len + 1 > p->line.cap) {
    p->line.cap = 2 * (len + 1);
    p->line.p = zo_xrealloc(p->line.p, p->line.cap);
  }
  memcpy(p->line.p + n, key, kn);
  memcpy(p->line.p + n + kn, c->cards_json, k);
  memcpy(p->line.p + n + kn + k, tail, (size_t)nt);
  p->line.n = len;
  return 0;
}

/* c's run request of steps [first, first + n), as run_request() would
 * encode it with the next id, and its newline, written into p->line. Each
 * step's JSON was written when the case was read or generated
 * (zo_step.json), so the steps are joined as they are, not parsed and
 * printed again: a game sent ahead costs the runner no JSON work for its
 * steps. */
static void run_request_line(proc *p, const zo_case *c, int first, int n) {
  char head[] = "{\"op\":\"run\",\"steps\":[", tail[80];
  int nt = snprintf(tail, sizeof tail, "],\"observe\":\"%s\",%s\"id\":%ld}\n",
                    p->protocol >= 2 ? "delta" : "each", p->sight_changes ? "\"visible\":\"changes\"," : "",
                    ++p->next_id);
  size_t len = sizeof head - 1 + (size_t)nt;
  for (int i = first; i < first + n; i++) len += strlen(c->steps[i].json ? c->steps[i].json : "null") + 1;
  if (len + 1 > p->line.cap) {
    p->line.cap = 2 * len;
    p->line.p = zo_xrealloc(p->line.p, p->line.cap);
  }
  char *at = p->line.p;
  memcpy(at, head, sizeof head - 1);
  at += sizeof head - 1;
  for (int i = first; i < first + n; i++) {
    const char *js = c->steps[i].json ? c->steps[i].json : "null";
    size_t k = strlen(js);
    if (i > first) *at++ = ',';
    memcpy(at, js, k);
    at += k;
  }
  memcpy(at, tail, (size_t)nt);
  p->line.n = (size_t)(at - p->line.p) + (size_t)nt;
}

/* c's run request of steps [first, first + n) in p->line with the next
 * id: its steps as written (run_request_line), or built and encoded when a
 * transcript wants the request as JSON (run_request). 0, or -1 when it
 * cannot be encoded. */
static int run_line(proc *p, const zo_case *c, int first, int n) {
  char op[32];
  if (p->tap) return request_line(p, run_request(p, c, first, n), op);
  run_request_line(p, c, first, n);
  return 0;
}

/* A run answer res (ok already checked) into results and obs[1..n] after
 * obs[0]. ZO_OK, or ZO_ERR_ENGINE with err filled. */
static zo_status run_read(proc *p, const zo_case *c, json_t *res, zo_step_result *results,
                          zo_observation *obs, zo_error *err) {
  json_t *rs = json_object_get(res, "results"), *os = json_object_get(res, "observations");
  if (json_array_size(rs) != (size_t)c->nsteps || json_array_size(os) != (size_t)c->nsteps) {
    static const char what[] = "a run answer needs one result and one observation per step";
    if (p->kind == RUN_IN_PROCESS) return zcp_fault(err, ZO_ENGINE_FAULT_ERROR, p->cmd, what);
    return zcp_child_fail(&p->child, err, ZO_ENGINE_FAULT_ERROR, what);
  }
  zo_status st = ZO_OK;
  for (int i = 0; i < c->nsteps && !st; i++) {
    st = zo_zcp_result_read(&p->names, c, json_array_get(rs, (size_t)i), &results[i + 1], p->cmd, err);
    json_t *o = json_array_get(os, (size_t)i);
    if (st) break;
    if (p->protocol >= 2)
      st = zo_zcp_observation_read_delta(&p->names, c, o, &obs[i], &obs[i + 1], p->cmd, err);
    else
      st = zo_zcp_observation_read(&p->names, c, o, &obs[i + 1], p->cmd, err);
  }
  return st;
}

zo_status zo_engine_process_run(zo_engine *e, const zo_case *c, zo_step_result *results,
                                zo_observation *obs, zo_error *err) {
  if (e->ops->setup != pr_setup) /* not a zcp/1 engine: no batch */
    return zo_error_set(err, ZO_ERR_USAGE, NULL, 0, 0, "%s",
                        "not a process or plug-in engine: it plays no run, only steps");
  proc *p = e->self;
  zo_status st = pr_observe(p, &obs[0], err);
  if (st) return st;
  json_t *res;
  if (p->inflight) drain(p);
  if (run_line(p, c, 0, c->nsteps)) return unencodable(p, err);
  if ((st = exchange(p, "run", &res, err))) return st;
  if (!(st = shaped(p, res, run_kind_of(p), "run", err)) && !(st = answer(p, res, err))) st = run_read(p, c, res, results, obs, err);
  json_decref(res);
  return st;
}

int zo_engine_process_can_batch(const zo_engine *e) {
  return e->ops->setup == pr_setup && ((const proc *)e->self)->protocol >= 2;
}

struct zo_run_reader {
  proc *p;
  const zo_case *c;
  json_t *res;   /* the run's answer, its shape and ok checked */
  int k, n;      /* the next step's index in it, and its steps */
};

zo_status zo_engine_process_run_start(zo_engine *e, const zo_case *c, int first, int n,
                                      zo_observation *seen, zo_run_reader **out, zo_error *err) {
  proc *p = e->self;
  json_t *res;
  *out = NULL;
  if (p->inflight) drain(p);
  /* every run follows an observe of the game as it stands (PROTOCOL.md
     7.5): its deltas are relative to that */
  zo_status st;
  if (first > 0 && (st = pr_observe(p, seen, err))) return st;
  if (run_line(p, c, first, n)) return unencodable(p, err);
  p->run_steps = n;
  st = exchange(p, "run", &res, err);
  p->run_steps = 0;
  if (st) return st;
  if (!(st = shaped(p, res, run_kind_of(p), "run", err)) && !(st = answer(p, res, err))) {
    json_t *rs = json_object_get(res, "results"), *os = json_object_get(res, "observations");
    if (json_array_size(rs) != (size_t)n || json_array_size(os) != (size_t)n) {
      static const char what[] = "a run answer needs one result and one observation per step";
      st = p->kind == RUN_IN_PROCESS ? zcp_fault(err, ZO_ENGINE_FAULT_ERROR, p->cmd, what)
                                     : zcp_child_fail(&p->child, err, ZO_ENGINE_FAULT_ERROR, what);
    }
  }
  if (st) {
    json_decref(res);
    return st;
  }
  zo_run_reader *rd = zo_xcalloc(1, sizeof *rd);
  *rd = (zo_run_reader){p, c, res, 0, n};
  *out = rd;
  return ZO_OK;
}

zo_status zo_run_reader_next(zo_run_reader *rd, zo_step_result *r, zo_observation *ob, int *changed,
                             int *nchanged, zo_error *err) {
  proc *p = rd->p;
  size_t k = (size_t)rd->k++;
  zo_status st = zo_zcp_result_read(&p->names, rd->c, json_array_get(json_object_get(rd->res, "results"), k),
                                    r, p->cmd, err);
  if (st) return st;
  return zo_zcp_observation_apply_delta(&p->names, rd->c,
                                        json_array_get(json_object_get(rd->res, "observations"), k),
                                        ob, changed, nchanged, p->cmd, err);
}

void zo_run_reader_free(zo_run_reader *rd) {
  if (!rd) return;
  json_decref(rd->res);
  free(rd);
}

int zo_engine_process_can_send_ahead(const zo_engine *e) {
  if (e->ops->setup != pr_setup) return 0;
  const proc *p = e->self;
  return p->kind != RUN_IN_PROCESS && !p->tap;
}

zo_status zo_engine_process_send_game(zo_engine *e, const zo_ruleset *rs, const zo_case *c, zo_error *err) {
  proc *p = e->self;
  zo_status st = ensure_started(p, err);
  if (st) return st;
  if (setup_line(p, rs, c)) return unencodable(p, err);
  if ((st = send_ahead_text(p, p->line.p, p->line.n, err)) ||
      (st = send_ahead(p, json_pack("{s:s}", "op", "observe"), err)))
    return st;
  if (run_line(p, c, 0, c->nsteps)) return unencodable(p, err);
  return send_ahead_text(p, p->line.p, p->line.n, err);
}

zo_status zo_engine_process_read_game(zo_engine *e, const zo_case *c, zo_step_result *results,
                                      zo_observation *obs, int *refused, zo_error *err) {
  proc *p = e->self;
  zo_zcp_names_forget(&p->names); /* another case may have been read last */
  p->c = c;
  json_t *res[3] = {NULL, NULL, NULL};
  zo_status st = ZO_OK;
  for (int k = 0; k < 3 && !st; k++) st = receive_ahead(p, &res[k], err);
  if (refused) *refused = 0;
  if (!st && !(st = shaped(p, res[0], ZCP_ANSWER_PLAIN, "setup", err))) {
    zo_error mine = {0};
    st = answer(p, res[0], err ? err : &mine);
    if (st && refused) *refused = (err ? err : &mine)->engine_fault == ZO_ENGINE_FAULT_UNSUPPORTED;
  }
  if (!st && !(st = shaped(p, res[1], ZCP_ANSWER_OBSERVE, "observe", err)) && !(st = answer(p, res[1], err)))
    st = zo_zcp_observation_read(&p->names, c, res[1], &obs[0], p->cmd, err);
  if (!st && !(st = shaped(p, res[2], run_kind_of(p), "run", err)) && !(st = answer(p, res[2], err)))
    st = run_read(p, c, res[2], results, obs, err);
  for (int k = 0; k < 3; k++) json_decref(res[k]);
  return st;
}

void zo_engine_process_drain(zo_engine *e) {
  if (e->ops->setup == pr_setup) drain(e->self);
}
