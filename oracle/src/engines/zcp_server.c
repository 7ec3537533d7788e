/* engines/zcp_server.c: the oracle as a zcp/1 engine (serve.h;
 * ci/protocol/PROTOCOL.md): `zoneoracle serve`, and the plugins and test
 * engines built on zo_serve_request.
 *
 * One JSON object per line in, one per line out. `setup` builds a case
 * from the request (JSON is YAML, so the case loader validates it exactly as
 * it validates a file); `step` parses the step in that case's context and
 * applies it; `observe` reports every object, trigger, reference, player
 * and what each player may see (written by zcp_json.c, which the runner's
 * side reads them back with); `run` does many steps in one round trip.
 * A step that introduces a name (a token, trigger, reference...) rebuilds
 * the game and replays the earlier steps: the model is deterministic, so
 * the state is the same, and the game's tables are sized once per build.
 * Any malformed request gets an error answer, never a crash.
 */
#include "serve.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "util.h"
#include "zcp_json.h"


typedef struct {
  zo_case *c;
  zo_game *g;
  const zo_ruleset *rs;
  int compact; /* zcp/2 chosen in hello: answers leave defaults out */
} served;

static json_t *fail(json_t *id, const char *code, const char *msg) {
  return json_pack("{s:O, s:b, s:{s:s, s:s}}", "id", id ? id : json_null(), "ok", 0, "error",
                   "code", code, "message", msg);
}

static void reset(served *s) {
  zo_game_free(s->g);
  zo_case_free(s->c);
  s->g = NULL;
  s->c = NULL;
}

json_t *zo_serve_observation(const zo_game *g, int compact) {
  zo_observation ob;
  zo_game_observe(g, &ob);
  json_t *x = zo_zcp_observation_json(zo_game_case(g), &ob, compact);
  zo_observation_free(&ob);
  return x;
}

static int counts(const zo_case *c) {
  return c->nhandles + c->ntriggers + c->nrefs + c->nreplacements + c->nmarknames + c->nztypes;
}

/* Parse one step given as JSON into s's case (names it introduces added):
 * NULL, or the error answer. */
static json_t *parse_step(served *s, json_t *step, json_t *id) {
  if (!s->g) return fail(id, "bad_request", "step before setup");
  if (!json_is_object(step) || json_object_size(step) != 1)
    return fail(id, "bad_request", "step: expected an object with one step name");
  zo_error err = {0};
  zo_status st = zo_case_append_step_json(s->c, step, &err);
  if (!st) return NULL;
  char msg[700];
  snprintf(msg, sizeof msg, "%d:%d: %s", err.line, err.column, err.message);
  return fail(id, st == ZO_ERR_UNKNOWN || st == ZO_ERR_SCHEMA || st == ZO_ERR_SYNTAX
                      ? "bad_request" : "internal", msg);
}

/* s's game rebuilt at the size of its case (after steps that introduced
 * names: the game's tables are sized once per build), the case's first
 * `upto` steps replayed: the model is deterministic, so the state is the
 * same. NULL, or the error answer (s then has no game). */
static json_t *rebuild(served *s, int upto, json_t *id) {
  zo_game_free(s->g);
  s->g = NULL;
  zo_error err = {0};
  if (zo_game_new(s->rs, s->c, &s->g, &err)) return fail(id, "internal", err.message);
  for (int i = 0; i < upto; i++) {
    zo_step_result r;
    zo_game_apply(s->g, &s->c->steps[i], &r);
    zo_step_result_free(&r);
  }
  return NULL;
}

/* Step i of s's case applied to its game: its result as JSON. */
static json_t *apply_step(served *s, int i) {
  zo_step_result r;
  zo_game_apply(s->g, &s->c->steps[i], &r);
  json_t *x = zo_zcp_result_json(s->c, &r, s->compact);
  zo_step_result_free(&r);
  return x;
}

/* Apply one step given as JSON; *out gets its result, or an error. */
static json_t *do_step(served *s, json_t *step, json_t *id, json_t **out) {
  int before = s->g ? counts(s->c) : 0;
  json_t *e = parse_step(s, step, id);
  /* a step refused may have introduced names before its error: the game
     is rebuilt for them too, so that it always fits its case */
  if (s->g && counts(s->c) != before) {
    json_t *broken = rebuild(s, s->c->nsteps - (e ? 0 : 1), id);
    if (broken) {
      json_decref(e);
      e = broken;
    }
  }
  if (e) return e;
  *out = apply_step(s, s->c->nsteps - 1);
  return NULL;
}

/* The names of triggers and references a run's steps had introduced by
 * some step: an observation then shows those, not those of later steps
 * (PROTOCOL.md 8: "introduced so far"), though the game, built once for
 * the whole run, already holds them. */
typedef struct {
  int ntriggers, nrefs;
} so_far;

/* ob, of s's game, cut to the triggers and references introduced so far
 * (names are appended as steps introduce them, so those are a prefix). */
static void cut_to(zo_observation *ob, so_far k) {
  if (ob->ntriggers > k.ntriggers) ob->ntriggers = k.ntriggers;
  if (ob->nrefs > k.nrefs) ob->nrefs = k.nrefs;
}

/* `run`: the steps in order, one result each; with each, one observation
 * after every step, as a delta from the one before when delta; else one
 * at the end. Every step is parsed first, so that a game whose steps
 * introduce names is rebuilt once for the run, not once per such step.
 * The first step that gets an error answers the whole run with it; the
 * steps before it stay applied. */
static json_t *do_run(served *s, json_t *steps, json_t *id, int each, int delta, int changes) {
  size_t n = json_array_size(steps);
  if (n && !s->g) return fail(id, "bad_request", "step before setup");
  json_t *results = json_array(), *obs = json_array(), *answer = NULL;
  zo_observation prev = {0}, cur;
  int have = 0;
  if (delta && s->g) {
    zo_game_observe(s->g, &prev);
    have = 1;
  }
  so_far *upto = zo_xmalloc((n + 1) * sizeof *upto);
  int first = s->g ? s->c->nsteps : 0, before = s->g ? counts(s->c) : 0;
  size_t parsed = 0;
  while (parsed < n && !(answer = parse_step(s, json_array_get(steps, parsed), id))) {
    upto[parsed] = (so_far){s->c->ntriggers, s->c->nrefs};
    parsed++;
  }
  json_t *broken = s->g && counts(s->c) != before ? rebuild(s, first, id) : NULL;
  if (broken) {
    json_decref(answer);
    answer = broken;
    parsed = 0;
  }
  for (size_t i = 0; i < parsed; i++) {
    json_array_append_new(results, apply_step(s, first + (int)i));
    if (!each) continue;
    zo_game_observe(s->g, &cur);
    cut_to(&cur, upto[i]);
    if (!delta) {
      json_array_append_new(obs, zo_zcp_observation_json(s->c, &cur, s->compact));
      zo_observation_free(&cur);
      continue;
    }
    json_array_append_new(obs, zo_zcp_observation_delta_json(s->c, have ? &prev : NULL, &cur, s->compact, changes));
    zo_observation_free(&prev);
    prev = cur;
    have = 1;
  }
  free(upto);
  zo_observation_free(&prev);
  if (answer) {
    json_decref(results);
    json_decref(obs);
    return answer;
  }
  if (!each && s->g) json_array_append_new(obs, zo_serve_observation(s->g, s->compact));
  return json_pack("{s:O, s:b, s:o, s:o}", "id", id, "ok", 1, "results", results, "observations", obs);
}

static json_t *do_setup(served *s, json_t *req, json_t *id) {
  reset(s);
  const char *rsid = json_string_value(json_object_get(req, "ruleset"));
  json_t *players = json_object_get(req, "players"), *cards = json_object_get(req, "cards");
  if (!rsid || !json_is_array(players) || !json_is_object(cards))
    return fail(id, "bad_request", "setup needs ruleset (text), players (list), cards (object)");
  s->rs = zo_ruleset_find(rsid);
  if (!s->rs) return fail(id, "unsupported", "unknown rule set");
  /* ruleset_digest (declared with a user's rule set loaded): the runner's
     file must be the one served, else this is another game under the same
     id and the case is skipped with the reason */
  json_t *dg = json_object_get(req, "ruleset_digest");
  if (dg && !json_is_string(dg)) return fail(id, "bad_request", "setup: ruleset_digest is text");
  if (dg && strcmp(json_string_value(dg), s->rs->digest)) {
    char msg[300];
    snprintf(msg, sizeof msg, "rule set %s is served from another file: its digest here is %s, "
             "the runner's %.80s", rsid, s->rs->digest, json_string_value(dg));
    s->rs = NULL;
    return fail(id, "unsupported", msg);
  }
  /* the setup as a case document (JSON is YAML): validated like a file */
  json_t *doc = json_pack("{s:s, s:s, s:[s], s:[s], s:O, s:O, s:[]}", "id", "served/game", "title",
                          "served game", "rulesets", rsid, "rules", s->rs->rules[0].id, "players",
                          players, "cards", cards, "steps");
  if (!doc) return fail(id, "bad_request", "setup: players must be names");
  zo_error err = {0};
  /* parsed, then checked by building the game (what zo_case_load_mem does) */
  zo_status st = zo_case_parse_json("setup", doc, &s->c, &err);
  json_decref(doc);
  if (!st) zo_case_add_zone_types(s->c, s->rs); /* steps won't add zone types later */
  if (!st) st = zo_game_new(s->rs, s->c, &s->g, &err);
  if (st) {
    char msg[700];
    snprintf(msg, sizeof msg, "%s", err.message);
    reset(s);
    return fail(id, "bad_request", msg);
  }
  return json_pack("{s:O, s:b}", "id", id, "ok", 1);
}

json_t *zo_serve_request(zo_served *sv, json_t *req) {
  served *s = (served *)sv;
  if (!json_is_object(req)) return fail(NULL, "bad_request", "a request is a JSON object");
  json_t *id = json_object_get(req, "id");
  if (!json_is_integer(id)) return fail(NULL, "bad_request", "a request needs an integer id");
  const char *op = json_string_value(json_object_get(req, "op"));
  if (!op) return fail(id, "bad_request", "a request needs op");
  if (!strcmp(op, "hello")) {
    /* zcp/2 when the runner accepts it (PROTOCOL.md, Versions) */
    const char *proto = json_string_value(json_object_get(req, "protocol"));
    if (!proto || (strcmp(proto, "zcp/1") && strcmp(proto, "zcp/2")))
      return fail(id, "unsupported", "this engine speaks zcp/1 and zcp/2");
    int two = !strcmp(proto, "zcp/2");
    size_t k;
    json_t *v;
    json_array_foreach(json_object_get(req, "accepts"), k, v) two |= json_string_value(v) && !strcmp(json_string_value(v), "zcp/2");
    s->compact = two; /* zcp/2's answers leave fields at their default out */
    json_t *rss = json_array(), *fs = json_array();
    for (size_t i = 0; i < zo_ruleset_count(); i++)
      json_array_append_new(rss, json_string(zo_ruleset_id(zo_ruleset_at(i))));
    int user = 0, zone_rules = 0; /* a user's rule set is served (serve
                                     --ruleset-file); a rule set has zone rules */
    for (size_t i = 0; i < zo_ruleset_count(); i++) {
      const zo_ruleset *rs = zo_ruleset_at(i);
      user |= rs->user;
      zone_rules |= zo_ruleset_has_zone_rules(rs);
    }
    for (int i = 0; i < FT_COUNT; i++) /* every feature the case language has, */
      if ((i != FT_RULESET_DIGEST || (user && two)) && /* the digest with a user's file; */
          i != FT_RULESET_ZONES &&                      /* its zones: it has the file; */
          (i != FT_ZONE_RULES || zone_rules))           /* zone rules: where a rule set
                                                           has them (issue 31) */
        json_array_append_new(fs, json_string(zo_feature_names[i]));
    return json_pack("{s:O, s:b, s:s, s:s, s:s, s:o, s:o}", "id", id, "ok", 1, "protocol",
                     two ? "zcp/2" : "zcp/1", "engine", "zoneoracle", "version", ZO_VERSION,
                     "rulesets", rss, "features", fs);
  }
  if (!strcmp(op, "setup")) return do_setup(s, req, id);
  if (!strcmp(op, "step")) {
    json_t *res = NULL, *e = do_step(s, json_object_get(req, "step"), id, &res);
    if (e) return e;
    json_object_set_new(res, "id", json_incref(id));
    json_object_set_new(res, "ok", json_true());
    return res;
  }
  if (!strcmp(op, "observe")) {
    if (!s->g) return fail(id, "bad_request", "observe before setup");
    json_t *o = zo_serve_observation(s->g, s->compact);
    json_object_set_new(o, "id", json_incref(id));
    json_object_set_new(o, "ok", json_true());
    return o;
  }
  if (!strcmp(op, "run")) {
    json_t *steps = json_object_get(req, "steps");
    const char *when = json_string_value(json_object_get(req, "observe"));
    int each = when && !strcmp(when, "each"), delta = when && !strcmp(when, "delta");
    if (!json_is_array(steps)) return fail(id, "bad_request", "run needs steps (a list)");
    if (when && !each && !delta && strcmp(when, "end"))
      return fail(id, "bad_request", "run: observe is each, delta or end");
    /* visible_changes: only a zcp/2 delta run may ask for them */
    json_t *sight = json_object_get(req, "visible");
    int changes = sight && json_is_string(sight) && !strcmp(json_string_value(sight), "changes");
    if (sight && (!changes || !delta || !s->compact))
      return fail(id, "bad_request", "run: visible is changes, with observe delta (zcp/2)");
    return do_run(s, steps, id, each || delta, delta, changes);
  }
  if (!strcmp(op, "bye")) return json_pack("{s:O, s:b}", "id", id, "ok", 1);
  return fail(id, "bad_request", "unknown op (hello, setup, step, observe, run, bye)");
}

zo_served *zo_served_new(void) { return zo_xcalloc(1, sizeof(served)); }

void zo_served_free(zo_served *sv) {
  reset((served *)sv);
  free(sv);
}

void zo_serve_write(FILE *out, json_t *res, zo_zcp_line *buf) {
  if (zo_zcp_line_write(buf, res)) return;
  fwrite(buf->p, 1, buf->n, out);
  fflush(out);
}

int zo_serve(FILE *in, FILE *out) {
  zo_served *s = zo_served_new();
  zo_zcp_line answer = {0};
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  int bye = 0;
  while (!bye && (n = getline(&line, &cap, in)) > 0) {
    json_error_t je;
    json_t *req = json_loadb(line, (size_t)n, 0, &je), *res;
    if (!req) {
      char msg[300];
      snprintf(msg, sizeof msg, "not JSON: %s (column %d)", je.text, je.column);
      res = fail(NULL, "bad_request", msg);
    } else {
      res = zo_serve_request(s, req);
      const char *op = json_string_value(json_object_get(req, "op"));
      bye = op && !strcmp(op, "bye");
    }
    zo_serve_write(out, res, &answer);
    json_decref(res);
    json_decref(req);
  }
  free(answer.p);
  free(line);
  zo_served_free(s);
  return 0;
}

/* ---- the public face (zo.h) ---- */

zo_server *zo_server_new(void) { return (zo_server *)zo_served_new(); }

void zo_server_free(zo_server *s) { zo_served_free((zo_served *)s); }

char *zo_server_answer(zo_server *s, const char *request) {
  json_error_t je;
  json_t *req = request ? json_loads(request, 0, &je) : NULL;
  json_t *res = zo_serve_request((zo_served *)s, req); /* anything gets an answer */
  char *text = json_dumps(res, JSON_COMPACT);
  json_decref(res);
  json_decref(req);
  if (!text) zo_oom("writing a zcp/1 answer");
  return text;
}
