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

#include "model.h"

#include <ctype.h>
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

FILE *zo_report_open(const char *path, char *tmp, size_t cap) {
  snprintf(tmp, cap, "%s.tmp.%ld", path, (long)getpid());
  return fopen(tmp, "w");
}

zo_status zo_report_commit(FILE *f, const char *tmp, const char *path, zo_error *err) {
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
  FILE *f = zo_report_open(path, tmp, sizeof tmp);
  if (!f) return io_fail(err, path, "cannot create");
  char when[32];
  time_t t = time(NULL);
  strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
  json_t *rs = json_array(), *details = json_array();
  for (int i = 0; i < h->nrulesets; i++) {
    json_array_append_new(rs, json_string(h->rulesets[i]));
    /* the rule set as run: its switches with citations, and its rules,
       so every report can be rendered from the record alone */
    const zo_ruleset *r = zo_ruleset_find(h->rulesets[i]);
    if (!r) continue;
    json_t *sw = json_array(), *rules = json_array();
    for (int s = 0; s < SW_COUNT; s++) {
      json_t *cites = json_array();
      for (int k = 0; k < r->sw[s].nrules; k++)
        json_array_append_new(cites, json_string(r->rules[r->sw[s].rules[k]].id));
      json_array_append_new(sw, json_pack("{s:s, s:s, s:o}", "switch", zo_switch_name((zo_switch)s),
                                          "value", zo_switch_value_name(r->sw[s].value), "rules", cites));
    }
    for (int k = 0; k < r->nrules; k++)
      json_array_append_new(rules, json_pack("{s:s, s:s, s:b}", "id", r->rules[k].id, "text",
                                             r->rules[k].text, "seed", r->rules[k].seed));
    json_array_append_new(details, json_pack("{s:s, s:s, s:s?, s:o, s:o}", "id", r->id, "title",
                                             r->title, "extends", r->extends, "switches", sw,
                                             "rules", rules));
  }
  put_line(f, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:[], s:s*}", "type", "header",
                        "format", "zoneoracle-run/1", "started", when, "suite_commit",
                        h->suite_commit, "engine", h->engine, "engine_version",
                        h->engine_version, "rulesets", rs, "ruleset_details", details,
                        "seeds", "zoneoracle_version", h->zoneoracle_version));
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
  return zo_report_commit(f, tmp, path, err);
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

json_t *zo_report_read_cases(const char *jsonl, zo_error *err) {
  record rec;
  if (read_record(jsonl, &rec, err)) return NULL;
  json_t *cases = json_incref(rec.cases);
  json_decref(rec.header);
  json_decref(rec.footer);
  json_decref(rec.cases);
  json_decref(rec.invalid);
  return cases;
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

/* Read the record, write one report from it through `body`, whole or not
 * at all. */
static zo_status render(const char *jsonl, const char *path, zo_error *err,
                        void (*body)(FILE *f, record *rec)) {
  record rec;
  zo_status st = read_record(jsonl, &rec, err);
  if (st) return st;
  char tmp[4200];
  FILE *f = zo_report_open(path, tmp, sizeof tmp);
  if (!f) {
    free_record(&rec);
    return io_fail(err, path, "cannot create");
  }
  body(f, &rec);
  free_record(&rec);
  return zo_report_commit(f, tmp, path, err);
}

static void junit_body(FILE *f, record *rec) {
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"zoneoracle\">\n", f);
  /* one testsuite per rule set, in first-seen order */
  json_t *seen = json_array();
  size_t i;
  json_t *c;
  json_array_foreach(rec->cases, i, c) {
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
    json_array_foreach(rec->cases, j, c) {
      if (strcmp(S(c, "ruleset"), rs)) continue;
      tests++;
      secs += json_real_value(json_object_get(c, "ms")) / 1000.0;
      const char *s = S(c, "status");
      fail += !strcmp(s, "fail") || !strcmp(s, "xpass");
      errs += !strcmp(s, "error") || !strcmp(s, "crash") || !strcmp(s, "timeout");
      skip += !strcmp(s, "skip") || !strcmp(s, "xfail");
    }
    fprintf(f, "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\">\n",
            rs, tests, fail, errs, skip, secs);
    json_array_foreach(rec->cases, j, c) {
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
      const char *tag = !strcmp(s, "fail") || !strcmp(s, "xpass") ? "failure"
                        : !strcmp(s, "skip") || !strcmp(s, "xfail")  ? "skipped"
                                                                      : "error";
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
  if (json_array_size(rec->invalid)) {
    fprintf(f, "  <testsuite name=\"case files\" tests=\"%zu\" failures=\"0\" errors=\"%zu\">\n",
            json_array_size(rec->invalid), json_array_size(rec->invalid));
    json_array_foreach(rec->invalid, i, inv) {
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
}

zo_status zo_report_render_junit(const char *jsonl, const char *path, zo_error *err) {
  return render(jsonl, path, err, junit_body);
}

static void markdown_body(FILE *f, record *rec) {
  json_t *ft = rec->footer;
  long long passed = json_integer_value(json_object_get(ft, "passed"));
  long long failed = json_integer_value(json_object_get(ft, "failed"));
  long long errors = json_integer_value(json_object_get(ft, "errors"));
  long long skipped = json_integer_value(json_object_get(ft, "skipped"));
  fprintf(f, "# zoneoracle conformance run\n\n");
  fprintf(f, "Engine **%s %s**, suite commit `%s`, started %s.\n\n", S(rec->header, "engine"),
          S(rec->header, "engine_version"), S(rec->header, "suite_commit"), S(rec->header, "started"));
  fprintf(f, "| passed | failed | errors | skipped | invalid case files |\n| ---: | ---: | ---: | ---: | ---: |\n");
  fprintf(f, "| %lld | %lld | %lld | %lld | %zu |\n\n", passed, failed, errors, skipped,
          json_array_size(rec->invalid));
  /* per rule set: cases and the rules the engine applied */
  fprintf(f, "## By rule set\n\n| rule set | cases | passed | not passed | distinct rules applied |\n| --- | ---: | ---: | ---: | ---: |\n");
  json_t *rsl = json_object_get(rec->header, "rulesets");
  size_t i, j;
  json_t *rsn, *c;
  json_array_foreach(rsl, i, rsn) {
    const char *rs = json_string_value(rsn);
    int n = 0, pass = 0;
    json_t *rules = json_object();
    json_array_foreach(rec->cases, j, c) {
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
  json_array_foreach(rec->cases, i, c) {
    if (!strcmp(S(c, "status"), "pass")) continue;
    if (!header) {
      fprintf(f, "\n## Not passed\n\n| case | rule set | status | where | expected | observed |\n| --- | --- | --- | --- | --- | --- |\n");
      header = 1;
    }
    fprintf(f, "| `%s` | %s | %s | %s:%lld | %s | %s |\n", S(c, "id"), S(c, "ruleset"),
            S(c, "status"), S(c, "file"), json_integer_value(json_object_get(c, "line")),
            S(c, "expected"), S(c, "observed"));
  }
  if (json_array_size(rec->invalid)) {
    fprintf(f, "\n## Invalid case files\n\n");
    json_t *inv;
    json_array_foreach(rec->invalid, i, inv) fprintf(f, "```\n%s\n```\n", S(inv, "message"));
  }
}

zo_status zo_report_render_markdown(const char *jsonl, const char *path, zo_error *err) {
  return render(jsonl, path, err, markdown_body);
}

/* ---- HTML: the conformance matrix --------------------------------- */

/* Status of the cases of one rule set citing one rule: the worst wins. */
static const char *cell_status(json_t *cases, const char *ruleset, const char *rule, int *n) {
  int fail = 0, pass = 0, skip = 0;
  size_t i;
  json_t *c;
  *n = 0;
  json_array_foreach(cases, i, c) {
    if (strcmp(S(c, "ruleset"), ruleset)) continue;
    size_t j;
    json_t *r;
    int cites = 0;
    json_array_foreach(json_object_get(c, "rules"), j, r) cites |= !strcmp(json_string_value(r), rule);
    if (!cites) continue;
    (*n)++;
    const char *s = S(c, "status");
    if (!strcmp(s, "pass")) pass++;
    else if (!strcmp(s, "skip")) skip++;
    else fail++;
  }
  if (fail) return "fail";
  if (pass) return "pass";
  if (skip) return "skip";
  return "none";
}

static void html_id(FILE *f, const char *ruleset, const char *id) {
  fputs("c-", f);
  for (const char *s = ruleset; *s; s++) fputc(isalnum((unsigned char)*s) ? *s : '-', f);
  fputc('-', f);
  for (const char *s = id; *s; s++) fputc(isalnum((unsigned char)*s) ? *s : '-', f);
}

static void html_body(FILE *f, record *rec) {
  json_t *details = json_object_get(rec->header, "ruleset_details");
  json_t *ft = rec->footer;
  fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<title>zoneoracle conformance</title>\n<style>\n"
        "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}\n"
        "table{border-collapse:collapse;margin:.5em 0 1.5em}\n"
        "th,td{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}\n"
        "th{background:#f2f2f2;position:sticky;top:0}\n"
        "td.pass{background:#c8f0c8}td.fail{background:#f6b8b8}td.skip{background:#f4e8a8}\n"
        "td.none{background:#fff;color:#999}td.na{background:#eee;color:#aaa}\n"
        "td.cell a{color:inherit;text-decoration:none;font-size:12px}\n"
        "code{font-size:12px}.seed{font-weight:bold}\n"
        "</style></head><body>\n<h1>zoneoracle conformance</h1>\n", f);
  fprintf(f, "<p>Engine <b>");
  xml_text(f, S(rec->header, "engine"));
  fputc(' ', f);
  xml_text(f, S(rec->header, "engine_version"));
  fputs("</b>, suite commit <code>", f);
  xml_text(f, S(rec->header, "suite_commit"));
  fputs("</code>, started ", f);
  xml_text(f, S(rec->header, "started"));
  fprintf(f, ".</p>\n<p>%lld passed, %lld failed, %lld errors, %lld skipped.</p>\n",
          json_integer_value(json_object_get(ft, "passed")),
          json_integer_value(json_object_get(ft, "failed")),
          json_integer_value(json_object_get(ft, "errors")),
          json_integer_value(json_object_get(ft, "skipped")));
  /* rows: every rule of every rule set, in first-seen order */
  json_t *rows = json_array(), *seen = json_object();
  size_t i, j;
  json_t *d, *r;
  json_array_foreach(details, i, d) json_array_foreach(json_object_get(d, "rules"), j, r) {
    const char *id = S(r, "id");
    if (json_object_get(seen, id)) continue;
    json_object_set_new(seen, id, json_true());
    json_array_append(rows, r);
  }
  fputs("<h2>Conformance matrix: rules x rule sets</h2>\n"
        "<p>Each cell: the cases of that rule set citing the rule (green all pass, red any "
        "fails, yellow skipped, white no case, grey not a rule of that rule set). "
        "Bold rules are numbered in a seed text. Cells link to the cases.</p>\n"
        "<table id=\"matrix\"><tr><th>rule</th><th>what it says</th>", f);
  json_array_foreach(details, i, d) {
    fputs("<th>", f);
    xml_text(f, S(d, "id"));
    fputs("</th>", f);
  }
  fputs("</tr>\n", f);
  json_array_foreach(rows, i, r) {
    const char *id = S(r, "id");
    fputs("<tr><td", f);
    if (json_is_true(json_object_get(r, "seed"))) fputs(" class=\"seed\"", f);
    fputs(">", f);
    xml_text(f, id);
    fputs("</td><td>", f);
    xml_text(f, S(r, "text"));
    fputs("</td>", f);
    json_array_foreach(details, j, d) {
      int has = 0;
      size_t k;
      json_t *x;
      json_array_foreach(json_object_get(d, "rules"), k, x) has |= !strcmp(S(x, "id"), id);
      if (!has) {
        fputs("<td class=\"na\">n/a</td>", f);
        continue;
      }
      int n;
      const char *cls = cell_status(rec->cases, S(d, "id"), id, &n);
      fprintf(f, "<td class=\"cell %s\">", cls);
      json_t *c;
      int shown = 0;
      json_array_foreach(rec->cases, k, c) {
        if (strcmp(S(c, "ruleset"), S(d, "id"))) continue;
        size_t m;
        json_t *cr;
        int cites = 0;
        json_array_foreach(json_object_get(c, "rules"), m, cr) cites |= !strcmp(json_string_value(cr), id);
        if (!cites) continue;
        if (shown++ < 3) {
          fputs("<a href=\"#", f);
          html_id(f, S(d, "id"), S(c, "id"));
          fputs("\" title=\"", f);
          xml_text(f, S(c, "id"));
          fprintf(f, "\">%s</a> ", S(c, "status"));
        }
      }
      if (shown > 3) fprintf(f, "+%d", shown - 3);
      if (!n) fputs("no case", f);
      fputs("</td>", f);
    }
    fputs("</tr>\n", f);
  }
  fputs("</table>\n<h2>Switches per rule set</h2>\n", f);
  json_array_foreach(details, i, d) {
    fputs("<h3>", f);
    xml_text(f, S(d, "id"));
    fputs(": ", f);
    xml_text(f, S(d, "title"));
    fputs("</h3>\n<table class=\"switches\"><tr><th>switch</th><th>value</th><th>rules</th></tr>\n", f);
    json_t *sw;
    json_array_foreach(json_object_get(d, "switches"), j, sw) {
      fputs("<tr><td>", f);
      xml_text(f, S(sw, "switch"));
      fputs("</td><td>", f);
      xml_text(f, S(sw, "value"));
      fputs("</td><td>", f);
      json_t *rules = json_object_get(sw, "rules");
      if (!json_array_size(rules)) fputs("<i>unspecified</i>", f);
      size_t k;
      json_t *x;
      json_array_foreach(rules, k, x) {
        if (k) fputs(", ", f);
        xml_text(f, json_string_value(x));
      }
      fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
  }
  fputs("<h2>Cases</h2>\n<table id=\"cases\"><tr><th>case</th><th>rule set</th><th>status</th>"
        "<th>rules</th><th>detail</th></tr>\n", f);
  json_t *c;
  json_array_foreach(rec->cases, i, c) {
    fputs("<tr id=\"", f);
    html_id(f, S(c, "ruleset"), S(c, "id"));
    fputs("\"><td><code>", f);
    xml_text(f, S(c, "id"));
    fputs("</code><br>", f);
    xml_text(f, S(c, "title"));
    fputs("</td><td>", f);
    xml_text(f, S(c, "ruleset"));
    const char *s = S(c, "status");
    fprintf(f, "</td><td class=\"%s\">%s</td><td>", !strcmp(s, "error") ? "fail" : s, s);
    json_t *x;
    json_array_foreach(json_object_get(c, "rules"), j, x) {
      if (j) fputs(", ", f);
      xml_text(f, json_string_value(x));
    }
    fputs("</td><td>", f);
    xml_text(f, S(c, "message"));
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n</body></html>\n", f);
  json_decref(rows);
  json_decref(seen);
}

zo_status zo_report_render_html(const char *jsonl, const char *path, zo_error *err) {
  return render(jsonl, path, err, html_body);
}
