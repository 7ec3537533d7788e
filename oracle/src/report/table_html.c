/* table_html.c: the transition tables in the HTML report (render_html.c):
 * for each rule set of the run the oracle knows and the run played a case
 * in (one that was not skipped: an engine that declares one rule set gets
 * its table alone), its table (run/table.h,
 * every cell a game of the model) as one collapsed <details>, one nested
 * <details> per kind of object holding its rows. No script: the page
 * stays one self-contained file, closed sections cost the reader nothing. */
#include <stdio.h>
#include <string.h>

#include "report_int.h"
#include "ruleset.h"
#include "table.h"

static const char *str(const json_t *o, const char *k) {
  const char *s = json_string_value(json_object_get(o, k));
  return s ? s : "";
}

/* The strings of array a, escaped, joined with sep ("-" when empty). */
static void join(FILE *f, const json_t *a, const char *sep) {
  size_t i;
  json_t *v;
  if (!json_array_size(a)) fputs("-", f);
  json_array_foreach(a, i, v) {
    if (i) fputs(sep, f);
    zo_report_xml_text(f, json_string_value(v));
  }
}

/* Whether array a holds a value equal to v. */
static int in_array(const json_t *a, const json_t *v) {
  size_t i;
  json_t *x;
  json_array_foreach(a, i, x) if (json_equal(x, v)) return 1;
  return 0;
}

/* One row of an object's table; span: the rows from here on with the same
 * origins (their cell is this row's), 0 when an earlier row has it. */
static void row_html(FILE *f, const json_t *row, size_t span) {
  fputs("<tr>", f);
  if (span) {
    fprintf(f, "<td rowspan=\"%zu\">", span);
    join(f, json_object_get(row, "from"), ", ");
    fputs("</td>", f);
  }
  fputs("<td>", f);
  join(f, json_object_get(row, "to"), ", ");
  fputs("</td><td>", f);
  zo_report_xml_text(f, str(row, "outcome"));
  if (*str(row, "error")) {
    fputs(" (", f);
    zo_report_xml_text(f, str(row, "error"));
    fputs(")", f);
  }
  if (*str(row, "state_check")) {
    fputs(", then ", f);
    zo_report_xml_text(f, str(row, "state_check"));
    fputs(" at the state check", f);
  }
  const json_t *br = json_object_get(row, "by_rule");
  if (br) { /* what the same move by a rule does (FaB 3.0.11) */
    fputs("; by a rule: ", f);
    zo_report_xml_text(f, str(br, "outcome"));
    if (*str(br, "ends_in")) {
      fputs(" to ", f);
      zo_report_xml_text(f, str(br, "ends_in"));
    }
    if (json_is_true(json_object_get(br, "new_object"))) fputs(" as a new object", f);
    fputs(" (also ", f); /* the rules the effect's move did not apply */
    size_t i, n = 0;
    json_t *r;
    json_array_foreach(json_object_get(br, "rules"), i, r) {
      if (in_array(json_object_get(row, "rules"), r)) continue;
      if (n++) fputs(", ", f);
      zo_report_xml_text(f, json_string_value(r));
    }
    fputs(")", f);
  }
  const json_t *n = json_object_get(row, "new_object");
  fprintf(f, "</td><td>%s</td><td>", !n ? "-" : json_is_true(n) ? "yes" : "no");
  zo_report_xml_text(f, *str(row, "ends_in") ? str(row, "ends_in") : "gone");
  if (*str(row, "position")) {
    fputs(" (", f);
    zo_report_xml_text(f, str(row, "position"));
    fputs(")", f);
  }
  fputs("</td><td>", f);
  zo_report_xml_text(f, *str(row, "sees") ? str(row, "sees") : "-");
  fputs("</td><td>", f);
  zo_report_xml_text(f, *str(row, "controller") ? str(row, "controller") : "-");
  fputs("</td><td>", f);
  join(f, json_object_get(row, "keeps"), ", ");
  fputs("</td><td>", f); /* (the switches' names: zoneoracle table) */
  join(f, json_object_get(row, "rules"), ", ");
  fputs("</td></tr>\n", f);
}

/* One kind of object: its rows, or the object it behaves like. */
static void object_html(FILE *f, const json_t *o) {
  fputs("<details class=\"tobj\"><summary>", f);
  zo_report_xml_text(f, str(o, "object"));
  fputs(" <span class=\"by\">(", f);
  zo_report_xml_text(f, str(o, "kind"));
  size_t i;
  json_t *v;
  json_array_foreach(json_object_get(o, "status"), i, v) {
    fputs(", ", f);
    zo_report_xml_text(f, json_string_value(v));
  }
  if (*str(o, "same_as")) {
    fputs(")</span>: same as ", f);
    zo_report_xml_text(f, str(o, "same_as"));
    fputs("</summary></details>\n", f);
    return;
  }
  fprintf(f, ")</span>: %zu rows</summary>\n<table class=\"transitions\"><tr><th>from</th><th>to</th>"
             "<th>outcome</th><th>new object</th><th>ends in</th><th>sees</th><th>controller</th>"
             "<th>keeps</th><th>rules</th></tr>\n",
          json_array_size(json_object_get(o, "rows")));
  const json_t *rows = json_object_get(o, "rows");
  size_t n = json_array_size(rows);
  json_array_foreach(rows, i, v) {
    const json_t *from = json_object_get(v, "from");
    size_t span = 0;
    if (!i || !json_equal(from, json_object_get(json_array_get(rows, i - 1), "from")))
      for (span = 1; i + span < n && json_equal(from, json_object_get(json_array_get(rows, i + span), "from"));)
        span++;
    row_html(f, v, span);
  }
  fputs("</table>\n", f);
  if (json_array_size(json_object_get(o, "unreachable"))) {
    fputs("<ul class=\"unreachable\">", f);
    json_array_foreach(json_object_get(o, "unreachable"), i, v) {
      fputs("<li>not from ", f);
      zo_report_xml_text(f, str(v, "from"));
      fputs(": ", f);
      zo_report_xml_text(f, str(v, "why"));
      fputs("</li>", f);
    }
    fputs("</ul>\n", f);
  }
  fputs("</details>\n", f);
}

/* The table of one rule set, collapsed. */
static void table_html(FILE *f, const json_t *t) {
  fputs("<details class=\"ttable\" id=\"table-", f);
  zo_report_xml_text(f, str(t, "ruleset"));
  fputs("\"><summary>", f);
  zo_report_xml_text(f, str(t, "ruleset"));
  fprintf(f, ": %lld cells in %lld rows, %zu kinds of object</summary>\n<dl class=\"legend\">",
          (long long)json_integer_value(json_object_get(t, "cells")),
          (long long)json_integer_value(json_object_get(t, "rows")),
          json_array_size(json_object_get(t, "objects")));
  const char *k;
  json_t *v;
  json_object_foreach(json_object_get(t, "legend"), k, v) {
    fputs("<dt>", f);
    zo_report_xml_text(f, k);
    fputs("</dt><dd>", f);
    zo_report_xml_text(f, json_string_value(v));
    fputs("</dd>", f);
  }
  fputs("</dl>\n", f);
  size_t i;
  json_array_foreach(json_object_get(t, "objects"), i, v) object_html(f, v);
  fputs("</details>\n", f);
}

/* Did the run play a case in rule set id (a case record of it that is
 * not a skip)? */
static int played(const zo_record *rec, const char *id) {
  size_t i;
  json_t *c;
  json_array_foreach(rec->cases, i, c) {
    if (!strcmp(str(c, "ruleset"), id) && strcmp(str(c, "status"), "skip")) return 1;
  }
  return 0;
}

void zo_report_html_tables(FILE *f, zo_record *rec) {
  size_t i;
  json_t *rsn;
  int shown = 0;
  json_array_foreach(json_object_get(rec->header, "rulesets"), i, rsn) {
    const zo_ruleset *rs = json_string_value(rsn) ? zo_ruleset_find(json_string_value(rsn)) : NULL;
    json_t *t;
    zo_error err = {0};
    if (!rs || !played(rec, rs->id)) continue; /* unknown to the oracle, or no case ran in it */
    if (zo_table_build(rs, &t, &err)) continue;
    if (!shown++)
      fputs("<h2 id=\"tables\">Transition tables</h2>\n<p>What a move does in the oracle, for each "
            "kind of object and each pair of zones: every cell is a small game of the model "
            "(the legend of each table says which), identical cells grouped.</p>\n", f);
    table_html(f, t);
    json_decref(t);
  }
}
