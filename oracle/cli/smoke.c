/* smoke.c: `zoneoracle smoke --engine CMD | --engine-plugin PATH`, an
 * adapter checked in seconds (ci/protocol/PROTOCOL.md): the handshake (protocol, name,
 * version, rule sets, features), one small built-in case for each feature
 * the engine declares (and one needing none), its answers to malformed
 * requests (a line that is not JSON, an unknown op, a request without id,
 * one without a required field: each must get an error answer, and the
 * engine must go on), and bye (answered, then the process exits).
 *
 * One line per check, `ok` or `FAIL`, with its time, then the count. The
 * cases are data installed with zoneoracle (oracle/smoke/), so smoke needs
 * no file of the user's and runs from anywhere; each runs under the first
 * of its rule sets the engine declares. The time
 * limit per request is the gate's (--timeout), so a hanging engine fails
 * its checks instead of hanging smoke.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "obs_diff.h"
#include "ydoc.h"
#include "runner.h"
#include "util.h"
#include "cli.h"

/* The smoke cases: data, not code (oracle/smoke/, installed as
 * share/zoneoracle/smoke/, found as the suite is: zo_cli_data_path).
 * checks.yaml maps each check, "core" (needs no feature) or a protocol
 * feature, to its case files in cases/, in order: several for a check
 * differ in rule sets, and the first the engine can run is used. Each
 * passes on the oracle (`zoneoracle smoke --engine 'zoneoracle serve'` is
 * a test). All are read and loaded before the engine starts, so a missing
 * or broken file is an error of the installation (exit 2, its
 * FILE:LINE:COL on stderr), never an engine's failure. A case is loaded
 * again for each use, named smoke/CHECK.yaml (smoke/run.yaml for the run
 * checks) in the messages of a failing engine. */
typedef struct {
  const char *check; /* the manifest's key (storage of smoke_data.doc) */
  char *text;        /* the case file's text (owned) */
  size_t len;
  const char *file;  /* a user's CASE (borrowed from argv), else NULL */
} builtin;

typedef struct {
  yd_doc doc;        /* checks.yaml */
  builtin *cases;    /* in the manifest's order (owned) */
  size_t n;
} smoke_data;

/* The cases of this run of smoke (smoke_data_load in zo_cli_cmd_smoke). */
static smoke_data data;

static void smoke_data_free(smoke_data *d) {
  for (size_t i = 0; i < d->n; i++) free(d->cases[i].text);
  free(d->cases);
  yd_free(&d->doc);
  memset(d, 0, sizeof *d);
}

/* "DIR/checks.yaml:LINE:COL: error: MESSAGE" on stderr; returns -1. */
static int data_error(const char *file, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int data_error(const char *file, int line, int col, const char *fmt, ...) {
  char what[1200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (line) fprintf(stderr, "zoneoracle smoke: %s:%d:%d: error: %s\n", file, line, col, what);
  else fprintf(stderr, "zoneoracle smoke: %s: error: %s\n", file, what);
  return -1;
}

/* Read the smoke cases into d: checks.yaml (a map of check -> a
 * non-empty list of file names in cases/; a check is "core" or a whole
 * protocol feature, never twice), then every case file it names, each
 * loaded once to be sure it is a valid case. 0, or -1 after a message on
 * stderr naming the directory, file and line (d is then freed). */
static int smoke_data_load(smoke_data *d) {
  char dir[4096], path[4400];
  memset(d, 0, sizeof *d);
  if (zo_cli_data_path("smoke", dir, sizeof dir)) {
    fprintf(stderr, "zoneoracle smoke: its cases are not found: no folder %s (reinstall zoneoracle, or "
            "point $ZO_DATA_DIR at a copy of share/zoneoracle)\n", dir);
    return -1;
  }
  snprintf(path, sizeof path, "%s/checks.yaml", dir);
  zo_error err = {0};
  if (yd_parse_file(path, &d->doc, &err)) {
    data_error(path, err.line, err.column, "%s", err.message);
    goto bad;
  }
  const yd_node *root = d->doc.root;
  if (!root || root->kind != YD_MAP || !root->n) {
    data_error(path, root ? root->line : 0, root ? root->col : 0, "expected a map of checks to case files");
    goto bad;
  }
  int core = 0;
  for (size_t i = 0; i < root->n; i++) {
    const yd_node *k = YD_KEY(root, i), *v = YD_VAL(root, i);
    zo_feature ft = zo_feature_parse(k->str);
    if (strcmp(k->str, "core") && (ft == FT_NONE || zo_feature_whole(ft) != FT_NONE)) {
      data_error(path, k->line, k->col, "'%s' is neither core nor a protocol feature (a whole one)", k->str);
      goto bad;
    }
    core |= !strcmp(k->str, "core");
    if (v->kind != YD_SEQ || !v->n) {
      data_error(path, v->line, v->col, "check %s: expected a list of case files", k->str);
      goto bad;
    }
    for (size_t j = 0; j < v->n; j++) {
      const yd_node *f = v->kids[j];
      if (f->kind != YD_SCALAR || !f->str[0] || strchr(f->str, '/')) {
        data_error(path, f->line, f->col, "check %s: expected a file name in cases/", k->str);
        goto bad;
      }
      char file[4400];
      snprintf(file, sizeof file, "%s/cases/%s", dir, f->str);
      size_t len = 0;
      char *text = zo_cli_read_file(file, 0, &len); /* says why on stderr */
      if (!text) {
        data_error(path, f->line, f->col, "check %s: case file %s cannot be read", k->str, f->str);
        goto bad;
      }
      d->cases = zo_xrealloc(d->cases, (d->n + 1) * sizeof *d->cases);
      d->cases[d->n++] = (builtin){.check = k->str, .text = text, .len = len};
      zo_case *c;
      if (zo_case_load_mem(file, text, len, &c, &err)) {
        data_error(err.file[0] ? err.file : file, err.line, err.column, "%s", err.message);
        goto bad;
      }
      zo_case_free(c);
    }
  }
  if (!core) {
    data_error(path, 0, 0, "no core case (a check named core)");
    goto bad;
  }
  return 0;
bad:
  fprintf(stderr, "zoneoracle smoke: the smoke cases in %s are broken: reinstall zoneoracle\n", dir);
  smoke_data_free(d);
  return -1;
}

/* ci/protocol/PROTOCOL.md, Features, in its order. */
/* the features, as the case layer lists them (case/steps.def) */
#define NFEATURES ((size_t)FT_COUNT)

typedef struct {
  int ok, failed, skipped;
  double started; /* ms, of the current check */
} tally;

/* One check's line: verdict is "ok", "FAIL" or "skip". */
static void say(tally *t, const char *verdict, const char *check, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void say(tally *t, const char *verdict, const char *check, const char *fmt, ...) {
  char what[1200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (!strcmp(verdict, "ok")) t->ok++;
  else if (!strcmp(verdict, "FAIL")) t->failed++;
  else t->skipped++;
  printf("%-4s %s: %s (%.0f ms)\n", verdict, check, what, (zo_now() * 1e3) - t->started);
  fflush(stdout);
  t->started = (zo_now() * 1e3);
}

/* Whether e declares feature (or, with ruleset, rule set) what. */
static int declares(zo_engine *e, const char *what, int ruleset) {
  return !e->ops->has || e->ops->has(e->self, what, ruleset);
}

/* A list filled up to its size (n bytes) ends in "..." so that a cut shows. */
static void mark_cut(char *buf, size_t n) {
  if (strlen(buf) == n - 1) memcpy(buf + n - 4, "...", 4);
}

/* The handshake's answer, checked field by field. 1 when usable. */
static int check_hello(tally *t, zo_engine *e) {
  const json_t *h = zo_engine_process_hello(e);
  const char *name = json_string_value(json_object_get(h, "engine"));
  const char *version = json_string_value(json_object_get(h, "version"));
  json_t *rss = json_object_get(h, "rulesets"), *fs = json_object_get(h, "features");
  const char *why = NULL;
  if (!json_is_true(json_object_get(h, "ok"))) why = "ok is not true";
  else if (!name || !name[0]) why = "no engine (its name, a non-empty string)";
  else if (!version) why = "no version (a string)";
  else if (!json_is_array(rss) || !json_array_size(rss)) why = "rulesets is not a non-empty list";
  else if (!json_is_array(fs)) why = "features is not a list";
  if (why) {
    say(t, "FAIL", "handshake", "the hello answer is not usable: %s", why);
    return 0;
  }
  char rlist[400] = "", flist[1024] = "", odd[200] = ""; /* every feature name fits */
  size_t i;
  json_t *x;
  json_array_foreach(rss, i, x) {
    const char *id = json_string_value(x);
    if (!id) {
      say(t, "FAIL", "handshake", "rulesets[%zu] is not a string", i);
      return 0;
    }
    snprintf(rlist + strlen(rlist), sizeof rlist - strlen(rlist), "%s%s", i ? ", " : "", id);
  }
  json_array_foreach(fs, i, x) {
    const char *f = json_string_value(x);
    int known = 0;
    for (size_t k = 0; f && k < NFEATURES; k++) known |= !strcmp(f, zo_feature_names[k]);
    if (!known) snprintf(odd, sizeof odd, "%s", f ? f : "(not a string)");
    snprintf(flist + strlen(flist), sizeof flist - strlen(flist), "%s%s", i ? ", " : "", f ? f : "?");
  }
  mark_cut(rlist, sizeof rlist);
  mark_cut(flist, sizeof flist);
  if (odd[0]) {
    say(t, "FAIL", "handshake", "unknown feature '%s' (ci/protocol/PROTOCOL.md lists triggers, replacement, ...)", odd);
    return 0;
  }
  const char *proto = json_string_value(json_object_get(h, "protocol"));
  say(t, "ok", "handshake", "%s %s speaks %s; rule sets: %s; features: %s", name, version, proto ? proto : "zcp/1",
      rlist, flist[0] ? flist : "none");
  return 1;
}

/* The built-in case for `check`, run under the first rule set of it the
 * engine declares. */
static void check_case_as(tally *t, zo_engine *e, const char *check, const char *as) {
  char label[64];
  if (as) snprintf(label, sizeof label, "%s", as);
  else if (strcmp(check, "core")) snprintf(label, sizeof label, "feature %s", check);
  else snprintf(label, sizeof label, "%s case", check);
  zo_feature whole = zo_feature_whole(zo_feature_parse(check));
  const char *of = whole != FT_NONE ? zo_feature_name(whole) : check;
  for (size_t i = 0; i < data.n; i++) {
    if (strcmp(data.cases[i].check, of)) continue;
    zo_case *c;
    zo_error err = {0};
    char name[64];
    snprintf(name, sizeof name, "smoke/%s.yaml", of);
    if (zo_case_load_mem(data.cases[i].file ? data.cases[i].file : name, data.cases[i].text, data.cases[i].len,
                         &c, &err)) {
      say(t, "FAIL", label, "the built-in case does not load (a zoneoracle bug): %s", err.message);
      return;
    }
    const zo_ruleset *rs = NULL;
    for (int r = 0; r < c->nrulesets && !rs; r++)
      if (declares(e, c->rulesets[r], 1)) rs = zo_ruleset_find(c->rulesets[r]);
    /* a part is checked only by a case that uses it: the whole's case may
       use another part (state_check's token case says nothing of a draw
       from an empty library) */
    zo_feature part = zo_feature_parse(check);
    uint64_t uses = 0;
    for (int k = 0; k < c->nsteps; k++) uses |= zo_case_step_features(c, &c->steps[k]);
    if (rs && whole != FT_NONE && !(uses >> part & 1u)) {
      say(t, "skip", label, "no built-in case uses part %s (case %s uses other parts of %s)", check, c->id, of);
      zo_case_free(c);
      return;
    }
    const char *missing = rs ? zo_case_missing_feature(e, c) : NULL;
    if (missing) {
      say(t, "skip", label, "the built-in case %s also needs %s, which the engine does not declare", c->id, missing);
      zo_case_free(c);
      return;
    }
    if (!rs) {
      zo_case_free(c);
      continue;
    }
    zo_run_options opt = {0};
    zo_run run = {.results = zo_xcalloc(1, sizeof *run.results), .n = 1};
    zo_case_result *res = &run.results[0];
    zo_run_case(e, c, rs, &opt, res);
    if (res->status == RS_PASS)
      say(t, "ok", label, "case %s [%s] passes", c->id, rs->id);
    else
      say(t, "FAIL", label, "case %s [%s]: %s: %s", c->id, rs->id, zo_result_status_name(res->status),
          res->message ? res->message : "");
    zo_run_clear(&run);
    zo_case_free(c);
    return;
  }
  say(t, "skip", label, "no built-in case for the rule sets the engine declares");
}

/* A check's case (check: "core" or a feature) under its own label. */
static void check_case(tally *t, zo_engine *e, const char *check) { check_case_as(t, e, check, NULL); }

/* `run` (PROTOCOL.md 7.5): the core case sent as one run request, as
 * `gate --fuzz` sends games (observe: delta when the engine chose zcp/2,
 * else each), and each step's answer and observation compared with the
 * oracle's as `gate --strict` compares them. With ahead, the check
 * "requests ahead" (PROTOCOL.md 2): the case's setup, observe and run
 * written twice before any answer is read, as `gate --fuzz` writes the
 * next game, and both games' answers compared with the oracle's. */
static void check_run(tally *t, zo_engine *e, int ahead, const char *label) {
  if (!label) label = ahead ? "requests ahead" : "run";
  const json_t *hello = zo_engine_process_hello(e);
  const char *proto = json_string_value(json_object_get(hello, "protocol"));
  const char *mode = !proto || strcmp(proto, "zcp/2")                 ? "each"
                     : e->ops->has(e->self, "visible_changes", 0) ? "delta, visible: changes"
                                                                  : "delta";
  if (ahead && !zo_engine_process_can_send_ahead(e)) {
    say(t, "skip", label, "a plugin in process answers one request at a time");
    return;
  }
  for (size_t i = 0; i < data.n; i++) {
    if (strcmp(data.cases[i].check, "core")) continue;
    zo_case *c;
    zo_error err = {0};
    if (zo_case_load_mem(data.cases[i].file ? data.cases[i].file : "smoke/run.yaml", data.cases[i].text,
                         data.cases[i].len, &c, &err)) {
      say(t, "FAIL", label, "the built-in case does not load (a zoneoracle bug): %s", err.message);
      return;
    }
    const zo_ruleset *rs = NULL;
    for (int r = 0; r < c->nrulesets && !rs; r++)
      if (declares(e, c->rulesets[r], 1)) rs = zo_ruleset_find(c->rulesets[r]);
    if (!rs) {
      zo_case_free(c);
      continue;
    }
    int n = c->nsteps, games = ahead ? 2 : 1;
    zo_observation *ea = zo_xcalloc((size_t)n + 1, sizeof *ea), *ob = zo_xcalloc((size_t)n + 1, sizeof *ob);
    zo_step_result *ra = zo_xcalloc((size_t)n + 1, sizeof *ra), *rb = zo_xcalloc((size_t)n + 1, sizeof *rb);
    zo_engine *o = zo_engine_oracle_new();
    char why[700] = "";
    if (!o->ops->setup(o->self, rs, c, &err)) { /* the oracle's side first */
      o->ops->observe(o->self, &ob[0], &err);
      for (int k = 1; k <= n; k++) {
        o->ops->step(o->self, &c->steps[k - 1], &rb[k], &err);
        o->ops->observe(o->self, &ob[k], &err);
      }
      o->ops->teardown(o->self);
    }
    if (!ahead) {
      if (e->ops->setup(e->self, rs, c, &err))
        snprintf(why, sizeof why, "the setup before the run failed: %s", err.message);
      else if (zo_engine_process_run(e, c, ra, ea, &err))
        snprintf(why, sizeof why, "a run of %d steps (observe: %s) failed (PROTOCOL.md 7.5): %s", n, mode,
                 err.message);
    } else if (zo_engine_process_send_game(e, rs, c, &err) || zo_engine_process_send_game(e, rs, c, &err)) {
      snprintf(why, sizeof why, "two games' requests (setup, observe, run) could not be written: %s", err.message);
    }
    for (int g = 0; g < games && !why[0]; g++) {
      if (ahead && g) {
        for (int k = 0; k <= n; k++) {
          zo_observation_free(&ea[k]);
          zo_step_result_free(&ra[k]);
          memset(&ea[k], 0, sizeof ea[k]);
          memset(&ra[k], 0, sizeof ra[k]);
        }
      }
      if (ahead && zo_engine_process_read_game(e, c, ra, ea, NULL, &err)) {
        snprintf(why, sizeof why, "game %d of 2, written before any answer was read: %s (PROTOCOL.md 2)", g + 1,
                 err.message);
        break;
      }
      for (int k = 0; k <= n && !why[0]; k++) {
        zo_obs_difference d;
        if (zo_observation_diff(c, &ea[k], &ob[k], k ? &ea[k - 1] : NULL, k ? &ob[k - 1] : NULL,
                                k ? &ra[k] : NULL, k ? &rb[k] : NULL, &d)) {
          char what[400];
          zo_obs_difference_format(c, &d, what, sizeof what);
          if (ahead)
            snprintf(why, sizeof why, "game %d of 2, written before any answer was read, differs from the "
                     "oracle at step %d: %s (PROTOCOL.md 2)", g + 1, k, what);
          else
            snprintf(why, sizeof why, "the run's answer for step %d (observe: %s) differs from the oracle's: %s "
                     "(PROTOCOL.md 7.5 and 8)", k, mode, what);
        }
      }
    }
    if (ahead) zo_engine_process_drain(e);
    e->ops->teardown(e->self);
    for (int k = 0; k <= n; k++) {
      zo_observation_free(&ea[k]);
      zo_observation_free(&ob[k]);
      zo_step_result_free(&ra[k]);
      zo_step_result_free(&rb[k]);
    }
    free(ea);
    free(ob);
    free(ra);
    free(rb);
    zo_engine_oracle_free(o);
    if (why[0]) say(t, "FAIL", label, "case %s [%s]: %s", c->id, rs->id, why);
    else if (ahead)
      say(t, "ok", label, "case %s [%s] twice, six requests written before the first answer was read, "
          "answered in order and as the oracle", c->id, rs->id);
    else say(t, "ok", label, "case %s [%s] as one run (observe: %s, %s) agrees with the oracle", c->id, rs->id,
             mode, proto ? proto : "zcp/1");
    zo_case_free(c);
    return;
  }
  say(t, "skip", label, "no built-in case for the rule sets the engine declares");
}

/* A valid setup after a malformed line: an empty game of rule set rsid,
 * set up as every case is (with the digest and zones the engine's
 * features ask for), then torn down. ZO_OK, or the engine's error. */
static zo_status probe_setup(zo_engine *e, const char *rsid, zo_error *err) {
  const zo_ruleset *rs = zo_ruleset_find(rsid);
  if (!rs) return zo_error_set(err, ZO_ERR_UNKNOWN, NULL, 0, 0, "no rule set %s here", rsid);
  char text[600];
  int n = snprintf(text, sizeof text,
                   "{id: smoke/probe, title: \"an empty game\", rulesets: [\"%s\"], rules: [\"%s\"], "
                   "players: [alice, bob], cards: {}, steps: []}\n",
                   rsid, zo_ruleset_rule_count(rs) ? zo_ruleset_rule_id(rs, 0) : "");
  zo_case *c;
  zo_status st = zo_case_load_mem("smoke/probe.yaml", text, (size_t)n, &c, err);
  if (st) return st;
  st = e->ops->setup(e->self, rs, c, err);
  if (!st) e->ops->teardown(e->self);
  zo_case_free(c);
  return st;
}

/* The CASE files of the command line, first in data as "core" cases (the
 * first the engine can run is the core case): each loaded first, so that
 * a broken one is the user's error (FILE:LINE:COL on stderr, 1), never
 * the engine's; 0 when all load. */
static int user_cases(const zo_cli_opts *o) {
  if (!o->nargs) return 0;
  builtin *all = zo_xcalloc(data.n + (size_t)o->nargs + 1, sizeof *all);
  int bad = 0;
  size_t k = 0;
  for (int i = 0; i < o->nargs; i++) {
    zo_case *c;
    zo_error err = {0};
    char *text;
    size_t len = 0;
    if (zo_case_load_file(o->args[i], &c, &err) == ZO_OK) {
      zo_case_free(c);
      if ((text = zo_cli_read_file(o->args[i], 0, &len))) { /* says why on stderr */
        all[k++] = (builtin){"core", text, len, o->args[i]};
        continue;
      }
      bad = 1;
      continue;
    }
    char buf[2048];
    zo_error_format(&err, buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
    bad = 1;
  }
  for (size_t i = 0; i < data.n; i++) all[k++] = data.cases[i];
  free(data.cases);
  data.cases = all;
  data.n = k;
  return bad;
}

/* Why `a` is not a well-formed error answer with id `id` (NULL: id null),
 * or NULL when it is. */
static const char *not_an_error_answer(json_t *a, const json_t *id, char *buf, size_t cap) {
  json_t *e = json_object_get(a, "error"), *got = json_object_get(a, "id");
  const char *code = json_string_value(json_object_get(e, "code"));
  if (!json_is_false(json_object_get(a, "ok"))) return "the answer does not say ok: false";
  if (!json_is_object(e)) return "the answer has no error object";
  if (!code || (strcmp(code, "bad_request") && strcmp(code, "unsupported") && strcmp(code, "internal")))
    return "error.code is not bad_request, unsupported or internal";
  if (!json_is_string(json_object_get(e, "message"))) return "error.message is not a string";
  if (!got) return "the answer has no id";
  if (id && !json_equal(got, (json_t *)id)) {
    snprintf(buf, cap, "the answer's id is not the request's (%lld)", (long long)json_integer_value(id));
    return buf;
  }
  if (!id && !json_is_null(got)) return "the answer's id is not null (the request had none to echo)";
  return NULL;
}

/* Send a malformed line; it must get an error answer, and the engine must
 * still answer a valid setup afterwards. */
static void check_malformed(tally *t, zo_engine *e, const char *what, const char *line, long id,
                            const char *ruleset) {
  static long probe_id = 9100;
  probe_id++;
  char label[120], buf[200];
  snprintf(label, sizeof label, "malformed: %s", what);
  json_t *a = NULL, *jid = id ? json_integer(id) : NULL;
  zo_error err = {0};
  const char *why = NULL;
  if (zo_engine_process_exchange(e, line, &a, &err)) {
    say(t, "FAIL", label, "no error answer: %s", err.message);
    json_decref(jid);
    return;
  }
  why = not_an_error_answer(a, jid, buf, sizeof buf);
  char code[32];
  snprintf(code, sizeof code, "%s", why ? "" : json_string_value(json_object_get(json_object_get(a, "error"), "code")));
  json_decref(a);
  json_decref(jid);
  if (why) {
    say(t, "FAIL", label, "%s", why);
    return;
  }
  /* it goes on: a valid setup after it is answered */
  if (probe_setup(e, ruleset, &err))
    say(t, "FAIL", label, "answered %s, then a valid setup got no ok: true answer: %s", code, err.message);
  else say(t, "ok", label, "error answer %s, and the engine goes on", code);
}

/* zoneoracle smoke --engine CMD | --engine-plugin PATH [--timeout S]:
 * the handshake, one built-in case per declared feature, malformed
 * requests, bye; one line per check on stdout. Returns the exit code: 0
 * every check ok, 1 one failed, 2 usage, 4 the engine could not be started
 * or failed the handshake. */
int zo_cli_cmd_smoke(const zo_cli_command *cmd, int argc, char **argv) {
  zo_cli_opts o;
  int rc = zo_cli_parse(cmd, argc, argv, &o);
  zo_cli_opts_free(&o);
  if (rc >= 0) return rc;
  const char *engine = o.engine, *plugin = o.plugin;
  if (!engine == !plugin)
    return zo_cli_usage_error(cmd, engine ? "give --engine CMD or --engine-plugin LIB.so, not both"
                                          : "needs --engine CMD or --engine-plugin LIB.so");
  double timeout = o.timeout;
  if (smoke_data_load(&data)) return ZO_EXIT_USAGE;
  if (user_cases(&o)) {
    smoke_data_free(&data);
    return ZO_EXIT_INVALID;
  }
  double t0 = (zo_now() * 1e3);
  tally t = {.started = t0};
  printf("smoke: %s\n", engine ? engine : plugin);
  zo_error err = {0};
  zo_engine_process_options eo = {.timeout = timeout};
  zo_engine *e = engine ? zo_engine_process_open(engine, &eo, &err) : zo_engine_plugin_open(plugin, &eo, &err);
  int started = e != NULL;
  if (!e) say(&t, "FAIL", "handshake", "no zcp/1 handshake: %s", err.message);
  if (e && check_hello(&t, e)) {
    check_case(&t, e, "core");
    check_run(&t, e, 0, NULL);
    check_run(&t, e, 1, NULL);
    for (size_t f = 0; f < NFEATURES; f++) {
      /* a part alone: its whole's case, when the engine has what it needs */
      zo_feature whole = zo_feature_whole((zo_feature)f);
      if (whole != FT_NONE && e->ops->has(e->self, zo_feature_name(whole), 0)) continue;
      if (!e->ops->has(e->self, zo_feature_names[f], 0)) continue;
      /* no step needs these: the run asks for visible changes, every
         setup carries the rule set's digest and zones */
      if (f == FT_VISIBLE_CHANGES) check_run(&t, e, 0, "feature visible_changes");
      else if (f == FT_RULESET_DIGEST) check_case_as(&t, e, "core", "feature ruleset_digest");
      else if (f == FT_RULESET_ZONES) check_case_as(&t, e, "core", "feature ruleset_zones");
      /* no built-in rule set has zone rules (issue 31): a user's file's
         first case, the core case there, is the one smoke can run */
      else if (f == FT_ZONE_RULES) check_case_as(&t, e, "core", "feature zone_rules");
      else check_case(&t, e, zo_feature_names[f]);
    }
    /* a rule set for the valid setups that follow each malformed line */
    const char *rs = json_string_value(json_array_get(json_object_get(zo_engine_process_hello(e), "rulesets"), 0));
    for (size_t i = 0; i < zo_ruleset_count(); i++)
      if (declares(e, zo_ruleset_id(zo_ruleset_at(i)), 1)) {
        rs = zo_ruleset_id(zo_ruleset_at(i));
        break;
      }
    char ruleset[96];
    snprintf(ruleset, sizeof ruleset, "%s", rs);
    check_malformed(&t, e, "a line that is not JSON", "this is not JSON {", 0, ruleset);
    check_malformed(&t, e, "an unknown op", "{\"op\":\"frobnicate\",\"id\":9001}", 9001, ruleset);
    check_malformed(&t, e, "a request without id", "{\"op\":\"observe\"}", 0, ruleset);
    check_malformed(&t, e, "a setup without its ruleset",
                    "{\"op\":\"setup\",\"id\":9011,\"players\":[\"alice\",\"bob\"],\"cards\":{}}", 9011, ruleset);
    if (zo_engine_process_bye(e, &err)) say(&t, "FAIL", "bye", "%s", err.message);
    else say(&t, "ok", "bye", plugin ? "answered ok: true" : "answered ok: true, then exited");
  }
  zo_engine_process_free(e);
  smoke_data_free(&data);
  int n = t.ok + t.failed + t.skipped;
  printf("%d checks: %d ok, %d failed, %d skipped in %.2f s\n", n, t.ok, t.failed, t.skipped,
         ((zo_now() * 1e3) - t0) / 1e3);
  if (!started) {
    fprintf(stderr, "zoneoracle: engine '%s' could not be started or driven: %s\n", engine ? engine : plugin,
            err.message);
    return ZO_EXIT_ENGINE;
  }
  return t.failed ? ZO_EXIT_FAIL : ZO_EXIT_PASS;
}
