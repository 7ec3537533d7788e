/* render.c: reports rendered from the run record, so they can never
 * disagree with it: JUnit XML (what CI systems read) and the Markdown
 * summary (a CI job summary), and zo_report_render_all, every report
 * from one reading of the record (the HTML page is render_html.c's; a
 * report written whole or not at all, record.c's zo_report_render). What the reports share, the digest and the escaping,
 * is digest.c's, below every renderer. */
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

/* Read the record, write one report from it through `body`, whole or not
 * at all. */

static void junit_body(FILE *f, zo_record *rec) {
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
  if (*zo_record_str(rec->header, "run_id")) { /* the report set's run (report.h) */
    fputs("<!-- zoneoracle run ", f);
    zo_report_xml_text(f, zo_record_str(rec->header, "run_id"));
    fputs(" -->\n", f);
  }
  fputs("<testsuites name=\"zoneoracle\">\n", f);
  zo_digest dg, *d = &dg;
  zo_digest_make(rec, d);
  if (json_array_size(d->stderr_common)) { /* a banner each restart printed: once */
    fputs("  <!-- the engine's stderr common to several cases, left out of each case's system-err:\n", f);
    size_t k;
    json_t *l;
    json_array_foreach(d->stderr_common, k, l) {
      const char *line = json_string_value(l);
      fputs("       ", f);
      for (; *line; line++) /* "--" may not stand in a comment */
        if (*line == '-' && line[1] == '-') fputs("- ", f);
        else if ((unsigned char)*line >= 0x20 || *line == '\t') fputc(*line, f);
      fputc('\n', f);
    }
    fputs("  -->\n", f);
  }
  /* one testsuite per rule set, in first-seen order */
  json_t *seen = json_array();
  size_t i;
  json_t *c;
  json_array_foreach(rec->cases, i, c) {
    const char *rs = zo_record_str(c, "ruleset");
    int dup = 0;
    size_t j;
    json_t *x;
    json_array_foreach(seen, j, x) dup |= !strcmp(json_string_value(x), rs);
    if (!dup) json_array_append_new(seen, json_string(rs));
  }
  json_t *rsname;
  json_array_foreach(seen, i, rsname) {
    const char *rs = json_string_value(rsname);
    if (zo_record_undeclared(rec, rs)) continue; /* one testcase for them all, below */
    int tests = 0, fail = 0, errs = 0, skip = 0;
    double secs = 0;
    size_t j;
    json_array_foreach(rec->cases, j, c) {
      if (strcmp(zo_record_str(c, "ruleset"), rs)) continue;
      tests++;
      secs += json_real_value(json_object_get(c, "ms")) / 1000.0;
      const char *s = zo_record_str(c, "status");
      fail += !strcmp(s, "fail") || !strcmp(s, "xpass");
      errs += !strcmp(s, "error") || !strcmp(s, "crash") || !strcmp(s, "timeout");
      skip += !strcmp(s, "skip") || !strcmp(s, "xfail");
    }
    fputs("  <testsuite name=\"", f);
    zo_report_xml_text(f, rs);
    fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\">\n",
            tests, fail, errs, skip, secs);
    json_array_foreach(rec->cases, j, c) {
      if (strcmp(zo_record_str(c, "ruleset"), rs)) continue;
      fputs("    <testcase classname=\"", f);
      zo_report_xml_text(f, rs);
      fputs("\" name=\"", f);
      zo_report_xml_text(f, zo_record_str(c, "id"));
      fprintf(f, "\" file=\"");
      zo_report_xml_text(f, zo_record_str(c, "file"));
      fprintf(f, "\" time=\"%.4f\"", json_real_value(json_object_get(c, "ms")) / 1000.0);
      const char *s = zo_record_str(c, "status");
      if (!strcmp(s, "pass")) {
        fputs("/>\n", f);
        continue;
      }
      fputs(">\n", f);
      const char *tag = !strcmp(s, "fail") || !strcmp(s, "xpass") ? "failure"
                        : !strcmp(s, "skip") || !strcmp(s, "xfail")  ? "skipped"
                                                                      : "error";
      fprintf(f, "      <%s message=\"", tag);
      int gap = !strcmp(s, "xfail") || !strcmp(s, "xpass");
      if (gap) { /* the known gap's reason; what the case said goes in the body */
        fputs(!strcmp(s, "xfail") ? "known gap: " : "passes, yet listed as a known gap (take it off the list): ", f);
        zo_report_xml_text(f, zo_record_str(c, "reason"));
      } else {
        char *msg = zo_digest_message(d, c);
        zo_report_xml_text(f, msg);
        free(msg);
      }
      fputs("\">", f);
      if (gap && *zo_record_str(c, "message")) {
        zo_report_xml_text(f, zo_record_str(c, "message"));
        if (json_object_get(c, "expected")) fputc('\n', f);
      }
      if (json_object_get(c, "expected")) {
        fputs("expected: ", f);
        zo_report_xml_text(f, zo_record_str(c, "expected"));
        fputs("\nobserved: ", f);
        zo_report_xml_text(f, zo_record_str(c, "observed"));
      }
      if (strcmp(tag, "skipped")) { /* what a developer acts on: the rules, the title, the rerun */
        fputs("\nrules: ", f);
        zo_report_rules(f, c, zo_report_xml_text);
        fputs("\ntitle: ", f);
        zo_report_xml_text(f, zo_record_str(c, "title"));
        char *cmd = zo_record_rerun(rec, c);
        if (cmd) {
          fputs("\nrerun: ", f);
          zo_report_xml_text(f, cmd);
        }
        free(cmd);
      }
      fprintf(f, "</%s>\n", tag);
      char *err = zo_digest_stderr_own(d, c);
      if (err && *err) {
        fputs("      <system-err>", f);
        zo_report_xml_text(f, err);
        fputs("</system-err>\n", f);
      }
      free(err);
      fputs("    </testcase>\n", f);
    }
    fputs("  </testsuite>\n", f);
  }
  json_t *inv;
  if (json_array_size(rec->invalid)) {
    fprintf(f, "  <testsuite name=\"case files\" tests=\"%zu\" failures=\"0\" errors=\"%zu\">\n",
            json_array_size(rec->invalid), json_array_size(rec->invalid));
    json_array_foreach(rec->invalid, i, inv) {
      fputs("    <testcase classname=\"case files\" name=\"", f);
      zo_report_xml_text(f, zo_record_str(inv, "file"));
      fputs("\">\n      <error message=\"invalid case file\">", f);
      zo_report_xml_text(f, zo_record_str(inv, "message"));
      fputs("</error>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n", f);
  }
  if (d->undeclared) { /* every case under them: one testcase, one line */
    char line[1024];
    zo_digest_undeclared_line(d, line, sizeof line);
    fputs("  <testsuite name=\"undeclared rule sets\" tests=\"1\" failures=\"0\" errors=\"0\" "
          "skipped=\"1\">\n    <testcase classname=\"undeclared rule sets\" name=\"", f);
    zo_report_xml_text(f, line);
    fputs("\">\n      <skipped message=\"", f);
    zo_report_xml_text(f, line);
    fputs("\"/>\n    </testcase>\n  </testsuite>\n", f);
  }
  size_t nstale = json_array_size(rec->unknown_gaps);
  if (nstale) { /* stale entries of the known-gaps file: reported, not failing */
    fprintf(f, "  <testsuite name=\"known gaps\" tests=\"%zu\" failures=\"0\" errors=\"0\" skipped=\"%zu\">\n",
            nstale, nstale);
    json_array_foreach(rec->unknown_gaps, i, inv) {
      fputs("    <testcase classname=\"known gaps\" name=\"", f);
      zo_report_xml_text(f, zo_record_str(inv, "id"));
      if (*zo_record_str(inv, "ruleset")) {
        fputs(" [", f);
        zo_report_xml_text(f, zo_record_str(inv, "ruleset"));
        fputc(']', f);
      }
      fputs("\" file=\"", f);
      zo_report_xml_text(f, zo_record_str(inv, "file"));
      fprintf(f, "\">\n      <skipped message=\"stale known gap (line %lld): names no case of the run\">",
              json_integer_value(json_object_get(inv, "line")));
      zo_report_xml_text(f, zo_record_str(inv, "reason"));
      fputs("</skipped>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n", f);
  }
  fputs("</testsuites>\n", f);
  zo_digest_free(d);
  json_decref(seen);
}

zo_status zo_report_render_junit(const char *jsonl, const char *path, zo_error *err) {
  return zo_report_render(jsonl, path, err, junit_body);
}

/* ---- Markdown: the CI job summary, failures first --------------------- */

/* The rules case c cites, ", " between, in a Markdown cell. */
static void md_rules(FILE *f, json_t *c) { zo_report_rules(f, c, zo_report_md_cell); }

/* s in a Markdown code span, fenced longer than any run of backticks in
 * it ('|' escaped: it stands in a table cell). */
static void md_code_cell(FILE *f, const char *s) {
  size_t run = 0, longest = 0;
  for (const char *p = s; *p; p++) {
    run = *p == '`' ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  for (size_t k = 0; k <= longest; k++) fputc('`', f);
  fputc(' ', f);
  zo_report_md_cell(f, s);
  fputc(' ', f);
  for (size_t k = 0; k <= longest; k++) fputc('`', f);
}

/* One row of a case table, what a developer needs first, first: case,
 * rule set, then its status (the failing table) or the reason it is
 * listed (the known gaps), the rules it cites, its title, what differed
 * ("b.position: expected 2, observed 0"), the command that reruns it
 * alone, and where (file:line, step). */
static void md_case_row(FILE *f, zo_record *rec, const zo_digest *d, json_t *c, int with_reason) {
  fputs("| `", f);
  zo_report_md_cell(f, zo_record_str(c, "id"));
  fputs("` | ", f);
  zo_report_md_cell(f, zo_record_str(c, "ruleset"));
  fputs(" | ", f);
  zo_report_md_cell(f, zo_record_str(c, with_reason ? "reason" : "status"));
  fputs(" | ", f);
  md_rules(f, c);
  fputs(" | ", f);
  zo_report_md_cell(f, zo_record_str(c, "title"));
  fputs(" | ", f);
  if (json_object_get(c, "expected")) {
    zo_report_md_cell(f, zo_record_str(c, "what"));
    fputs(*zo_record_str(c, "what") ? ": expected " : "expected ", f);
    zo_report_md_cell(f, zo_record_str(c, "expected"));
    fputs(", observed ", f);
    zo_report_md_cell(f, zo_record_str(c, "observed"));
  } else { /* nothing compared (an engine error, a crash): its message */
    char *msg = zo_digest_message(d, c); /* the stderr lines shown once left out */
    const char *m = msg, *file = zo_record_str(c, "file");
    size_t n = strlen(file);
    if (n && !strncmp(m, file, n) && m[n] == ':') { /* "FILE:LINE: " said in where */
      const char *p = m + n + 1;
      while (isdigit((unsigned char)*p)) p++;
      if (p[0] == ':' && p[1] == ' ') m = p + 2;
    }
    zo_report_md_cell(f, *m ? m : zo_record_str(c, "what"));
    free(msg);
  }
  fputs(" | ", f);
  char *cmd = zo_record_rerun(rec, c);
  if (cmd) md_code_cell(f, cmd);
  free(cmd);
  fputs(" | ", f);
  zo_report_md_cell(f, zo_record_str(c, "file"));
  long long line = json_integer_value(json_object_get(c, "line"));
  if (line) fprintf(f, ":%lld", line);
  long long step = json_integer_value(json_object_get(c, "step"));
  if (step) fprintf(f, " (step %lld)", step);
  fputs(" |\n", f);
}

/* One row of the stale entries table. */
static void md_stale_row(FILE *f, const char *id, const char *rs, const char *why, const char *reason) {
  fputs("| `", f);
  zo_report_md_cell(f, id);
  fputs("` | ", f);
  zo_report_md_cell(f, *rs ? rs : "every rule set");
  fprintf(f, " | %s | ", why);
  zo_report_md_cell(f, reason);
  fputs(" |\n", f);
}

/* The stale entries of the known-gaps file: cases listed that pass now
 * (xpass, failing the run) and entries naming no case of the run. */
static void md_stale(FILE *f, zo_record *rec) {
  size_t i, n = json_array_size(rec->unknown_gaps);
  json_t *c;
  json_array_foreach(rec->cases, i, c) n += !strcmp(zo_record_str(c, "status"), "xpass");
  if (!n) return;
  const char *file = zo_record_str(rec->header, "known_gaps");
  fprintf(f, "\n## Stale known gaps (%zu): take them off ", n);
  zo_report_md_cell(f, *file ? file : "the list");
  fputs("\n\n| case | rule set | why stale | reason |\n| --- | --- | --- | --- |\n", f);
  json_array_foreach(rec->cases, i, c) if (!strcmp(zo_record_str(c, "status"), "xpass"))
    md_stale_row(f, zo_record_str(c, "id"), zo_record_str(c, "ruleset"), "passes now (xpass)",
                 zo_record_str(c, "reason"));
  json_array_foreach(rec->unknown_gaps, i, c)
    md_stale_row(f, zo_record_str(c, "id"), zo_record_str(c, "ruleset"), "names no case of the run",
                 zo_record_str(c, "reason"));
}

/* One row of a change since the baseline: case, rule set, was, now. */
static void md_change_row(FILE *f, json_t *c) {
  fputs("| `", f);
  zo_report_md_cell(f, zo_record_str(c, "id"));
  fputs("` | ", f);
  zo_report_md_cell(f, zo_record_str(c, "ruleset"));
  fprintf(f, " | %s | %s |\n", zo_record_str(c, "was"), zo_record_str(c, "status"));
}

/* A code block holding m, fenced longer than any run of backticks in it. */
static void md_block(FILE *f, const char *m) {
  size_t run = 0, longest = 0;
  for (const char *p = m; *p; p++) {
    run = *p == '`' ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  size_t fence = longest < 3 ? 3 : longest + 1;
  for (size_t k = 0; k < fence; k++) fputc('`', f);
  fprintf(f, "\n%s\n", m);
  for (size_t k = 0; k < fence; k++) fputc('`', f);
  fputc('\n', f);
}

static void markdown_body(FILE *f, zo_record *rec) {
  zo_digest d;
  zo_digest_make(rec, &d);
  char counts[256];
  zo_digest_counts(&d, counts, sizeof counts);
  if (*zo_record_str(rec->header, "run_id")) /* the report set's run (report.h) */
    fprintf(f, "<!-- zoneoracle run %s -->\n", zo_record_str(rec->header, "run_id"));
  fprintf(f, "# zoneoracle: %s\n\n**%s**\n\nEngine **", zo_digest_verdict(&d), counts);
  zo_report_md_cell(f, zo_record_str(rec->header, "engine"));
  fputc(' ', f);
  zo_report_md_cell(f, zo_record_str(rec->header, "engine_version"));
  fprintf(f, "**, suite commit `%s`, started %s.\n", zo_record_str(rec->header, "suite_commit"),
          zo_record_str(rec->header, "started"));
  char undeclared[1024];
  zo_digest_undeclared_line(&d, undeclared, sizeof undeclared);
  if (*undeclared) { /* one line, never a row per case */
    fputs("\n", f);
    zo_report_md_cell(f, undeclared);
    fputs(" (skipped, not listed).\n", f);
  }
  size_t i, j;
  json_t *c;
  static const char table_head[] =
      "| case | rule set | status | rules | title | what differed | rerun alone | where |\n"
      "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  if (json_array_size(d.failing)) {
    fprintf(f, "\n## Failing (%zu)\n\n%s", json_array_size(d.failing), table_head);
    json_array_foreach(d.failing, i, c) md_case_row(f, rec, &d, c, 0);
  }
  if (d.invalid) {
    fprintf(f, "\n## Invalid case files (%zu)\n\n", d.invalid);
    json_t *inv;
    json_array_foreach(rec->invalid, i, inv) md_block(f, zo_record_str(inv, "message"));
  }
  if (*d.baseline) { /* --baseline: what changed since that run */
    fputs("\n## Since the baseline (", f);
    zo_report_md_cell(f, d.baseline);
    fprintf(f, "): %zu newly failing, %zu fixed\n", json_array_size(d.newly_failing),
            json_array_size(d.fixed));
    if (json_array_size(d.newly_failing)) {
      fprintf(f, "\nNewly failing:\n\n| case | rule set | was | now |\n| --- | --- | --- | --- |\n");
      json_array_foreach(d.newly_failing, i, c) md_change_row(f, c);
    }
    if (json_array_size(d.fixed)) {
      fprintf(f, "\nFixed:\n\n| case | rule set | was | now |\n| --- | --- | --- | --- |\n");
      json_array_foreach(d.fixed, i, c) md_change_row(f, c);
    }
  }
  if (json_array_size(d.failing)) { /* what each failure said, in full */
    fputs("\n<details><summary>Messages of the failing cases</summary>\n\n", f);
    if (json_array_size(d.stderr_common)) { /* a banner each restart printed: once */
      fprintf(f, "The engine's stderr common to several cases (%zu lines, shown once):\n\n",
              json_array_size(d.stderr_common));
      json_t *l;
      size_t n = 0;
      json_array_foreach(d.stderr_common, j, l) n += strlen(json_string_value(l)) + 1;
      char *all = zo_xmalloc(n + 1), *o = all;
      json_array_foreach(d.stderr_common, j, l) {
        size_t k = strlen(json_string_value(l));
        memcpy(o, json_string_value(l), k);
        o += k;
        *o++ = '\n';
      }
      if (o > all) o--;
      *o = 0;
      md_block(f, all);
      free(all);
      fputs("\n", f);
    }
    json_array_foreach(d.failing, i, c) {
      fputs("- `", f);
      zo_report_md_cell(f, zo_record_str(c, "id"));
      fputs("` (", f);
      zo_report_md_cell(f, zo_record_str(c, "ruleset"));
      fputs("):\n\n", f);
      char *msg = zo_digest_message(&d, c);
      md_block(f, msg);
      free(msg);
      char *err = zo_digest_stderr_own(&d, c);
      if (err && *err) {
        fputs("\n  the engine's stderr:\n\n", f);
        md_block(f, err);
      }
      free(err);
    }
    fputs("\n</details>\n", f);
  }
  if (json_array_size(d.gaps)) {
    fprintf(f, "\n## Known gaps (%zu, --expect-failures)\n\n"
               "| case | rule set | reason | rules | title | what differed | rerun alone | where |\n"
               "| --- | --- | --- | --- | --- | --- | --- | --- |\n", json_array_size(d.gaps));
    json_array_foreach(d.gaps, i, c) md_case_row(f, rec, &d, c, 1);
  }
  md_stale(f, rec);
  if (json_object_size(d.skips)) {
    fprintf(f, "\n## Skipped (%lld), by reason\n\n", d.skipped - d.undeclared);
    if (d.undeclared)
      fprintf(f, "Besides the %lld cases under rule sets the engine doesn't declare (above).\n\n",
              d.undeclared);
    fputs("| reason | cases |\n| --- | ---: |\n", f);
    const char *why;
    json_t *n;
    json_object_foreach(d.skips, why, n) {
      fputs("| ", f);
      zo_report_md_cell(f, why);
      fprintf(f, " | %lld |\n", json_integer_value(n));
    }
  }
  /* per rule set: cases and the rules the engine applied */
  fprintf(f, "\n## By rule set\n\n| rule set | cases | passed | failing | known gaps | skipped | "
             "distinct rules applied |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  json_t *rsl = json_object_get(rec->header, "rulesets"), *rsn;
  json_array_foreach(rsl, i, rsn) {
    const char *rs = json_string_value(rsn);
    if (!rs || json_object_get(d.undeclared_by, rs)) continue; /* in the one line above */
    int n = 0, pass = 0, fail = 0, gap = 0, skip = 0;
    json_t *rules = json_object();
    json_array_foreach(rec->cases, j, c) {
      if (strcmp(zo_record_str(c, "ruleset"), rs)) continue;
      n++;
      const char *st = zo_record_str(c, "status");
      pass += !strcmp(st, "pass");
      fail += zo_report_failing_status(st);
      gap += !strcmp(st, "xfail");
      skip += !strcmp(st, "skip");
      const char *k;
      json_t *v;
      json_object_foreach(json_object_get(c, "rule_hits"), k, v) json_object_set_new(rules, k, json_true());
    }
    if (n) {
      fputs("| ", f);
      zo_report_md_cell(f, rs);
      fprintf(f, " | %d | %d | %d | %d | %d | %zu |\n", n, pass, fail, gap, skip, json_object_size(rules));
    }
    json_decref(rules);
  }
  zo_digest_free(&d);
}

zo_status zo_report_render_markdown(const char *jsonl, const char *path, zo_error *err) {
  return zo_report_render(jsonl, path, err, markdown_body);
}

zo_status zo_report_render_all(const char *jsonl, const char *junit, const char *markdown,
                               const char *html, zo_error *err) {
  zo_record rec;
  zo_status st = zo_record_read(jsonl, &rec, err);
  if (st) return st;
  if (!st && junit) st = zo_report_render_rec(&rec, junit, err, junit_body);
  if (!st && markdown) st = zo_report_render_rec(&rec, markdown, err, markdown_body);
  if (!st && html) st = zo_report_render_rec(&rec, html, err, zo_report_html_body);
  zo_record_free(&rec);
  return st;
}
