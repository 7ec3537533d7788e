/* render_html.c: the HTML report, rendered from the run record: the
 * verdict, the conformance matrix (rule sets x rules) and the cases. */
#include "report_int.h"

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

/* ---- HTML: the conformance matrix --------------------------------- */

/* Status of the cases of one rule set citing one rule: the worst wins. */
static const char *cell_status(json_t *cases, const char *ruleset, const char *rule, int *n) {
  int fail = 0, pass = 0, skip = 0;
  size_t i;
  json_t *c;
  *n = 0;
  json_array_foreach(cases, i, c) {
    if (strcmp(zo_record_str(c, "ruleset"), ruleset)) continue;
    size_t j;
    json_t *r;
    int cites = 0;
    json_array_foreach(json_object_get(c, "rules"), j, r) cites |= !strcmp(json_string_value(r), rule);
    if (!cites) continue;
    (*n)++;
    const char *s = zo_record_str(c, "status");
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

static void html_body(FILE *f, zo_record *rec) {
  json_t *details = json_object_get(rec->header, "ruleset_details");
  json_t *ft = rec->footer;
  fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<title>zoneoracle conformance</title>\n", f);
  if (*zo_record_str(rec->header, "run_id")) { /* the report set's run (report.h) */
    fputs("<meta name=\"zoneoracle-run\" content=\"", f);
    zo_report_xml_text(f, zo_record_str(rec->header, "run_id"));
    fputs("\">\n", f);
  }
  fputs("<style>\n"
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
  zo_report_xml_text(f, zo_record_str(rec->header, "engine"));
  fputc(' ', f);
  zo_report_xml_text(f, zo_record_str(rec->header, "engine_version"));
  fputs("</b>, suite commit <code>", f);
  zo_report_xml_text(f, zo_record_str(rec->header, "suite_commit"));
  fputs("</code>, started ", f);
  zo_report_xml_text(f, zo_record_str(rec->header, "started"));
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
    const char *id = zo_record_str(r, "id");
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
    zo_report_xml_text(f, zo_record_str(d, "id"));
    fputs("</th>", f);
  }
  fputs("</tr>\n", f);
  json_array_foreach(rows, i, r) {
    const char *id = zo_record_str(r, "id");
    fputs("<tr><td", f);
    if (json_is_true(json_object_get(r, "seed"))) fputs(" class=\"seed\"", f);
    fputs(">", f);
    zo_report_xml_text(f, id);
    fputs("</td><td>", f);
    zo_report_xml_text(f, zo_record_str(r, "text"));
    fputs("</td>", f);
    json_array_foreach(details, j, d) {
      int has = 0;
      size_t k;
      json_t *x;
      json_array_foreach(json_object_get(d, "rules"), k, x) has |= !strcmp(zo_record_str(x, "id"), id);
      if (!has) {
        fputs("<td class=\"na\">n/a</td>", f);
        continue;
      }
      int n;
      const char *cls = cell_status(rec->cases, zo_record_str(d, "id"), id, &n);
      fprintf(f, "<td class=\"cell %s\">", cls);
      json_t *c;
      int shown = 0;
      json_array_foreach(rec->cases, k, c) {
        if (strcmp(zo_record_str(c, "ruleset"), zo_record_str(d, "id"))) continue;
        size_t m;
        json_t *cr;
        int cites = 0;
        json_array_foreach(json_object_get(c, "rules"), m, cr) cites |= !strcmp(json_string_value(cr), id);
        if (!cites) continue;
        if (shown++ < 3) {
          fputs("<a href=\"#", f);
          html_id(f, zo_record_str(d, "id"), zo_record_str(c, "id"));
          fputs("\" title=\"", f);
          zo_report_xml_text(f, zo_record_str(c, "id"));
          fprintf(f, "\">%s</a> ", zo_record_str(c, "status"));
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
    zo_report_xml_text(f, zo_record_str(d, "id"));
    fputs(": ", f);
    zo_report_xml_text(f, zo_record_str(d, "title"));
    fputs("</h3>\n<table class=\"switches\"><tr><th>switch</th><th>value</th><th>rules</th></tr>\n", f);
    json_t *sw;
    json_array_foreach(json_object_get(d, "switches"), j, sw) {
      fputs("<tr><td>", f);
      zo_report_xml_text(f, zo_record_str(sw, "switch"));
      fputs("</td><td>", f);
      zo_report_xml_text(f, zo_record_str(sw, "value"));
      fputs("</td><td>", f);
      json_t *rules = json_object_get(sw, "rules");
      if (!json_array_size(rules)) fputs("<i>unspecified</i>", f);
      size_t k;
      json_t *x;
      json_array_foreach(rules, k, x) {
        if (k) fputs(", ", f);
        zo_report_xml_text(f, json_string_value(x));
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
    html_id(f, zo_record_str(c, "ruleset"), zo_record_str(c, "id"));
    fputs("\"><td><code>", f);
    zo_report_xml_text(f, zo_record_str(c, "id"));
    fputs("</code><br>", f);
    zo_report_xml_text(f, zo_record_str(c, "title"));
    fputs("</td><td>", f);
    zo_report_xml_text(f, zo_record_str(c, "ruleset"));
    const char *s = zo_record_str(c, "status");
    fprintf(f, "</td><td class=\"%s\">%s</td><td>", !strcmp(s, "error") ? "fail" : s, s);
    json_t *x;
    json_array_foreach(json_object_get(c, "rules"), j, x) {
      if (j) fputs(", ", f);
      zo_report_xml_text(f, json_string_value(x));
    }
    fputs("</td><td>", f);
    zo_report_xml_text(f, zo_record_str(c, "message"));
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
  if (json_array_size(rec->invalid)) { /* every record of the run is shown */
    fputs("<h2>Invalid case files</h2>\n<table id=\"invalid\"><tr><th>file</th><th>error</th></tr>\n", f);
    json_t *inv;
    json_array_foreach(rec->invalid, i, inv) {
      fputs("<tr><td><code>", f);
      zo_report_xml_text(f, zo_record_str(inv, "file"));
      fputs("</code></td><td><pre>", f);
      zo_report_xml_text(f, zo_record_str(inv, "message"));
      fputs("</pre></td></tr>\n", f);
    }
    fputs("</table>\n", f);
  }
  fputs("</body></html>\n", f);
  json_decref(rows);
  json_decref(seen);
}

zo_status zo_report_render_html(const char *jsonl, const char *path, zo_error *err) {
  return zo_report_render(jsonl, path, err, html_body);
}

