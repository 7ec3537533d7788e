/* report.c: the run record and the reports rendered from it.
 *
 * The JSON Lines record (jansson) is the source of truth: a header (suite
 * commit, rule sets, engine and version), one line per case and rule set
 * (status, file:line, expected vs observed on failure, cited rules, rule
 * hits), a footer with the totals. JUnit XML (what CI systems read) and a
 * Markdown summary (a CI step summary) are rendered by reading that record
 * back, so they can never disagree with it. Files are written to a
 * temporary name and renamed: a report is whole or absent.
 */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static zo_status io_fail(zo_error *err, const char *path, const char *what) {
  if (err) {
    err->code = ZO_ERR_IO;
    snprintf(err->file, sizeof err->file, "%s", path);
    err->line = err->column = 0;
    snprintf(err->message, sizeof err->message, "%s: %s", what, strerror(errno));
  }
  return ZO_ERR_IO;
}

/* Open path.tmp.PID for writing; commit with finish(). */
static FILE *start(const char *path, char *tmp, size_t cap) {
  snprintf(tmp, cap, "%s.tmp.%ld", path, (long)getpid());
  return fopen(tmp, "w");
}

static zo_status finish(FILE *f, const char *tmp, const char *path, zo_error *err) {
  int bad = ferror(f);
  if (fclose(f) || bad) {
    remove(tmp);
    return io_fail(err, path, "write failed");
  }
  if (rename(tmp, path)) {
    remove(tmp);
    return io_fail(err, path, "rename failed");
  }
  return ZO_OK;
}

static void put_line(FILE *f, json_t *obj) {
  char *s = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER);
  if (s) {
    fputs(s, f);
    fputc('\n', f);
    free(s);
  }
  json_decref(obj);
}

zo_status zo_report_write_jsonl(const zo_run *run, const zo_run_header *h,
                                const char *path, zo_error *err) {
  char tmp[4200];
  FILE *f = start(path, tmp, sizeof tmp);
  if (!f) return io_fail(err, path, "cannot create");
  char when[32];
  time_t t = time(NULL);
  strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
  json_t *rs = json_array();
  for (int i = 0; i < h->nrulesets; i++) json_array_append_new(rs, json_string(h->rulesets[i]));
  put_line(f, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:[]}", "type", "header",
                        "format", "zoneoracle-run/1", "started", when, "suite_commit",
                        h->suite_commit, "engine", h->engine, "engine_version",
                        h->engine_version, "rulesets", rs, "seeds"));
  for (int i = 0; i < run->n; i++) {
    const zo_case_result *r = &run->results[i];
    json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:f}", "type", "case", "id",
                          r->case_id, "ruleset", r->ruleset, "status",
                          zo_result_status_name(r->status), "title", r->title, "file",
                          r->file, "ms", r->ms);
    json_t *rules = json_array();
    for (int k = 0; k < r->nrules; k++) json_array_append_new(rules, json_string(r->rules[k]));
    json_object_set_new(o, "rules", rules);
    json_t *hits = json_object();
    for (int k = 0; k < r->nhits; k++) json_object_set_new(hits, r->hits[k].id, json_integer(r->hits[k].count));
    json_object_set_new(o, "rule_hits", hits);
    if (r->status != RS_PASS) {
      json_object_set_new(o, "line", json_integer(r->line));
      json_object_set_new(o, "step", json_integer(r->step));
      if (r->what) json_object_set_new(o, "what", json_string(r->what));
      if (r->expected) json_object_set_new(o, "expected", json_string(r->expected));
      if (r->observed) json_object_set_new(o, "observed", json_string(r->observed));
      if (r->message) json_object_set_new(o, "message", json_string(r->message));
    }
    put_line(f, o);
  }
  for (int i = 0; i < run->ninvalid; i++)
    put_line(f, json_pack("{s:s, s:s, s:s}", "type", "invalid", "file", run->invalid[i].file,
                          "message", run->invalid[i].message));
  put_line(f, json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:f}", "type", "footer", "passed",
                        run->passed, "failed", run->failed, "errors", run->errors, "skipped",
                        run->skipped, "invalid", run->ninvalid, "ms", run->ms));
  return finish(f, tmp, path, err);
}

/* ---- reading the record back ---------------------------------------- */

typedef struct {
  json_t *header, *footer;
  json_t *cases;   /* array of case objects */
  json_t *invalid; /* array */
} record;

static zo_status read_record(const char *path, record *rec, zo_error *err) {
  memset(rec, 0, sizeof *rec);
  FILE *f = fopen(path, "r");
  if (!f) return io_fail(err, path, "cannot open");
  rec->cases = json_array();
  rec->invalid = json_array();
  char *line = NULL;
  size_t cap = 0;
  int ln = 0;
  while (getline(&line, &cap, f) > 0) {
    ln++;
    json_error_t je;
    json_t *o = json_loads(line, 0, &je);
    const char *type = o ? json_string_value(json_object_get(o, "type")) : NULL;
    if (!type) {
      if (err) {
        err->code = ZO_ERR_IO;
        snprintf(err->file, sizeof err->file, "%s", path);
        err->line = ln;
        err->column = o ? 1 : je.column;
        snprintf(err->message, sizeof err->message, "not a run record line: %s",
                 o ? "no type" : je.text);
      }
      json_decref(o);
      free(line);
      fclose(f);
      json_decref(rec->cases);
      json_decref(rec->invalid);
      json_decref(rec->header);
      json_decref(rec->footer);
      return ZO_ERR_IO;
    }
    if (!strcmp(type, "header")) rec->header = o;
    else if (!strcmp(type, "footer")) rec->footer = o;
    else if (!strcmp(type, "case")) json_array_append_new(rec->cases, o);
    else if (!strcmp(type, "invalid")) json_array_append_new(rec->invalid, o);
    else json_decref(o);
  }
  free(line);
  fclose(f);
  if (!rec->header) rec->header = json_object();
  if (!rec->footer) rec->footer = json_object();
  return ZO_OK;
}

static void free_record(record *rec) {
  json_decref(rec->header);
  json_decref(rec->footer);
  json_decref(rec->cases);
  json_decref(rec->invalid);
}

static const char *S(json_t *o, const char *k) {
  const char *s = json_string_value(json_object_get(o, k));
  return s ? s : "";
}

static void xml_text(FILE *f, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '&': fputs("&amp;", f); break;
    case '"': fputs("&quot;", f); break;
    default:
      if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t') fputc(*s, f);
    }
  }
}

zo_status zo_report_render_junit(const char *jsonl, const char *path, zo_error *err) {
  record rec;
  zo_status st = read_record(jsonl, &rec, err);
  if (st) return st;
  char tmp[4200];
  FILE *f = start(path, tmp, sizeof tmp);
  if (!f) {
    free_record(&rec);
    return io_fail(err, path, "cannot create");
  }
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"zoneoracle\">\n", f);
  /* one testsuite per rule set, in first-seen order */
  json_t *seen = json_array();
  size_t i;
  json_t *c;
  json_array_foreach(rec.cases, i, c) {
    const char *rs = S(c, "ruleset");
    int dup = 0;
    size_t j;
    json_t *x;
    json_array_foreach(seen, j, x) dup |= !strcmp(json_string_value(x), rs);
    if (!dup) json_array_append_new(seen, json_string(rs));
  }
  json_t *rsname;
  json_array_foreach(seen, i, rsname) {
    const char *rs = json_string_value(rsname);
    int tests = 0, fail = 0, errs = 0, skip = 0;
    double secs = 0;
    size_t j;
    json_array_foreach(rec.cases, j, c) {
      if (strcmp(S(c, "ruleset"), rs)) continue;
      tests++;
      secs += json_real_value(json_object_get(c, "ms")) / 1000.0;
      const char *s = S(c, "status");
      fail += !strcmp(s, "fail");
      errs += !strcmp(s, "error");
      skip += !strcmp(s, "skip");
    }
    fprintf(f, "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\">\n",
            rs, tests, fail, errs, skip, secs);
    json_array_foreach(rec.cases, j, c) {
      if (strcmp(S(c, "ruleset"), rs)) continue;
      fputs("    <testcase classname=\"", f);
      xml_text(f, rs);
      fputs("\" name=\"", f);
      xml_text(f, S(c, "id"));
      fprintf(f, "\" file=\"");
      xml_text(f, S(c, "file"));
      fprintf(f, "\" time=\"%.4f\"", json_real_value(json_object_get(c, "ms")) / 1000.0);
      const char *s = S(c, "status");
      if (!strcmp(s, "pass")) {
        fputs("/>\n", f);
        continue;
      }
      fputs(">\n", f);
      const char *tag = !strcmp(s, "fail") ? "failure" : !strcmp(s, "error") ? "error" : "skipped";
      fprintf(f, "      <%s message=\"", tag);
      xml_text(f, S(c, "message"));
      fputs("\">", f);
      if (json_object_get(c, "expected")) {
        fputs("expected: ", f);
        xml_text(f, S(c, "expected"));
        fputs("\nobserved: ", f);
        xml_text(f, S(c, "observed"));
      }
      fprintf(f, "</%s>\n    </testcase>\n", tag);
    }
    fputs("  </testsuite>\n", f);
  }
  json_t *inv;
  if (json_array_size(rec.invalid)) {
    fprintf(f, "  <testsuite name=\"case files\" tests=\"%zu\" failures=\"0\" errors=\"%zu\">\n",
            json_array_size(rec.invalid), json_array_size(rec.invalid));
    json_array_foreach(rec.invalid, i, inv) {
      fputs("    <testcase classname=\"case files\" name=\"", f);
      xml_text(f, S(inv, "file"));
      fputs("\">\n      <error message=\"invalid case file\">", f);
      xml_text(f, S(inv, "message"));
      fputs("</error>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n", f);
  }
  fputs("</testsuites>\n", f);
  json_decref(seen);
  free_record(&rec);
  return finish(f, tmp, path, err);
}

zo_status zo_report_render_markdown(const char *jsonl, const char *path, zo_error *err) {
  record rec;
  zo_status st = read_record(jsonl, &rec, err);
  if (st) return st;
  char tmp[4200];
  FILE *f = start(path, tmp, sizeof tmp);
  if (!f) {
    free_record(&rec);
    return io_fail(err, path, "cannot create");
  }
  json_t *ft = rec.footer;
  long long passed = json_integer_value(json_object_get(ft, "passed"));
  long long failed = json_integer_value(json_object_get(ft, "failed"));
  long long errors = json_integer_value(json_object_get(ft, "errors"));
  long long skipped = json_integer_value(json_object_get(ft, "skipped"));
  fprintf(f, "# zoneoracle conformance run\n\n");
  fprintf(f, "Engine **%s %s**, suite commit `%s`, started %s.\n\n", S(rec.header, "engine"),
          S(rec.header, "engine_version"), S(rec.header, "suite_commit"), S(rec.header, "started"));
  fprintf(f, "| passed | failed | errors | skipped | invalid case files |\n| ---: | ---: | ---: | ---: | ---: |\n");
  fprintf(f, "| %lld | %lld | %lld | %lld | %zu |\n\n", passed, failed, errors, skipped,
          json_array_size(rec.invalid));
  /* per rule set: cases and the rules the engine applied */
  fprintf(f, "## By rule set\n\n| rule set | cases | passed | not passed | distinct rules applied |\n| --- | ---: | ---: | ---: | ---: |\n");
  json_t *rsl = json_object_get(rec.header, "rulesets");
  size_t i, j;
  json_t *rsn, *c;
  json_array_foreach(rsl, i, rsn) {
    const char *rs = json_string_value(rsn);
    int n = 0, pass = 0;
    json_t *rules = json_object();
    json_array_foreach(rec.cases, j, c) {
      if (strcmp(S(c, "ruleset"), rs)) continue;
      n++;
      pass += !strcmp(S(c, "status"), "pass");
      const char *k;
      json_t *v;
      json_object_foreach(json_object_get(c, "rule_hits"), k, v) json_object_set_new(rules, k, json_true());
    }
    if (n) fprintf(f, "| %s | %d | %d | %d | %zu |\n", rs, n, pass, n - pass, json_object_size(rules));
    json_decref(rules);
  }
  int header = 0;
  json_array_foreach(rec.cases, i, c) {
    if (!strcmp(S(c, "status"), "pass")) continue;
    if (!header) {
      fprintf(f, "\n## Not passed\n\n| case | rule set | status | where | expected | observed |\n| --- | --- | --- | --- | --- | --- |\n");
      header = 1;
    }
    fprintf(f, "| `%s` | %s | %s | %s:%lld | %s | %s |\n", S(c, "id"), S(c, "ruleset"),
            S(c, "status"), S(c, "file"), json_integer_value(json_object_get(c, "line")),
            S(c, "expected"), S(c, "observed"));
  }
  if (json_array_size(rec.invalid)) {
    fprintf(f, "\n## Invalid case files\n\n");
    json_t *inv;
    json_array_foreach(rec.invalid, i, inv) fprintf(f, "```\n%s\n```\n", S(inv, "message"));
  }
  free_record(&rec);
  return finish(f, tmp, path, err);
}
