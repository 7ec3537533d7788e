/* cmd_known_gaps.c: known gaps as data. The file `gate --expect-failures
 * FILE` reads (ci/protocol/known-gaps.schema.json), loaded with ydoc and
 * checked as strictly as a case file; after a run, its stale entries (a
 * case that passes now, an id naming no case of the run). */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "error.h"
#include "util.h"
#include "ydoc.h"
#include "cli.h"


/* ---- the file: loading and checking --------------------------------------- */

/* Whether the n bytes of text hold only blank lines and comments: an
 * empty list (YAML would call it no document at all). */
static int only_comments(const char *text, size_t n) {
  int comment = 0;
  for (size_t i = 0; i < n; i++) {
    char c = text[i];
    if (c == '\n') comment = 0;
    else if (c == '#') comment = 1;
    else if (!comment && c != ' ' && c != '\t' && c != '\r') return 0;
  }
  return 1;
}

/* A YAML node kind, for messages. */
static const char *kind_name(const yd_node *n) {
  return n->kind == YD_MAP ? "map" : n->kind == YD_SEQ ? "list" : "text";
}

/* The text of value v of key (non-empty, not only blanks, not null), or
 * NULL after filling err at v. */
static const char *text_of(const yd_doc *doc, const yd_node *key, const yd_node *v, zo_error *err) {
  if (v->kind != YD_SCALAR) {
    zo_error_set(err, ZO_ERR_SCHEMA, doc->file, v->line, v->col, "'%s' must be text, not a %s", key->str,
                 kind_name(v));
    return NULL;
  }
  if (yd_is_null(v) || !v->str[strspn(v->str, " \t\r\n")]) {
    zo_error_set(err, ZO_ERR_SCHEMA, doc->file, v->line, v->col, "'%s' is empty: %s", key->str,
                 !strcmp(key->str, "reason") ? "say why the case fails"
                 : !strcmp(key->str, "id")   ? "the case's id, as the reports print it"
                                             : "a rule set id, or no 'ruleset' key for every rule set");
    return NULL;
  }
  return v->str;
}

/* Entry m of the list into g (strings borrowed from the document). */
static zo_status load_entry(const yd_doc *doc, const yd_node *m, zo_known_gap *g, zo_error *err) {
  static const char *const keys[] = {"id", "reason", "ruleset"};
  memset(g, 0, sizeof *g);
  if (m->kind != YD_MAP)
    return zo_error_set(err, ZO_ERR_SCHEMA, doc->file, m->line, m->col,
                        "a known gap is a map {id: CASE_ID, reason: WHY}, not %s", kind_name(m));
  g->line = m->line;
  g->column = m->col;
  for (size_t i = 0; i < m->n; i++) {
    const yd_node *k = YD_KEY(m, i), *v = YD_VAL(m, i);
    const char **slot = !strcmp(k->str, "id")       ? &g->id
                        : !strcmp(k->str, "reason")  ? &g->reason
                        : !strcmp(k->str, "ruleset") ? &g->ruleset
                                                     : NULL;
    if (!slot) {
      const char *near = zo_nearest(k->str, keys, 3);
      char hint[64] = "";
      if (near) snprintf(hint, sizeof hint, "did you mean '%s'? ", near);
      return zo_error_set(err, ZO_ERR_SCHEMA, doc->file, k->line, k->col,
                          "unknown key '%s' in a known gap (%sexpected id, reason, ruleset)", k->str, hint);
    }
    if (!(*slot = text_of(doc, k, v, err))) return err->code;
  }
  if (!g->id)
    return zo_error_set(err, ZO_ERR_SCHEMA, doc->file, m->line, m->col,
                        "a known gap without an id (id: the case's id, as the reports print it)");
  if (!g->reason)
    return zo_error_set(err, ZO_ERR_SCHEMA, doc->file, m->line, m->col,
                        "known gap '%s' has no reason (reason: why the case fails)", g->id);
  return ZO_OK;
}

/* The map key of an entry or a case: "ID\x1fRULESET", or "ID\x1e" for an
 * entry naming every rule set (malloc'd). */
static char *gap_key(const char *id, const char *ruleset) {
  return ruleset ? zo_cli_strf("%s\x1f%s", id, ruleset) : zo_cli_strf("%s\x1e", id);
}

/* The document's list into kg->gaps: every entry checked, none twice. */
static zo_status load_entries(zo_cli_known_gaps *kg, zo_error *err) {
  const yd_doc *doc = kg->doc;
  const yd_node *root = doc->root;
  if (root->kind != YD_SEQ)
    return zo_error_set(err, ZO_ERR_SCHEMA, doc->file, root->line, root->col,
                        "expected a list of known gaps ('- {id: CASE_ID, reason: WHY}' each), not a %s",
                        kind_name(root));
  kg->gaps = zo_xcalloc(root->n ? root->n : 1, sizeof *kg->gaps);
  json_t *first = json_object(); /* gap_key -> the line of the entry holding it */
  zo_status st = ZO_OK;
  for (size_t i = 0; i < root->n && !st; i++) {
    zo_known_gap *g = &kg->gaps[kg->n];
    st = load_entry(doc, root->kids[i], g, err);
    if (st) break;
    char *all = gap_key(g->id, NULL), *own = g->ruleset ? gap_key(g->id, g->ruleset) : NULL;
    json_t *prev = json_object_get(first, all);
    if (!prev && own) prev = json_object_get(first, own);
    if (prev)
      st = zo_error_set(err, ZO_ERR_SCHEMA, doc->file, g->line, g->column,
                        "known gap '%s'%s%s%s is listed already (line %lld%s)", g->id, g->ruleset ? " [" : "",
                        g->ruleset ? g->ruleset : "", g->ruleset ? "]" : "", json_integer_value(prev),
                        json_object_get(first, all) && g->ruleset ? ", for every rule set" : "");
    else
      json_object_set_new(first, own ? own : all, json_integer(g->line));
    free(all);
    free(own);
    kg->n++;
  }
  json_decref(first);
  return st;
}

int zo_cli_known_gaps_load(const char *path, zo_cli_known_gaps *kg) {
  memset(kg, 0, sizeof *kg);
  kg->file = path;
  size_t n;
  char *text = zo_cli_read_file(path, 1, &n);
  if (!text) return ZO_EXIT_USAGE;
  zo_error err = {0};
  zo_status st = ZO_OK;
  if (!only_comments(text, n)) { /* comments are comments: a commented-out entry excuses nothing */
    kg->doc = zo_xcalloc(1, sizeof *kg->doc);
    st = yd_parse(path, text, n, kg->doc, &err);
    if (!st) st = load_entries(kg, &err);
  }
  free(text);
  if (st == ZO_ERR_NOMEM) zo_oom(NULL);
  if (!st) return -1;
  char buf[2048];
  zo_error_format(&err, buf, sizeof buf);
  fprintf(stderr, "%s\n", buf);
  return ZO_EXIT_USAGE;
}

void zo_cli_known_gaps_free(zo_cli_known_gaps *kg) {
  if (kg->doc) yd_free(kg->doc);
  free(kg->doc);
  free(kg->gaps);
  free(kg->unknown);
  memset(kg, 0, sizeof *kg);
}

/* Whether entry g names case id under rule set rs (as the runner matches). */
static int names(const zo_known_gap *g, const char *id, const char *rs) {
  return !strcmp(g->id, id) && (!g->ruleset || !strcmp(g->ruleset, rs));
}

/* " [RULESET]" of an entry, or "" when it names every rule set. */
static void rs_label(const zo_known_gap *g, char *buf, size_t cap) {
  if (g->ruleset) zo_snprintf_utf8(buf, cap, " [%s]", g->ruleset);
  else buf[0] = 0;
}

void zo_cli_known_gaps_check(zo_cli_known_gaps *kg, const zo_cli_opts *o, const zo_run *run) {
  json_t *seen = json_object(); /* gap_key of every case x rule set, and of every id */
  for (int i = 0; i < run->n; i++) {
    char *k1 = gap_key(run->results[i].case_id, NULL), *k2 = gap_key(run->results[i].case_id, run->results[i].ruleset);
    json_object_set_new(seen, k1, json_true());
    json_object_set_new(seen, k2, json_true());
    free(k1);
    free(k2);
  }
  free(kg->unknown);
  kg->unknown = zo_xcalloc(kg->n ? (size_t)kg->n : 1, sizeof *kg->unknown);
  kg->nunknown = 0;
  for (int i = 0; i < kg->n && o->nshards <= 1; i++) { /* a shard sees a part of the suite */
    const zo_known_gap *g = &kg->gaps[i];
    if (o->filter && fnmatch(o->filter, g->id, 0)) continue;
    if (o->ruleset && g->ruleset && strcmp(o->ruleset, g->ruleset)) continue;
    char *k = gap_key(g->id, g->ruleset);
    if (!json_object_get(seen, k)) kg->unknown[kg->nunknown++] = *g;
    free(k);
  }
  json_decref(seen);
  if (!run->xpassed && !kg->nunknown) return;
  char rs[300];
  if (o->filter || o->ruleset || o->nshards > 1)
    printf("known gaps %s: stale entries, take them off the list:\n", kg->file);
  else
    printf("known gaps %s: stale entries, take them off the list (zoneoracle known-gaps --update %s "
           "%s/run.jsonl):\n", kg->file, kg->file, o->report_dir);
  for (int i = 0; i < run->n; i++) {
    const zo_case_result *r = &run->results[i];
    if (r->status != RS_XPASS) continue;
    int line = 0;
    for (int k = 0; k < kg->n && !line; k++)
      if (names(&kg->gaps[k], r->case_id, r->ruleset)) line = kg->gaps[k].line;
    printf("  %s:%d: %s [%s]: passes now (xpass)\n", kg->file, line, r->case_id, r->ruleset);
  }
  for (int i = 0; i < kg->nunknown; i++) {
    rs_label(&kg->unknown[i], rs, sizeof rs);
    printf("  %s:%d: %s%s: names no case of the run (unknown)\n", kg->file, kg->unknown[i].line,
           kg->unknown[i].id, rs);
  }
}
