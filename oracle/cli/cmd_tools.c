/* cmd_tools.c: the commands around the suite: replay (a fuzz input as a
 * case), corpus (the fuzzers' seeds from the suite), serve (the oracle over
 * zcp/1) and diff (two run records compared). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "decoder.h"
#include "diff.h"
#include "engine.h"
#include "report.h"
#include "runner.h"
#include "serve.h"
#include "util.h"
#include "cli.h"

/* ---- replay ------------------------------------------------------------ */

/* replay --harness diff: a fuzz_diff input (buf, n bytes) on the oracle
 * and on an engine; the YAML case up to the first difference, expecting
 * the oracle's view. Returns the exit code. */
static int replay_diff(const zo_cli_command *cmd, const uint8_t *buf, size_t n, const zo_cli_opts *o) {
  const char *engine = o->engine, *plugin = o->plugin;
  if (engine && plugin) return zo_cli_usage_error(cmd, "give --engine CMD or --engine-plugin LIB.so, not both");
  if (!engine && !plugin) {
    const char *env = getenv("ZO_DIFF_ENGINE");
    if (env && *env) plugin = env;
    else return zo_cli_usage_error(cmd, "--harness diff needs --engine CMD or --engine-plugin LIB.so "
                                        "(or ZO_DIFF_ENGINE)");
  }
  zo_engine_process_options eo = {.in_process = 1}; /* a plugin as fuzz_diff loads it */
  zo_engine *e = zo_cli_engine_open(engine, plugin, &eo);
  if (!e) return ZO_EXIT_ENGINE;
  zo_diff_result r;
  zo_diff_status st = zo_diff_input(e, buf, n, 1, &r);
  if (st == ZO_DIFF_DIFFERS) fprintf(stderr, "zoneoracle: fuzz_diff finding (%s): %s\n", r.ruleset, r.message);
  else if (st == ZO_DIFF_SKIP) fprintf(stderr, "zoneoracle: skipped: %s\n", r.message);
  else fprintf(stderr, "zoneoracle: the engine agrees with the oracle after every step\n");
  int bad = zo_diff_print_yaml(buf, st == ZO_DIFF_DIFFERS ? r.used : n, &r, o->id, stdout);
  zo_engine_process_free(e);
  if (bad) return ZO_EXIT_USAGE;
  return st == ZO_DIFF_DIFFERS ? ZO_EXIT_FAIL : ZO_EXIT_PASS;
}

/* replay --harness moves: a fuzz_moves input (buf, n bytes) decoded and
 * printed as a YAML case; exit 1 when it breaks an invariant. */
static int replay_moves(const uint8_t *buf, size_t n, const char *id) {
  char note[600];
  int broken = zo_gen_replay_moves(buf, n, id, stdout, note, sizeof note);
  if (broken) fprintf(stderr, "zoneoracle: %s\n", note);
  return broken ? ZO_EXIT_FAIL : ZO_EXIT_PASS;
}

/* zoneoracle replay --harness moves|diff FILE. */
int zo_cli_cmd_replay(const zo_cli_command *cmd, int argc, char **argv) {
  zo_cli_opts o;
  int rc = zo_cli_parse(cmd, argc, argv, &o);
  if (rc >= 0) goto out;
  if (!o.harness) {
    rc = zo_cli_usage_error(cmd, "needs --harness moves or --harness diff");
    goto out;
  }
  int diff = !strcmp(o.harness, "diff");
  if (!diff && (o.engine || o.plugin)) {
    rc = zo_cli_usage_error(cmd, "--%s is for --harness diff", o.engine ? "engine" : "engine-plugin");
    goto out;
  }
  size_t n;
  /* a FIFO too: `replay ... <(command)` */
  char *buf = zo_cli_read_file(o.args[0], 1, &n);
  if (!buf) {
    rc = ZO_EXIT_USAGE;
    goto out;
  }
  rc = diff ? replay_diff(cmd, (const uint8_t *)buf, n, &o) : replay_moves((const uint8_t *)buf, n, o.id);
  free(buf);
out:
  zo_cli_opts_free(&o);
  return rc;
}

/* ---- corpus -------------------------------------------------------------- */

extern const size_t zo_embedded_count;
extern const char *const zo_embedded_names[];
extern const char *const zo_embedded_texts[];
extern const size_t zo_embedded_lens[];

/* Write n bytes to path: 0, or -1 after a message on stderr. */
static int write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "zoneoracle: %s: %s\n", path, strerror(errno));
    return -1;
  }
  size_t w = fwrite(data, 1, n, f);
  int bad = fclose(f) || w != n;
  if (bad) fprintf(stderr, "zoneoracle: %s: write failed\n", path);
  return bad ? -1 : 0;
}

/* A case id as a file name: "mtg/400.8-x" -> "mtg_400.8-x" (malloc'd,
 * caller frees). */
static char *id_file(const char *id) {
  char *out = zo_xstrdup(id);
  for (char *p = out; *p; p++)
    if (*p == '/') *p = '_';
  return out;
}

/* zoneoracle corpus: seed corpora for every harness from the suite. */
int zo_cli_cmd_corpus(const zo_cli_command *cmd, int argc, char **argv) {
  zo_cli_opts o;
  char **files = NULL;
  int nfiles = 0;
  int rc = zo_cli_parse(cmd, argc, argv, &o);
  if (rc >= 0 || (rc = zo_cli_collect(&o, &files, &nfiles)) >= 0) {
    zo_cli_opts_free(&o);
    return rc;
  }
  const char *out = o.out ? o.out : "corpus";
  const char *names[3] = {"fuzz_case_load", "fuzz_ruleset_load", "fuzz_moves"};
  char *dir[3] = {NULL, NULL, NULL};
  int io_bad = 0;
  for (int i = 0; i < 3 && !io_bad; i++) {
    dir[i] = zo_cli_strf("%s/%s", out, names[i]);
    if (zo_cli_mkdirs(dir[i])) {
      fprintf(stderr, "zoneoracle: cannot create %s: %s\n", dir[i], strerror(errno));
      io_bad = 1;
    }
  }
  int ncase = 0, nmoves = 0, nrs = 0, bad = 0;
  for (int i = 0; i < nfiles && !io_bad; i++) {
    zo_case *c;
    zo_error err = {0};
    if (zo_case_load_file(files[i], &c, &err)) {
      bad++;
      continue;
    }
    char *stem = id_file(zo_case_id(c));
    size_t n;
    char *text = zo_cli_read_file(files[i], 0, &n); /* whole, whatever its size */
    if (!text) io_bad = 1;
    else {
      char *path = zo_cli_strf("%s/%s.yaml", dir[0], stem);
      if (write_file(path, text, n)) io_bad = 1;
      else ncase++;
      free(path);
      free(text);
    }
    for (int r = 0; r < c->nrulesets; r++) {
      int rs_index = -1;
      for (size_t j = 0; j < zo_ruleset_count(); j++)
        if (!strcmp(zo_ruleset_id(zo_ruleset_at(j)), c->rulesets[r])) rs_index = (int)j;
      if (rs_index < 0) continue;
      size_t len;
      uint8_t *enc = zo_fuzz_encode(c, rs_index, &len);
      char *path = zo_cli_strf("%s/%s.%s.bin", dir[2], stem, c->rulesets[r]);
      if (write_file(path, enc, len)) io_bad = 1;
      else nmoves++;
      free(path);
      free(enc);
    }
    free(stem);
    zo_case_free(c);
  }
  for (size_t i = 0; i < zo_embedded_count && !io_bad; i++) {
    char *path = zo_cli_strf("%s/%s", dir[1], zo_embedded_names[i]);
    if (write_file(path, zo_embedded_texts[i], zo_embedded_lens[i])) io_bad = 1;
    else nrs++;
    free(path);
  }
  printf("%d loader seeds, %d rule set seeds, %d decoder seeds in %s (%d case files skipped: invalid)\n",
         ncase, nrs, nmoves, out, bad);
  for (int i = 0; i < 3; i++) free(dir[i]);
  zo_paths_free(files, nfiles);
  zo_cli_opts_free(&o);
  return bad ? ZO_EXIT_INVALID : io_bad ? ZO_EXIT_USAGE : ZO_EXIT_PASS;
}

/* ---- serve --------------------------------------------------------------- */

/* zoneoracle serve [--mutant NAME]: the oracle over zcp/1 on stdin/stdout. */
int zo_cli_cmd_serve(const zo_cli_command *cmd, int argc, char **argv) {
  zo_cli_opts o;
  int rc = zo_cli_parse(cmd, argc, argv, &o);
  zo_cli_opts_free(&o);
  if (rc >= 0) return rc;
  return zo_serve(stdin, stdout);
}

/* ---- diff: what changed between two run records -------------------------- */

/* (id [rule set]) -> status of every case line of a run record (new
 * reference), or NULL after a message naming the file and line. */
static json_t *statuses(const char *path) {
  zo_error err = {0};
  json_t *cases = zo_report_read_cases(path, &err);
  if (!cases) { /* "FILE:LINE: not a run record: why", or "FILE: cannot open: why" */
    if (err.line) fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.message);
    else fprintf(stderr, "zoneoracle: %s: %s\n", err.file, err.message);
    return NULL;
  }
  json_t *m = json_object();
  size_t i;
  json_t *c;
  json_array_foreach(cases, i, c) {
    const char *id = json_string_value(json_object_get(c, "id"));
    const char *rs = json_string_value(json_object_get(c, "ruleset"));
    char *key = zo_cli_strf("%s [%s]", id ? id : "?", rs ? rs : "?");
    json_object_set(m, key, json_object_get(c, "status"));
    free(key);
  }
  json_decref(cases);
  return m;
}

/* A status that fails a run. */
static int bad_status(const char *s) {
  return s && (!strcmp(s, "fail") || !strcmp(s, "error") || !strcmp(s, "crash") ||
               !strcmp(s, "timeout") || !strcmp(s, "xpass"));
}

/* zoneoracle diff A.jsonl B.jsonl: new failures, fixes, new skips. */
int zo_cli_cmd_diff(const zo_cli_command *cmd, int argc, char **argv) {
  zo_cli_opts o;
  int rc = zo_cli_parse(cmd, argc, argv, &o);
  if (rc >= 0) {
    zo_cli_opts_free(&o);
    return rc;
  }
  json_t *a = statuses(o.args[0]), *b = a ? statuses(o.args[1]) : NULL;
  zo_cli_opts_free(&o);
  if (!a || !b) {
    json_decref(a);
    return ZO_EXIT_USAGE;
  }
  int nnew = 0, nfix = 0, nskip = 0, ngone = 0, nadded = 0;
  const char *key;
  json_t *v;
  json_object_foreach(b, key, v) {
    const char *sb = json_string_value(v), *sa = json_string_value(json_object_get(a, key));
    if (!sb) sb = "?";
    if (!sa) {
      printf("added      %s: %s\n", key, sb);
      nadded++;
      if (bad_status(sb)) nnew++;
    } else if (bad_status(sb) && !bad_status(sa)) {
      printf("NEW FAIL   %s: %s -> %s\n", key, sa, sb);
      nnew++;
    } else if (!bad_status(sb) && bad_status(sa)) {
      printf("fixed      %s: %s -> %s\n", key, sa, sb);
      nfix++;
    } else if (!strcmp(sb, "skip") && strcmp(sa, "skip")) {
      printf("new skip   %s: %s -> skip\n", key, sa);
      nskip++;
    }
  }
  json_object_foreach(a, key, v) if (!json_object_get(b, key)) {
    const char *sa = json_string_value(v);
    printf("gone       %s (was %s)\n", key, sa ? sa : "?");
    ngone++;
  }
  printf("%d new failures, %d fixed, %d new skips, %d added, %d gone\n", nnew, nfix, nskip, nadded, ngone);
  json_decref(a);
  json_decref(b);
  return nnew ? ZO_EXIT_FAIL : ZO_EXIT_PASS;
}

/* ---- steps --------------------------------------------------------------- */

/* The zones option o may name besides the rule set's: a JSON array. */
static json_t *zones_also(const zo_step_option *o) {
  json_t *a = json_array();
  if (o->flags & OPT_OUTSIDE) json_array_append_new(a, json_string("outside"));
  if (o->flags & OPT_ANY) json_array_append_new(a, json_string("any"));
  if (o->flags & OPT_ARENA) json_array_append_new(a, json_string("arena"));
  return a;
}

/* The value option o takes when left out, as JSON (null: none, the step
 * acts without it), from the defaults every step starts from (d). */
static json_t *option_default(const zo_step *d, const zo_step_option *o) {
  const void *f = (const char *)d + o->offset;
  int v = *(const int *)f;
  switch (o->type) {
  case OT_BOOL: return json_boolean(v);
  case OT_AMOUNT: return json_integer(v);
  case OT_SEED: return json_integer((json_int_t) * (const uint64_t *)f);
  case OT_POSITION: return json_string(v == ZO_POS_BOTTOM ? "bottom" : "top");
  case OT_KIND: return json_string(zo_kind_name((zo_kind)v));
  case OT_CATEGORY: return json_string(zo_repl_category_names[v]);
  case OT_BY_RULE: return json_string("effect");
  case OT_BY_EFFECT: return json_string("player");
  case OT_SHUFFLE: return json_false();
  case OT_ZONE: return ((const zo_zone_spec *)f)->type == ZO_ZT_ANY ? json_string("any") : json_null();
  case OT_WHEN: return json_pack("{s:s, s:s}", "to", "any", "from", "any");
  default: return json_null();
  }
}

int zo_cli_cmd_steps(const zo_cli_command *cmd, int argc, char **argv) {
  zo_cli_opts o;
  int rc = zo_cli_parse(cmd, argc, argv, &o);
  int json = rc < 0 && o.format && !strcmp(o.format, "json");
  zo_cli_opts_free(&o);
  if (rc >= 0) return rc;
  json_t *steps = json_array();
  for (int k = 0; k < ST_COUNT; k++) {
    size_t n;
    const zo_step_option *opt = zo_step_options((zo_step_kind)k, &n);
    zo_feature ft = zo_step_kind_feature((zo_step_kind)k);
    json_t *opts = json_array();
    zo_step d;
    zo_step_defaults(&d, (zo_step_kind)k);
    for (size_t i = 0; i < n; i++)
      json_array_append_new(
          opts, json_pack("{s:s, s:s, s:b, s:o, s:o, s:b, s:b, s:b, s:b, s:o}", "key", opt[i].key,
                          "type", zo_option_type_names[opt[i].type], "required",
                          (opt[i].flags & OPT_REQ) != 0, "default", option_default(&d, &opt[i]),
                          "feature",
                          opt[i].feature == FT_NONE ? json_null()
                                                    : json_string(zo_feature_name(opt[i].feature)),
                          "object", (opt[i].flags & OPT_OBJECT) != 0, "top_only",
                          (opt[i].flags & OPT_TOP) != 0, "nonempty",
                          (opt[i].flags & OPT_NONEMPTY) != 0, "unique",
                          (opt[i].flags & OPT_UNIQUE) != 0, "zones_also", zones_also(&opt[i])));
    json_array_append_new(
        steps, json_pack("{s:s, s:o, s:s, s:b, s:b, s:o}", "name", zo_step_kind_name((zo_step_kind)k),
                         "feature", ft == FT_NONE ? json_null() : json_string(zo_feature_name(ft)),
                         "rule", zo_step_kind_rule((zo_step_kind)k), "nestable",
                         zo_step_kind_nestable((zo_step_kind)k), "generated",
                         zo_step_kind_generated((zo_step_kind)k), "options", opts));
  }
  if (json) {
    json_t *features = json_array();
    for (int f = 0; f < FT_COUNT; f++) json_array_append_new(features, json_string(zo_feature_names[f]));
    json_t *doc = json_pack("{s:o, s:o}", "steps", steps, "features", features);
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    puts(text);
    free(text);
    json_decref(doc);
    return ZO_EXIT_PASS;
  }
  size_t i;
  json_t *st;
  json_array_foreach(steps, i, st) {
    json_t *f = json_object_get(st, "feature");
    printf("%-19s %-19s %-12s %s\n", json_string_value(json_object_get(st, "name")),
           json_is_string(f) ? json_string_value(f) : "-",
           json_string_value(json_object_get(st, "rule")),
           json_is_true(json_object_get(st, "nestable")) ? "nestable" : "top-level");
    size_t j;
    json_t *op;
    json_array_foreach(json_object_get(st, "options"), j, op)
    {
      json_t *def = json_object_get(op, "default"), *ft = json_object_get(op, "feature");
      char *dtext = json_is_null(def) ? NULL : json_dumps(def, JSON_ENCODE_ANY | JSON_COMPACT);
      printf("    %s%s: %s%s%s%s\n", json_string_value(json_object_get(op, "key")),
             json_is_true(json_object_get(op, "required")) ? "*" : "",
             json_string_value(json_object_get(op, "type")), dtext ? " (default " : "",
             dtext ? dtext : "", dtext ? ")" : "");
      if (json_is_string(ft)) printf("      feature %s\n", json_string_value(ft));
      free(dtext);
    }
  }
  json_decref(steps);
  return ZO_EXIT_PASS;
}
