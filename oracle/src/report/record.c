/* record.c: the run record, JSON Lines (jansson), the source of truth
 * every report is rendered from: a header (run id, suite commit, rule
 * sets, engine and version), one line per case and rule set (status,
 * file:line, expected vs observed on failure, cited rules, rule hits), one
 * per invalid case file, a footer with the totals; reading it back; the
 * verdict of an empty run and the badge. Every string enters the record
 * through jstr (valid UTF-8, util.h), so none is refused and no line is
 * lost. */
#include "report_int.h"

#include "error.h"
#include "model.h"
#include "util.h"
#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- the run record ---------------------------------------------------- */

/* A JSON string of s made valid UTF-8 (NULL: ""); never NULL. */
static json_t *jstr(const char *s) {
  json_t *j;
  if (!s) s = "";
  size_t n = strlen(s);
  if (zo_utf8_valid_prefix(s, n) == n) {
    j = json_stringn(s, n);
  } else {
    char *clean = zo_utf8_sanitize(s);
    j = json_string(clean);
    free(clean);
  }
  if (!j) zo_oom("writing the run record");
  return j;
}

/* One record line; the object is consumed. */
static void put_line(FILE *f, json_t *obj) {
  if (!obj) zo_oom("writing the run record");
  char *s = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER);
  if (!s) zo_oom("writing the run record");
  fputs(s, f);
  fputc('\n', f);
  free(s);
  json_decref(obj);
}

/* Set key of o to the new value v (consumed). */
static void put(json_t *o, const char *key, json_t *v) {
  if (!v || json_object_set_new(o, key, v)) zo_oom("writing the run record");
}

/* Append the new value v (consumed) to the array a. */
static void add(json_t *a, json_t *v) {
  if (!v || json_array_append_new(a, v)) zo_oom("writing the run record");
}

/* A new JSON object / array (never NULL: zo_oom). */
static json_t *jobj(void) {
  json_t *o = json_object();
  if (!o) zo_oom("writing the run record");
  return o;
}

static json_t *jarr(void) {
  json_t *a = json_array();
  if (!a) zo_oom("writing the run record");
  return a;
}

/* The statuses of a baseline record's cases, "ID\x1fRULESET" -> status
 * (a new reference), or NULL with err filled when it is not a record. */
static json_t *baseline_statuses(const char *path, zo_error *err) {
  json_t *cases = zo_report_read_cases(path, err);
  if (!cases) return NULL;
  json_t *map = jobj();
  size_t i;
  json_t *c;
  char key[1024];
  json_array_foreach(cases, i, c) {
    snprintf(key, sizeof key, "%s\x1f%s", zo_record_str(c, "id"), zo_record_str(c, "ruleset"));
    put(map, key, jstr(zo_record_str(c, "status")));
  }
  json_decref(cases);
  return map;
}

zo_status zo_report_write_jsonl(const zo_run *run, const zo_run_header *h,
                                const char *path, zo_error *err) {
  json_t *was = NULL;
  if (h->baseline && !(was = baseline_statuses(h->baseline, err))) return err ? err->code : ZO_ERR_SCHEMA;
  size_t cap = strlen(path) + 64;
  char *tmp = zo_xmalloc(cap);
  FILE *f = zo_report_open(path, tmp, cap);
  if (!f) {
    free(tmp);
    json_decref(was);
    return zo_report_io_fail(err, path, "cannot create");
  }
  char when[32];
  time_t t = time(NULL);
  struct tm tmv;
  strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tmv));
  json_t *rs = jarr(), *details = jarr();
  for (int i = 0; i < h->nrulesets; i++) {
    add(rs, jstr(h->rulesets[i]));
    /* the rule set as run: its switches with citations, and its rules,
       so every report can be rendered from the record alone */
    const zo_ruleset *r = zo_ruleset_find(h->rulesets[i]);
    if (!r) continue;
    json_t *sw = jarr(), *rules = jarr();
    for (int s = 0; s < SW_COUNT; s++) {
      json_t *cites = jarr();
      for (int k = 0; k < r->sw[s].nrules; k++) add(cites, jstr(r->rules[r->sw[s].rules[k]].id));
      json_t *o = jobj();
      put(o, "switch", jstr(zo_switch_name((zo_switch)s)));
      put(o, "value", jstr(zo_switch_value_name(r->sw[s].value)));
      put(o, "rules", cites);
      add(sw, o);
    }
    for (int k = 0; k < r->nrules; k++) {
      json_t *o = jobj();
      put(o, "id", jstr(r->rules[k].id));
      put(o, "text", jstr(r->rules[k].text));
      put(o, "seed", json_boolean(r->rules[k].seed));
      if (r->rules[k].out_of_scope) put(o, "out_of_scope", jstr(r->rules[k].out_of_scope));
      if (r->rules[k].language_gap) put(o, "language_gap", jstr(r->rules[k].language_gap));
      add(rules, o);
    }
    json_t *o = jobj();
    put(o, "id", jstr(r->id));
    put(o, "title", jstr(r->title));
    put(o, "extends", r->extends ? jstr(r->extends) : json_null());
    put(o, "switches", sw);
    put(o, "rules", rules);
    add(details, o);
  }
  json_t *hd = jobj();
  put(hd, "type", jstr("header"));
  put(hd, "format", jstr("zoneoracle-run/1"));
  if (h->run_id) put(hd, "run_id", jstr(h->run_id));
  put(hd, "started", jstr(when));
  put(hd, "suite_commit", jstr(h->suite_commit));
  put(hd, "engine", jstr(h->engine));
  put(hd, "engine_version", jstr(h->engine_version));
  put(hd, "rulesets", rs);
  put(hd, "ruleset_details", details);
  put(hd, "seeds", jarr());
  if (h->zoneoracle_version) put(hd, "zoneoracle_version", jstr(h->zoneoracle_version));
  if (h->known_gaps) put(hd, "known_gaps", jstr(h->known_gaps));
  if (h->baseline) put(hd, "baseline", jstr(h->baseline));
  if (h->rerun) put(hd, "rerun", jstr(h->rerun));
  if (h->nundeclared) {
    json_t *un = jarr();
    for (int i = 0; i < h->nundeclared; i++) add(un, jstr(h->undeclared[i]));
    put(hd, "undeclared_rulesets", un);
  }
  put_line(f, hd);
  for (int i = 0; i < run->n; i++) {
    const zo_case_result *r = &run->results[i];
    json_t *o = jobj();
    put(o, "type", jstr("case"));
    put(o, "id", jstr(r->case_id));
    put(o, "ruleset", jstr(r->ruleset));
    put(o, "status", jstr(zo_result_status_name(r->status)));
    put(o, "title", jstr(r->title));
    put(o, "file", jstr(r->file));
    put(o, "ms", json_real(r->ms));
    json_t *rules = jarr();
    for (int k = 0; k < r->nrules; k++) add(rules, jstr(r->rules[k]));
    put(o, "rules", rules);
    json_t *hits = jobj();
    for (int k = 0; k < r->nhits; k++) {
      /* a key is a string too */
      char *key = zo_utf8_sanitize(r->hits[k].id);
      put(hits, key, json_integer(r->hits[k].count));
      free(key);
    }
    put(o, "rule_hits", hits);
    if (r->status != RS_PASS) {
      put(o, "line", json_integer(r->line));
      put(o, "step", json_integer(r->step));
      if (r->what) put(o, "what", jstr(r->what));
      if (r->expected) put(o, "expected", jstr(r->expected));
      if (r->observed) put(o, "observed", jstr(r->observed));
      if (r->message) put(o, "message", jstr(r->message));
      if (r->stderr_text && *r->stderr_text) put(o, "stderr", jstr(r->stderr_text));
    }
    if (r->reason && (r->status == RS_XFAIL || r->status == RS_XPASS)) put(o, "reason", jstr(r->reason));
    if (was) { /* --baseline: the case's status there, when it had the case */
      char key[1024];
      snprintf(key, sizeof key, "%s\x1f%s", r->case_id, r->ruleset);
      json_t *st = json_object_get(was, key);
      if (st) put(o, "was", json_incref(st));
    }
    put_line(f, o);
  }
  for (int i = 0; i < run->ninvalid; i++) {
    json_t *o = jobj();
    put(o, "type", jstr("invalid"));
    put(o, "file", jstr(run->invalid[i].file));
    put(o, "message", jstr(run->invalid[i].message));
    put_line(f, o);
  }
  for (int i = 0; h->known_gaps && i < h->nunknown_gaps; i++) { /* stale: naming no case */
    const zo_known_gap *g = &h->unknown_gaps[i];
    json_t *o = jobj();
    put(o, "type", jstr("unknown_gap"));
    put(o, "id", jstr(g->id));
    if (g->ruleset) put(o, "ruleset", jstr(g->ruleset));
    put(o, "reason", jstr(g->reason));
    put(o, "file", jstr(h->known_gaps));
    put(o, "line", json_integer(g->line));
    put_line(f, o);
  }
  json_t *ft = jobj();
  put(ft, "type", jstr("footer"));
  if (h->run_id) put(ft, "run_id", jstr(h->run_id));
  put(ft, "passed", json_integer(run->passed));
  put(ft, "failed", json_integer(run->failed));
  put(ft, "errors", json_integer(run->errors));
  put(ft, "skipped", json_integer(run->skipped));
  put(ft, "xfailed", json_integer(run->xfailed));
  put(ft, "xpassed", json_integer(run->xpassed));
  put(ft, "invalid", json_integer(run->ninvalid));
  if (run->not_run) put(ft, "not_run", json_integer(run->not_run)); /* --max-fail stopped it */
  if (h->known_gaps) put(ft, "unknown_gaps", json_integer(h->nunknown_gaps));
  put(ft, "ms", json_real(run->ms));
  put_line(f, ft);
  json_decref(was);
  zo_status st = zo_report_commit(f, tmp, path, err);
  free(tmp);
  return st;
}

/* ---- reading the record back ---------------------------------------- */


/* Drop what rec holds and fill err: "not a run record: why" at line ln of
 * path. Returns ZO_ERR_SCHEMA. */
static zo_status not_a_record(zo_record *rec, zo_error *err, const char *path, int ln,
                              const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static zo_status not_a_record(zo_record *rec, zo_error *err, const char *path, int ln,
                              const char *fmt, ...) {
  char why[400];
  va_list ap;
  va_start(ap, fmt);
  zo_vsnprintf_utf8(why, sizeof why, fmt, ap);
  va_end(ap);
  zo_record_free(rec);
  memset(rec, 0, sizeof *rec);
  return zo_error_set(err, ZO_ERR_SCHEMA, path, ln, 0, "not a run record: %s", why);
}

/* Why line ln's object o, of the given type, cannot stand where it is in
 * rec, into why (cap bytes); 0 when it can. The header comes first and
 * once, with format zoneoracle-run/1; nothing follows the footer; a case
 * names its id, rule set and status. */
static int misplaced(const zo_record *rec, json_t *o, const char *type, int ln, char *why, size_t cap) {
  int header = !strcmp(type, "header");
  const char *format = zo_record_str(o, "format");
  if (ln == 1 && !header)
    zo_snprintf_utf8(why, cap, "the first line is a '%s' line, not the header", type);
  else if (ln > 1 && header) zo_snprintf_utf8(why, cap, "a second header line");
  else if (rec->footer) zo_snprintf_utf8(why, cap, "a '%s' line after the footer", type);
  else if (header && strcmp(format, "zoneoracle-run/1"))
    zo_snprintf_utf8(why, cap, "the header's format is '%s', not zoneoracle-run/1", format);
  else if (!strcmp(type, "case") && (!json_is_string(json_object_get(o, "id")) ||
                                     !json_is_string(json_object_get(o, "ruleset")) ||
                                     !json_is_string(json_object_get(o, "status"))))
    zo_snprintf_utf8(why, cap, "a case line without its id, ruleset and status strings");
  else return 0;
  return 1;
}

zo_status zo_record_read(const char *path, zo_record *rec, zo_error *err) {
  memset(rec, 0, sizeof *rec);
  FILE *f = fopen(path, "r");
  if (!f) return zo_report_io_fail(err, path, "cannot open");
  rec->cases = jarr();
  rec->invalid = jarr();
  rec->unknown_gaps = jarr();
  char *line = NULL;
  size_t cap = 0;
  int ln = 0;
  zo_status st = ZO_OK;
  while (!st && getline(&line, &cap, f) > 0) {
    ln++;
    json_error_t je;
    json_t *o = json_loads(line, 0, &je);
    const char *type = json_string_value(json_object_get(o, "type"));
    char why[300];
    if (!o) st = not_a_record(rec, err, path, ln, "a line that is not JSON (%s)", je.text);
    else if (!json_is_object(o)) st = not_a_record(rec, err, path, ln, "a line that is not a JSON object");
    else if (!type) st = not_a_record(rec, err, path, ln, "a line without a \"type\"");
    else if (misplaced(rec, o, type, ln, why, sizeof why)) st = not_a_record(rec, err, path, ln, "%s", why);
    else if (!strcmp(type, "header")) rec->header = json_incref(o);
    else if (!strcmp(type, "footer")) rec->footer = json_incref(o);
    else if (!strcmp(type, "case")) add(rec->cases, json_incref(o));
    else if (!strcmp(type, "invalid")) add(rec->invalid, json_incref(o));
    else if (!strcmp(type, "unknown_gap")) add(rec->unknown_gaps, json_incref(o));
    else st = not_a_record(rec, err, path, ln, "a line of unknown type '%s'", type);
    json_decref(o);
  }
  free(line);
  int read_bad = ferror(f);
  fclose(f);
  if (st) return st;
  if (read_bad) {
    zo_record_free(rec);
    memset(rec, 0, sizeof *rec);
    return zo_report_io_fail(err, path, "read error");
  }
  if (!ln) return not_a_record(rec, err, path, 1, "the file is empty");
  if (!rec->footer) return not_a_record(rec, err, path, ln, "no footer line (the record is cut short)");
  return ZO_OK;
}

json_t *zo_report_read_cases(const char *jsonl, zo_error *err) {
  zo_record rec;
  if (zo_record_read(jsonl, &rec, err)) return NULL;
  json_t *cases = json_incref(rec.cases);
  zo_record_free(&rec);
  return cases;
}

void zo_record_free(zo_record *rec) {
  json_decref(rec->header);
  json_decref(rec->footer);
  json_decref(rec->cases);
  json_decref(rec->invalid);
  json_decref(rec->unknown_gaps);
}

/* ---- a report from the record, whole or not at all ------------------ */

/* Write one report of rec at path through body, whole or not at all. */
zo_status zo_report_render_rec(zo_record *rec, const char *path, zo_error *err,
                           void (*body)(FILE *f, zo_record *rec)) {
  size_t cap = strlen(path) + 64;
  char *tmp = zo_xmalloc(cap);
  FILE *f = zo_report_open(path, tmp, cap);
  if (!f) {
    free(tmp);
    return zo_report_io_fail(err, path, "cannot create");
  }
  body(f, rec);
  zo_status st = zo_report_commit(f, tmp, path, err);
  free(tmp);
  return st;
}

zo_status zo_report_render(const char *jsonl, const char *path, zo_error *err,
                           void (*body)(FILE *f, zo_record *rec)) {
  zo_record rec;
  zo_status st = zo_record_read(jsonl, &rec, err);
  if (st) return st;
  st = zo_report_render_rec(&rec, path, err, body);
  zo_record_free(&rec);
  return st;
}

/* ---- verdicts ------------------------------------------------------ */

int zo_run_empty(const zo_run *run, char *why, size_t cap) {
  if (run->passed || run->failed || run->errors || run->xpassed) return 0;
  if (!run->n) {
    zo_snprintf_utf8(why, cap, "no case ran: no case file matched (check the PATHs, --filter and --ruleset)");
    return 1;
  }
  if (run->xfailed) {
    zo_snprintf_utf8(why, cap, "no case passed: %d skipped, %d known gap%s (--expect-failures)", run->skipped,
                     run->xfailed, run->xfailed == 1 ? "" : "s");
    return 1;
  }
  /* the skips' reasons, most frequent first (at most three named) */
  enum { MAXR = 64 };
  const char *reason[MAXR];
  int count[MAXR], nr = 0, other = 0;
  for (int i = 0; i < run->n; i++) {
    const char *m = run->results[i].message ? run->results[i].message : "no reason given";
    int k = 0;
    while (k < nr && strcmp(reason[k], m)) k++;
    if (k < nr) count[k]++;
    else if (nr < MAXR) {
      reason[nr] = m;
      count[nr++] = 1;
    } else other++;
  }
  char list[600] = "";
  size_t used = 0;
  for (int shown = 0; shown < 3 && shown < nr; shown++) {
    int best = shown;
    for (int k = shown + 1; k < nr; k++)
      if (count[k] > count[best]) best = k;
    const char *r = reason[best];
    int c = count[best];
    reason[best] = reason[shown];
    count[best] = count[shown];
    reason[shown] = r;
    count[shown] = c;
    char one[160];
    if (!strncmp(r, "skipped: ", 9)) r += 9;
    zo_utf8_copy(one, sizeof one, r); /* cut on a character boundary */
    int w = zo_snprintf_utf8(list + used, sizeof list - used, "%s%s: %d", shown ? "; " : "", one, c);
    if (w < 0 || (size_t)w >= sizeof list - used) break;
    used += (size_t)w;
  }
  for (int k = 3; k < nr; k++) other += count[k];
  if (other && used < sizeof list) zo_snprintf_utf8(list + used, sizeof list - used, "; other reasons: %d", other);
  zo_snprintf_utf8(why, cap, "no case ran: %d skipped (%s)", run->skipped, list);
  return 1;
}

/* A badge's counts (zo_report_write_badge). undeclared: the skips under
 * rule sets the engine does not declare (nrs of them), named apart. */
typedef struct {
  long long passed, failing, xfailed, skipped, invalid, undeclared;
  int nrs, protocol_invalid;
} badge_counts;

static zo_status write_badge(const badge_counts *b, const char *path, zo_error *err) {
  long long failing = b->failing, skipped = b->skipped - b->undeclared;
  char msg[256] = "";
  size_t used = 0;
  /* appends one part, " · " between parts */
#define PART(...)                                                                            \
  do {                                                                                       \
    if (used < sizeof msg && used) used += (size_t)snprintf(msg + used, sizeof msg - used, " \xC2\xB7 "); \
    if (used < sizeof msg) used += (size_t)snprintf(msg + used, sizeof msg - used, __VA_ARGS__); \
  } while (0)
  if (!b->passed && !failing && !b->xfailed) {
    PART("0 run");
  } else {
    PART("%lld passed", b->passed);
    if (b->xfailed) PART("%lld known gap%s", b->xfailed, b->xfailed == 1 ? "" : "s");
    if (failing) PART("%lld failing", failing);
  }
  if (skipped) PART("%lld skipped", skipped);
  if (b->undeclared)
    PART("%lld cases under %d undeclared rule set%s", b->undeclared, b->nrs, b->nrs == 1 ? "" : "s");
  if (b->invalid) PART("%lld invalid case file%s", b->invalid, b->invalid == 1 ? "" : "s");
  if (b->protocol_invalid > 0)
    PART("%d invalid protocol message%s", b->protocol_invalid, b->protocol_invalid == 1 ? "" : "s");
#undef PART
  const char *color = failing || b->invalid || b->protocol_invalid > 0 ? "red"
                      : b->passed                                      ? "brightgreen"
                                                                       : "lightgrey";
  json_t *badge = jobj();
  put(badge, "schemaVersion", json_integer(1));
  put(badge, "label", jstr("zone rules"));
  put(badge, "message", jstr(msg));
  put(badge, "color", jstr(color));
  size_t cap = strlen(path) + 64;
  char *tmp = zo_xmalloc(cap);
  FILE *f = zo_report_open(path, tmp, cap);
  zo_status st;
  if (!f) {
    st = zo_report_io_fail(err, path, "cannot create");
  } else {
    json_dumpf(badge, f, JSON_COMPACT | JSON_PRESERVE_ORDER);
    fputc('\n', f);
    st = zo_report_commit(f, tmp, path, err);
  }
  json_decref(badge);
  free(tmp);
  return st;
}


zo_status zo_report_write_badge(const zo_run *run, int protocol_invalid, const char *path,
                                zo_error *err) {
  badge_counts b = {.passed = run->passed, .failing = run->failed + run->errors + run->xpassed,
                    .xfailed = run->xfailed, .skipped = run->skipped, .invalid = run->ninvalid,
                    .protocol_invalid = protocol_invalid};
  return write_badge(&b, path, err);
}

zo_status zo_report_render_badge(const char *jsonl, int protocol_invalid, const char *path,
                                 zo_error *err) {
  zo_record rec;
  zo_status st = zo_record_read(jsonl, &rec, err);
  if (st) return st;
  zo_digest d;
  zo_digest_make(&rec, &d);
  badge_counts b = {.passed = d.passed, .failing = d.failed + d.errors + d.xpassed, .xfailed = d.xfailed,
                    .skipped = d.skipped, .invalid = (long long)d.invalid, .undeclared = d.undeclared,
                    .nrs = d.undeclared_rs, .protocol_invalid = protocol_invalid};
  st = write_badge(&b, path, err);
  zo_digest_free(&d);
  zo_record_free(&rec);
  return st;
}
