/* cmd_known_gaps.c: known gaps as data. The file `gate --expect-failures
 * FILE` reads (ci/protocol/known-gaps.schema.json), loaded with ydoc and
 * checked as strictly as a case file; after a run, its stale entries (a
 * case that passes now, an id naming no case of the run); and the command
 * `zoneoracle known-gaps [--update] FILE [RUN.jsonl...]`, which checks the
 * file, or compares it with run records, or rewrites it from them. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "error.h"
#include "report.h"
#include "util.h"
#include "ydoc.h"
#include "cli.h"

/* The reason a new entry gets: a placeholder its user replaces (a new
 * entry is told by this very pointer). */
static const char todo_reason[] = "TODO: why does it fail?";

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

/* ---- known-gaps --update: the file from run records ------------------------ */

/* What a case did in the records: skipped (or anything that neither passes
 * nor fails), passed, failed; a case in several records takes the
 * greatest (a failure anywhere keeps its gap). */
enum { DID_SKIP = 1, DID_PASS = 2, DID_FAIL = 3 };

static int did(const char *status) {
  if (!strcmp(status, "pass") || !strcmp(status, "xpass")) return DID_PASS;
  if (!strcmp(status, "fail") || !strcmp(status, "error") || !strcmp(status, "crash") ||
      !strcmp(status, "timeout") || !strcmp(status, "xfail"))
    return DID_FAIL;
  return DID_SKIP;
}

/* The cases of the run records: cases maps gap_key(id, rule set) to what
 * it did; byid maps an id to the array of its rule sets. -1, or
 * ZO_EXIT_USAGE after "FILE:LINE: not a run record: ..." on stderr. */
static int read_runs(char **paths, int n, json_t *cases, json_t *byid) {
  for (int i = 0; i < n; i++) {
    zo_error err = {0};
    json_t *lines = zo_report_read_cases(paths[i], &err);
    if (!lines) {
      if (err.line) fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.message);
      else fprintf(stderr, "zoneoracle: %s: %s\n", err.file, err.message);
      return ZO_EXIT_USAGE;
    }
    size_t k;
    json_t *c;
    json_array_foreach(lines, k, c) {
      const char *id = json_string_value(json_object_get(c, "id"));
      const char *rs = json_string_value(json_object_get(c, "ruleset"));
      char *key = gap_key(id, rs);
      json_t *prev = json_object_get(cases, key);
      int d = did(json_string_value(json_object_get(c, "status")));
      if (!prev) {
        json_t *list = json_object_get(byid, id);
        if (!list) json_object_set_new(byid, id, list = json_array());
        json_array_append_new(list, json_string(rs));
      }
      if (!prev || json_integer_value(prev) < d) json_object_set_new(cases, key, json_integer(d));
      free(key);
    }
    json_decref(lines);
  }
  return -1;
}

/* What the records say of the cases entry g names: the greatest DID_* of
 * them, 0 for none; *passes is set when one of them passed. */
static int entry_did(const zo_known_gap *g, json_t *cases, json_t *byid, int *passes) {
  int most = 0;
  *passes = 0;
  size_t k;
  json_t *rs;
  json_array_foreach(json_object_get(byid, g->id), k, rs) {
    if (g->ruleset && strcmp(g->ruleset, json_string_value(rs))) continue;
    char *key = gap_key(g->id, json_string_value(rs));
    int d = (int)json_integer_value(json_object_get(cases, key));
    free(key);
    *passes |= d == DID_PASS;
    if (d > most) most = d;
  }
  return most;
}

/* The file's order: by id, then rule set, an entry for every rule set
 * after those for one (an earlier entry without ruleset would cover them). */
static int gap_cmp(const void *a, const void *b) {
  const zo_known_gap *x = a, *y = b;
  int c = strcmp(x->id, y->id);
  if (c) return c;
  if (!x->ruleset || !y->ruleset) return !x->ruleset - !y->ruleset;
  return strcmp(x->ruleset, y->ruleset);
}

/* s as a YAML double-quoted scalar: quotes, backslashes and the characters
 * YAML does not take as they are (controls, C1, U+FFFE/U+FFFF) escaped.
 * s is valid UTF-8. */
static void yaml_quoted(FILE *f, const char *s) {
  fputc('"', f);
  size_t n = strlen(s);
  for (size_t i = 0; i < n;) {
    unsigned cp;
    size_t len = yd_utf8_char((const unsigned char *)s + i, n - i, &cp);
    if (!len) len = 1, cp = 0xFFFD;
    if (cp == '"' || cp == '\\') fprintf(f, "\\%c", (char)cp);
    else if (cp == '\n') fputs("\\n", f);
    else if (cp == '\t') fputs("\\t", f);
    else if (cp < 0x20 || cp == 0x7F) fprintf(f, "\\x%02X", cp);
    else if ((cp >= 0x80 && cp <= 0x9F && cp != 0x85) || cp == 0xFFFE || cp == 0xFFFF) fprintf(f, "\\u%04X", cp);
    else fwrite(s + i, 1, len, f);
    i += len;
  }
  fputc('"', f);
}

/* The known-gaps file holding gaps (n, in order), into a new string
 * (malloc'd). */
static char *render(const zo_known_gap *gaps, int n) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (!f) zo_oom("writing the known gaps");
  fputs("# Known gaps: the cases the engine is known to fail, each with why.\n"
        "# Read by `zoneoracle gate --expect-failures FILE` (ci/protocol/known-gaps.schema.json);\n"
        "# written by `zoneoracle known-gaps --update FILE RUN.jsonl`, which keeps every\n"
        "# reason but no other comment.\n", f);
  if (!n) fputs("[]\n", f);
  for (int i = 0; i < n; i++) {
    fputs("- id: ", f);
    yaml_quoted(f, gaps[i].id);
    if (gaps[i].ruleset) {
      fputs("\n  ruleset: ", f);
      yaml_quoted(f, gaps[i].ruleset);
    }
    fputs("\n  reason: ", f);
    yaml_quoted(f, gaps[i].reason);
    fputc('\n', f);
  }
  if (fclose(f)) zo_oom("writing the known gaps");
  return text;
}

/* The refreshed list from old (kg) and the run records: kept, the entries
 * none of whose cases passed and some of whose are in the records; added,
 * every failing case no kept entry names, with the reason of the first
 * old entry naming it or todo_reason. Dropped and new entries are listed
 * on stderr. Returns the list (malloc'd, sorted; strings borrowed from kg
 * and byid) and its size in *n; *changes counts the entries dropped and
 * added. */
static zo_known_gap *refresh(const zo_cli_known_gaps *kg, json_t *cases, json_t *byid, int *n, int *changes) {
  int m = 0;
  zo_known_gap *out = zo_xcalloc((size_t)kg->n + json_object_size(cases) + 1, sizeof *out);
  char rs[300];
  *changes = 0;
  for (int i = 0; i < kg->n; i++) {
    const zo_known_gap *g = &kg->gaps[i];
    int passes, d = entry_did(g, cases, byid, &passes);
    if (d && !passes) {
      out[m++] = *g;
      continue;
    }
    (*changes)++;
    rs_label(g, rs, sizeof rs);
    fprintf(stderr, "%s:%d: %s%s: dropped, %s\n", kg->file, g->line, g->id, rs,
            d ? "it passes now" : "it names no case of the run");
  }
  int kept = m;
  const char *key;
  json_t *v;
  json_object_foreach(cases, key, v) {
    if (json_integer_value(v) != DID_FAIL) continue;
    const char *sep = strchr(key, '\x1f'); /* gap_key(id, rule set) */
    char *id = zo_cli_strf("%.*s", (int)(sep - key), key);
    int covered = 0;
    for (int k = 0; k < kept && !covered; k++) covered = names(&out[k], id, sep + 1);
    const char *reason = todo_reason;
    for (int k = 0; k < kg->n && reason == todo_reason && !covered; k++)
      if (names(&kg->gaps[k], id, sep + 1)) reason = kg->gaps[k].reason;
    /* the id as byid stores it, which outlives this */
    const char *idp = json_object_iter_key(json_object_iter_at(byid, id));
    free(id);
    if (!covered) out[m++] = (zo_known_gap){.id = idp, .ruleset = sep + 1, .reason = reason};
  }
  qsort(out, (size_t)m, sizeof *out, gap_cmp);
  for (int i = 0; i < m; i++)
    if (out[i].reason == todo_reason) {
      (*changes)++;
      fprintf(stderr, "%s: new: %s [%s], reason \"%s\": write why it fails\n", kg->file, out[i].id,
              out[i].ruleset, todo_reason);
    }
  *n = m;
  return out;
}

/* Whether path names nothing (to be created): 1; 0 when it exists. */
static int absent(const char *path) {
  struct stat st;
  return lstat(path, &st) && errno == ENOENT;
}

/* FILE written whole from text (or left alone when it holds it already).
 * 0, or 1 after a message on stderr. */
static int write_whole(const char *path, const char *text) {
  size_t cap = strlen(path) + 64;
  char *tmp = zo_xmalloc(cap);
  zo_error err = {0};
  FILE *f = zo_report_open(path, tmp, cap);
  int bad = 0;
  if (!f) {
    fprintf(stderr, "zoneoracle: %s: cannot create: %s\n", path, strerror(errno));
    bad = 1;
  } else {
    fputs(text, f);
    if (zo_report_commit(f, tmp, path, &err)) {
      fprintf(stderr, "zoneoracle: %s: %s\n", err.file, err.message);
      bad = 1;
    }
  }
  free(tmp);
  return bad;
}

/* zoneoracle known-gaps [--update] FILE [RUN.jsonl...]: FILE checked; with
 * run records compared with them (exit 1 when not up to date), with
 * --update rewritten from them. */
int zo_cli_cmd_known_gaps(const zo_cli_command *cmd, int argc, char **argv) {
  zo_cli_opts o;
  zo_cli_known_gaps kg = {0};
  json_t *cases = json_object(), *byid = json_object();
  char *old = NULL, *text = NULL;
  zo_known_gap *gaps = NULL;
  int rc = zo_cli_parse(cmd, argc, argv, &o);
  if (rc >= 0) goto out;
  int update = !!(o.given & ZO_OPT_UPDATE);
  const char *file = o.args[0];
  if (update && o.nargs < 2) {
    rc = zo_cli_usage_error(cmd, "--update needs the run record(s) to update %s from", file);
    goto out;
  }
  /* the inputs, all of them, before anything is written */
  int fresh = (update || o.nargs > 1) && absent(file);
  if (!fresh && (rc = zo_cli_known_gaps_load(file, &kg)) >= 0) goto out;
  kg.file = file;
  if ((rc = read_runs(o.args + 1, o.nargs - 1, cases, byid)) >= 0) goto out;
  if (o.nargs == 1) {
    printf("%s: %d known gap%s, valid\n", file, kg.n, kg.n == 1 ? "" : "s");
    rc = ZO_EXIT_PASS;
    goto out;
  }
  int n, changes, todo = 0;
  gaps = refresh(&kg, cases, byid, &n, &changes);
  for (int i = 0; i < n; i++) todo += !strcmp(gaps[i].reason, todo_reason);
  text = render(gaps, n);
  size_t size = 0;
  if (!fresh && !(old = zo_cli_read_file(file, 0, &size))) {
    rc = ZO_EXIT_USAGE;
    goto out;
  }
  int same = old && size == strlen(text) && !memcmp(old, text, size);
  if (same) printf("%s: up to date, %d known gap%s\n", file, n, n == 1 ? "" : "s");
  else if (!update) printf("%s: not up to date with the run: %d entr%s to drop or add%s (--update writes it)\n",
                           file, changes, changes == 1 ? "y" : "ies", changes ? "" : ", the rest in order");
  else if (write_whole(file, text)) {
    rc = ZO_EXIT_USAGE;
    goto out;
  } else printf("%s: written, %d known gap%s\n", file, n, n == 1 ? "" : "s");
  if (todo)
    printf("%s: %d entr%s with the reason \"%s\": write why each fails\n", file, todo, todo == 1 ? "y" : "ies",
           todo_reason);
  rc = same || update ? ZO_EXIT_PASS : ZO_EXIT_FAIL;
out:
  free(gaps);
  free(text);
  free(old);
  json_decref(cases);
  json_decref(byid);
  zo_cli_known_gaps_free(&kg);
  zo_cli_opts_free(&o);
  return rc;
}
