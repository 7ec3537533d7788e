/* render_html.c: the HTML report, one self-contained page (no script, no
 * network) rendered from the run record, failures first:
 *
 *   the verdict and the totals; the cases under rule sets the engine
 *   doesn't declare, in one line; the failing cases (case, rule set, the
 *   rules it cites, where, expected vs observed, its title, the command
 *   that reruns it alone, the message and the engine's stderr, the lines
 *   several cases share shown once after the table); invalid
 *   case files; the known gaps; the skips counted by reason; the rule sets;
 *   era scenarios side by side (one row per scenario, a column per era);
 *   then, collapsed, the conformance matrix of each game (its declared rule
 *   sets only), the switches, the transition table of each rule set
 *   (table_html.c) and the cases of each rule set.
 *
 * Everything is computed in passes over the record that are linear in its
 * size (cells are looked up in hash maps, not searched), so a run of
 * 50,000 cases renders in a fraction of a second. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"
#include "ruleset.h"


/* The anchor of a case's row: "c-RULESET-ID", non-alphanumerics as '-'. */
static void html_id(FILE *f, const char *ruleset, const char *id) {
  fputs("c-", f);
  for (const char *s = ruleset; *s; s++) fputc(isalnum((unsigned char)*s) ? *s : '-', f);
  fputc('-', f);
  for (const char *s = id; *s; s++) fputc(isalnum((unsigned char)*s) ? *s : '-', f);
}

/* The CSS class of a status cell. */
static const char *status_class(const char *s) {
  if (!strcmp(s, "pass")) return "pass";
  if (!strcmp(s, "skip")) return "skip";
  if (!strcmp(s, "xfail")) return "gap";
  return "fail";
}

static void case_link(FILE *f, json_t *c, const char *label) {
  fputs("<a href=\"#", f);
  html_id(f, zo_record_str(c, "ruleset"), zo_record_str(c, "id"));
  fputs("\">", f);
  zo_report_xml_text(f, label);
  fputs("</a>", f);
}

/* A table of cases that fail or are known gaps: everything a reader needs
 * to act, without scrolling to the case list. */
static void problem_table(FILE *f, zo_record *rec, const zo_digest *d, json_t *cases, const char *id) {
  fprintf(f, "<table id=\"%s\"><tr><th>case</th><th>rule set</th><th>status</th><th>rules</th>"
             "<th>where</th><th>what</th><th>expected</th><th>observed</th></tr>\n", id);
  size_t i;
  json_t *c;
  json_array_foreach(cases, i, c) {
    const char *st = zo_record_str(c, "status");
    fputs("<tr><td><code>", f);
    case_link(f, c, zo_record_str(c, "id"));
    fputs("</code></td><td>", f);
    zo_report_xml_text(f, zo_record_str(c, "ruleset"));
    fprintf(f, "</td><td class=\"%s\">%s</td><td>", status_class(st), st);
    zo_report_rules(f, c, zo_report_xml_text);
    fputs("</td><td><code>", f);
    zo_report_xml_text(f, zo_record_str(c, "file"));
    long long line = json_integer_value(json_object_get(c, "line"));
    if (line) fprintf(f, ":%lld", line);
    fputs("</code>", f);
    long long step = json_integer_value(json_object_get(c, "step"));
    if (step) fprintf(f, " step %lld", step);
    fputs("</td><td>", f);
    zo_report_xml_text(f, zo_record_str(c, "what"));
    fputs("</td><td>", f);
    zo_report_xml_text(f, zo_record_str(c, "expected"));
    fputs("</td><td>", f);
    zo_report_xml_text(f, zo_record_str(c, "observed"));
    fputs("</td></tr>\n<tr class=\"msg\"><td colspan=\"8\"><p class=\"title\">", f);
    zo_report_xml_text(f, zo_record_str(c, "title"));
    fputs("</p>", f);
    char *cmd = zo_record_rerun(rec, c);
    if (cmd) { /* one command that reruns just this case */
      fputs("<p class=\"rerun\">rerun: <code>", f);
      zo_report_xml_text(f, cmd);
      fputs("</code></p>", f);
    }
    free(cmd);
    if (json_object_get(c, "reason")) { /* a known gap's: why it is listed */
      fputs(!strcmp(st, "xpass") ? "<p class=\"reason\">passes, yet listed as a known gap (take it off the list): "
                                 : "<p class=\"reason\">known gap: ", f);
      zo_report_xml_text(f, zo_record_str(c, "reason"));
      fputs("</p>", f);
    }
    fputs("<pre>", f);
    char *msg = zo_digest_message(d, c);
    zo_report_xml_text(f, msg);
    free(msg);
    fputs("</pre>", f);
    char *err = zo_digest_stderr_own(d, c);
    if (err && *err) {
      fputs("<details><summary>the engine's stderr</summary><pre>", f);
      zo_report_xml_text(f, err);
      fputs("</pre></details>", f);
    }
    free(err);
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
}

/* The engine's stderr lines common to several listed cases (a banner each
 * restart printed), once; each case shows only its own. */
static void stderr_common(FILE *f, const zo_digest *d) {
  if (!json_array_size(d->stderr_common)) return;
  fprintf(f, "<details id=\"stderr-common\"><summary>The engine's stderr common to several cases "
             "(%zu lines, shown once)</summary><pre>", json_array_size(d->stderr_common));
  size_t i;
  json_t *l;
  json_array_foreach(d->stderr_common, i, l) {
    if (i) fputc('\n', f);
    zo_report_xml_text(f, json_string_value(l));
  }
  fputs("</pre></details>\n", f);
}

/* The stale entries of the known-gaps file: listed cases that pass now
 * (xpass) and entries naming no case of the run. */
static void stale_table(FILE *f, zo_record *rec) {
  size_t i, n = json_array_size(rec->unknown_gaps);
  json_t *c;
  json_array_foreach(rec->cases, i, c) n += !strcmp(zo_record_str(c, "status"), "xpass");
  if (!n) return;
  const char *file = zo_record_str(rec->header, "known_gaps");
  fprintf(f, "<h2 id=\"stale\">Stale known gaps (%zu): take them off <code>", n);
  zo_report_xml_text(f, *file ? file : "the list");
  fputs("</code></h2>\n<table id=\"stale-gaps\"><tr><th>case</th><th>rule set</th><th>why stale</th>"
        "<th>reason</th></tr>\n", f);
  for (int pass = 0; pass < 2; pass++) {
    json_array_foreach(pass ? rec->unknown_gaps : rec->cases, i, c) {
      if (!pass && strcmp(zo_record_str(c, "status"), "xpass")) continue;
      fputs("<tr><td><code>", f);
      if (pass) zo_report_xml_text(f, zo_record_str(c, "id"));
      else case_link(f, c, zo_record_str(c, "id"));
      fputs("</code></td><td>", f);
      zo_report_xml_text(f, *zo_record_str(c, "ruleset") ? zo_record_str(c, "ruleset") : "every rule set");
      fprintf(f, "</td><td class=\"%s\">%s</td><td>", pass ? "skip" : "fail",
              pass ? "names no case of the run" : "passes now (xpass)");
      zo_report_xml_text(f, zo_record_str(c, "reason"));
      fputs("</td></tr>\n", f);
    }
  }
  fputs("</table>\n", f);
}

/* Since the baseline (--baseline): the cases failing now that did not
 * there, and those passing now that failed there. */
static void baseline_changes(FILE *f, const zo_digest *d) {
  fputs("<h2 id=\"baseline\">Since the baseline</h2>\n<p>Compared with <code>", f);
  zo_report_xml_text(f, d->baseline);
  fprintf(f, "</code>: %zu newly failing, %zu fixed.</p>\n", json_array_size(d->newly_failing),
          json_array_size(d->fixed));
  json_t *lists[2] = {d->newly_failing, d->fixed};
  const char *ids[2] = {"newly-failing", "fixed"};
  for (int k = 0; k < 2; k++) {
    if (!json_array_size(lists[k])) continue;
    fprintf(f, "<table id=\"%s\"><tr><th>%s</th><th>rule set</th><th>was</th><th>now</th></tr>\n", ids[k],
            k ? "fixed" : "newly failing");
    size_t i;
    json_t *c;
    json_array_foreach(lists[k], i, c) {
      const char *st = zo_record_str(c, "status"), *was = zo_record_str(c, "was");
      fputs("<tr><td><code>", f);
      case_link(f, c, zo_record_str(c, "id"));
      fputs("</code></td><td>", f);
      zo_report_xml_text(f, zo_record_str(c, "ruleset"));
      fprintf(f, "</td><td class=\"%s\">", status_class(was));
      zo_report_xml_text(f, was);
      fprintf(f, "</td><td class=\"%s\">%s</td></tr>\n", status_class(st), st);
    }
    fputs("</table>\n", f);
  }
}

/* The game a rule set belongs to: its id up to the first '-' ("mtg-2011"
 * -> "mtg"), into buf. */
static void game_of(const char *rs, char *buf, size_t cap) {
  const char *dash = strchr(rs, '-');
  snprintf(buf, cap, "%.*s", dash ? (int)(dash - rs) : (int)strlen(rs), rs);
}

/* Map key of (rule set, rule). */
static void cell_key(const char *rs, const char *rule, char *buf, size_t cap) {
  snprintf(buf, cap, "%s\x1f%s", rs, rule);
}

/* One pass over the cases: for each (rule set, cited rule), counts by
 * status and up to three cases to link to. */
static json_t *matrix_cells(json_t *cases) {
  json_t *cells = json_object();
  size_t i, j;
  json_t *c, *r;
  char key[512];
  json_array_foreach(cases, i, c) {
    const char *st = status_class(zo_record_str(c, "status"));
    json_array_foreach(json_object_get(c, "rules"), j, r) {
      const char *rule = json_string_value(r);
      if (!rule) continue;
      cell_key(zo_record_str(c, "ruleset"), rule, key, sizeof key);
      json_t *cell = json_object_get(cells, key);
      if (!cell) {
        cell = json_pack("{s:i,s:i,s:i,s:i,s:[]}", "pass", 0, "fail", 0, "skip", 0, "gap", 0, "links");
        json_object_set_new(cells, key, cell);
      }
      json_object_set_new(cell, st, json_integer(json_integer_value(json_object_get(cell, st)) + 1));
      json_t *links = json_object_get(cell, "links");
      if (json_array_size(links) < 3) json_array_append(links, c);
      else json_object_set_new(cell, "more", json_integer(json_integer_value(json_object_get(cell, "more")) + 1));
    }
  }
  return cells;
}

/* The conformance matrix of one game: its declared rule sets as columns,
 * the union of their rules as rows (first-seen order). */
static void matrix(FILE *f, json_t *details, json_t *declared, const char *game, json_t *cells) {
  json_t *cols = json_array(), *rows = json_array(), *seen = json_object(), *has = json_object();
  size_t i, j;
  json_t *d, *r;
  char g[64], key[512];
  json_array_foreach(details, i, d) {
    const char *id = zo_record_str(d, "id");
    game_of(id, g, sizeof g);
    if (strcmp(g, game) || !json_object_get(declared, id)) continue;
    json_array_append(cols, d);
    json_array_foreach(json_object_get(d, "rules"), j, r) {
      const char *rule = zo_record_str(r, "id");
      cell_key(id, rule, key, sizeof key);
      json_object_set(has, key, r); /* the rule set's entry for the rule */
      if (json_object_get(seen, rule)) continue;
      json_object_set_new(seen, rule, json_true());
      json_array_append(rows, r);
    }
  }
  if (!json_array_size(cols)) goto out;
  fprintf(f, "<details class=\"matrix\"><summary>Conformance matrix, %s: %zu rules x %zu rule sets"
             "</summary>\n<table id=\"matrix-%s\"><tr><th>rule</th><th>what it says</th>",
          game, json_array_size(rows), json_array_size(cols), game);
  json_array_foreach(cols, i, d) {
    fputs("<th>", f);
    zo_report_xml_text(f, zo_record_str(d, "id"));
    fputs("</th>", f);
  }
  fputs("</tr>\n", f);
  json_array_foreach(rows, i, r) {
    const char *rule = zo_record_str(r, "id");
    fputs(json_is_true(json_object_get(r, "seed")) ? "<tr><td class=\"seed\">" : "<tr><td>", f);
    zo_report_xml_text(f, rule);
    fputs("</td><td>", f);
    zo_report_xml_text(f, zo_record_str(r, "text"));
    fputs("</td>", f);
    json_array_foreach(cols, j, d) {
      const char *rs = zo_record_str(d, "id");
      cell_key(rs, rule, key, sizeof key);
      if (!json_object_get(has, key)) {
        fputs("<td class=\"na\"></td>", f);
        continue;
      }
      json_t *cell = json_object_get(cells, key);
      json_t *entry = cell ? NULL : json_object_get(has, key);
      const char *out = json_string_value(json_object_get(entry, "out_of_scope"));
      const char *gap = json_string_value(json_object_get(entry, "language_gap"));
      if (!cell && (out || gap)) {
        /* accounted for without a case: the reason, in the rule set's words */
        fprintf(f, "<td class=\"none\" title=\"");
        zo_report_xml_text(f, out ? out : gap);
        fprintf(f, "\">%s</td>", out ? "out of scope" : "language gap");
        continue;
      }
      if (!cell) {
        fputs("<td class=\"none\">no case</td>", f);
        continue;
      }
      const char *cls = json_integer_value(json_object_get(cell, "fail")) ? "fail"
                        : json_integer_value(json_object_get(cell, "pass")) ? "pass"
                        : json_integer_value(json_object_get(cell, "gap"))  ? "gap"
                                                                            : "skip";
      fprintf(f, "<td class=\"cell %s\">", cls);
      size_t k;
      json_t *c;
      json_array_foreach(json_object_get(cell, "links"), k, c) {
        case_link(f, c, zo_record_str(c, "status"));
        fputc(' ', f);
      }
      long long more = json_integer_value(json_object_get(cell, "more"));
      if (more) fprintf(f, "+%lld", more);
      fputs("</td>", f);
    }
    fputs("</tr>\n", f);
  }
  fputs("</table></details>\n", f);
out:
  json_decref(cols);
  json_decref(rows);
  json_decref(seen);
  json_decref(has);
}

/* The scenario a case result belongs to: an era file's id without its
 * ".RULESET" suffix ("mtg/eras/x.mtg-2004" -> "mtg/eras/x"), any other
 * case its id (a case of several rule sets is one scenario already). */
static void scenario_of(const char *id, char *buf, size_t cap) {
  const char *dot = strrchr(id, '.');
  if (dot && zo_ruleset_find(dot + 1)) snprintf(buf, cap, "%.*s", (int)(dot - id), id);
  else snprintf(buf, cap, "%s", id);
}

/* Era scenarios side by side: every scenario that ran under two or more
 * rule sets, one row, a column per rule set of the run. */
static void era_scenarios(FILE *f, zo_record *rec, json_t *declared) {
  json_t *byid = json_object(), *order = json_array();
  size_t i;
  json_t *c;
  char stem[512];
  json_array_foreach(rec->cases, i, c) {
    if (!json_object_get(declared, zo_record_str(c, "ruleset"))) continue;
    scenario_of(zo_record_str(c, "id"), stem, sizeof stem);
    json_t *row = json_object_get(byid, stem);
    if (!row) {
      row = json_object();
      json_object_set_new(byid, stem, row);
      json_array_append_new(order, json_string(stem));
    }
    json_object_set(row, zo_record_str(c, "ruleset"), c);
  }
  json_t *rsl = json_object_get(rec->header, "rulesets"), *rsn;
  int shown = 0;
  json_t *name;
  json_array_foreach(order, i, name) {
    json_t *row = json_object_get(byid, json_string_value(name));
    if (json_object_size(row) < 2) continue;
    if (!shown++) {
      fputs("<h2 id=\"eras\">Scenarios across rule sets</h2>\n<p>A scenario written once per era "
            "(or one case naming several rule sets), with each rule set's result.</p>\n"
            "<table id=\"scenarios\"><tr><th>scenario</th>", f);
      size_t k;
      json_array_foreach(rsl, k, rsn) {
        if (!json_object_get(declared, json_string_value(rsn))) continue;
        fputs("<th>", f);
        zo_report_xml_text(f, json_string_value(rsn));
        fputs("</th>", f);
      }
      fputs("</tr>\n", f);
    }
    fputs("<tr><td><code>", f);
    zo_report_xml_text(f, json_string_value(name));
    fputs("</code></td>", f);
    size_t k;
    json_array_foreach(rsl, k, rsn) {
      if (!json_object_get(declared, json_string_value(rsn))) continue;
      json_t *cr = json_object_get(row, json_string_value(rsn));
      if (!cr) {
        fputs("<td class=\"na\"></td>", f);
        continue;
      }
      const char *st = zo_record_str(cr, "status");
      fprintf(f, "<td class=\"cell %s\">", status_class(st));
      case_link(f, cr, st);
      fputs("</td>", f);
    }
    fputs("</tr>\n", f);
  }
  if (shown) fputs("</table>\n", f);
  json_decref(byid);
  json_decref(order);
}

static void switches(FILE *f, json_t *details, json_t *declared) {
  size_t i, j;
  json_t *d;
  fputs("<details><summary>Switches of each rule set, with their rules</summary>\n", f);
  json_array_foreach(details, i, d) {
    if (!json_object_get(declared, zo_record_str(d, "id"))) continue;
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
  fputs("</details>\n", f);
}

/* Every case, one collapsed section per rule set (rows the matrix and the
 * tables above link to). */
static void case_lists(FILE *f, zo_record *rec, const zo_digest *d) {
  json_t *rsl = json_object_get(rec->header, "rulesets"), *rsn;
  json_t *groups = json_object();
  size_t i, j;
  json_t *c;
  json_array_foreach(rec->cases, i, c) {
    const char *rs = zo_record_str(c, "ruleset");
    if (zo_record_undeclared(rec, rs)) continue; /* the one line at the top */
    json_t *g = json_object_get(groups, rs);
    if (!g) json_object_set_new(groups, rs, g = json_array());
    json_array_append(g, c);
  }
  /* the run's rule sets in its order, then any other a result names */
  json_t *order = json_array();
  json_array_foreach(rsl, i, rsn) if (json_object_get(groups, json_string_value(rsn)))
    json_array_append(order, rsn);
  const char *k;
  json_t *v;
  json_object_foreach(groups, k, v) {
    int listed = 0;
    json_array_foreach(order, j, rsn) listed |= !strcmp(json_string_value(rsn), k);
    if (!listed) json_array_append_new(order, json_string(k));
  }
  fputs("<h2 id=\"cases\">Cases</h2>\n", f);
  json_array_foreach(order, i, rsn) {
    json_t *g = json_object_get(groups, json_string_value(rsn));
    fputs("<details><summary>", f);
    zo_report_xml_text(f, json_string_value(rsn));
    fprintf(f, ": %zu cases</summary>\n<table class=\"cases\"><tr><th>case</th><th>status</th>"
               "<th>rules</th><th>detail</th></tr>\n", json_array_size(g));
    json_array_foreach(g, j, c) {
      fputs("<tr id=\"", f);
      html_id(f, zo_record_str(c, "ruleset"), zo_record_str(c, "id"));
      fputs("\"><td><code>", f);
      zo_report_xml_text(f, zo_record_str(c, "id"));
      fputs("</code> ", f);
      zo_report_xml_text(f, zo_record_str(c, "title"));
      const char *st = zo_record_str(c, "status");
      fprintf(f, "</td><td class=\"%s\">%s</td><td>", status_class(st), st);
      zo_report_rules(f, c, zo_report_xml_text);
      fputs("</td><td>", f);
      if (strcmp(st, "pass")) {
        char *msg = zo_digest_message(d, c);
        zo_report_xml_text(f, msg);
        free(msg);
      }
      fputs("</td></tr>\n", f);
    }
    fputs("</table></details>\n", f);
  }
  json_decref(order);
  json_decref(groups);
}

void zo_report_html_body(FILE *f, zo_record *rec) {
  zo_digest d;
  zo_digest_make(rec, &d);
  const char *verdict = zo_digest_verdict(&d);
  char counts[256];
  zo_digest_counts(&d, counts, sizeof counts);
  fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>zoneoracle: ", f);
  zo_report_xml_text(f, verdict);
  fputs("</title>\n", f);
  if (*zo_record_str(rec->header, "run_id")) { /* the report set's run (report.h) */
    fputs("<meta name=\"zoneoracle-run\" content=\"", f);
    zo_report_xml_text(f, zo_record_str(rec->header, "run_id"));
    fputs("\">\n", f);
  }
  fputs("<style>\n"
        "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}\n"
        "table{border-collapse:collapse;margin:.5em 0 1.5em}\n"
        "th,td{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}\n"
        "th{background:#f2f2f2}\n"
        ".verdict{padding:.4em .8em;border-radius:4px;display:inline-block;font-size:18px}\n"
        ".v-failing{background:#e57373;color:#fff}.v-passing{background:#c8f0c8}.v-none{background:#ddd}\n"
        "td.pass{background:#c8f0c8}td.fail{background:#f6b8b8}td.skip{background:#f4e8a8}\n"
        "td.gap{background:#e0d0f4}td.none{color:#999}td.na{background:#f4f4f4}\n"
        "td.cell a{color:inherit;text-decoration:none;font-size:12px}\n"
        "tr.msg td{border-top:none;background:#fafafa}pre{margin:0;white-space:pre-wrap}\n"
        "tr.msg p{margin:0}p.rerun code{user-select:all}\n"
        "details{margin:.3em 0}summary{cursor:pointer;font-weight:bold}\n"
        "code{font-size:12px}.seed{font-weight:bold}\n"
        "details.ttable{margin-left:1em}details.tobj{margin-left:1.5em}.by{color:#666;font-weight:normal}\n"
        "table.transitions td{font-size:12px}\n"
        "</style></head><body>\n", f);
  fprintf(f, "<h1>zoneoracle: <span class=\"verdict %s\">", !strcmp(verdict, "failing") ? "v-failing"
                                                           : !strcmp(verdict, "passing") ? "v-passing"
                                                                                          : "v-none");
  zo_report_xml_text(f, verdict);
  fputs("</span></h1>\n<p id=\"totals\"><b>", f);
  zo_report_xml_text(f, counts);
  fputs("</b>. Engine <b>", f);
  zo_report_xml_text(f, zo_record_str(rec->header, "engine"));
  fputc(' ', f);
  zo_report_xml_text(f, zo_record_str(rec->header, "engine_version"));
  fputs("</b>, suite commit <code>", f);
  zo_report_xml_text(f, zo_record_str(rec->header, "suite_commit"));
  fputs("</code>, started ", f);
  zo_report_xml_text(f, zo_record_str(rec->header, "started"));
  fputs(".</p>\n", f);
  char undeclared[1024];
  zo_digest_undeclared_line(&d, undeclared, sizeof undeclared);
  if (*undeclared) { /* one line, never a row per case */
    fputs("<p id=\"undeclared\">", f);
    zo_report_xml_text(f, undeclared);
    fputs(" (skipped, not listed).</p>\n", f);
  }
  size_t i;
  if (json_array_size(d.failing)) {
    fprintf(f, "<h2 id=\"failing\">Failing (%zu)</h2>\n", json_array_size(d.failing));
    problem_table(f, rec, &d, d.failing, "failures");
  }
  stderr_common(f, &d);
  if (d.invalid) {
    fprintf(f, "<h2 id=\"invalid\">Invalid case files (%zu)</h2>\n<table id=\"invalid-files\">"
               "<tr><th>file</th><th>error</th></tr>\n", d.invalid);
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
  if (*d.baseline) baseline_changes(f, &d);
  if (json_array_size(d.gaps)) {
    fprintf(f, "<h2 id=\"gaps\">Known gaps (%zu, --expect-failures)</h2>\n", json_array_size(d.gaps));
    problem_table(f, rec, &d, d.gaps, "known-gaps");
  }
  stale_table(f, rec);
  if (json_object_size(d.skips)) {
    fprintf(f, "<h2 id=\"skipped\">Skipped (%lld), by reason</h2>\n", d.skipped - d.undeclared);
    if (d.undeclared)
      fprintf(f, "<p>Besides the %lld cases under rule sets the engine doesn't declare (above).</p>\n",
              d.undeclared);
    fputs("<table id=\"skips\"><tr><th>reason</th><th>cases</th></tr>\n", f);
    const char *why;
    json_t *n;
    json_object_foreach(d.skips, why, n) {
      fputs("<tr><td>", f);
      zo_report_xml_text(f, why);
      fprintf(f, "</td><td>%lld</td></tr>\n", json_integer_value(n));
    }
    fputs("</table>\n", f);
  }
  /* the rule sets the run declared (gate: the engine's), and their games */
  json_t *declared = json_object(), *games = json_array(), *rsn;
  char g[64];
  json_array_foreach(json_object_get(rec->header, "rulesets"), i, rsn) {
    const char *rs = json_string_value(rsn);
    if (!rs || json_object_get(d.undeclared_by, rs)) continue; /* the engine's only */
    json_object_set_new(declared, rs, json_true());
    game_of(rs, g, sizeof g);
    int known = 0;
    size_t k;
    json_t *x;
    json_array_foreach(games, k, x) known |= !strcmp(json_string_value(x), g);
    if (!known) json_array_append_new(games, json_string(g));
  }
  era_scenarios(f, rec, declared);
  fputs("<h2 id=\"rules\">Rules</h2>\n<p>Each cell: the cases of that rule set citing the rule "
        "(green all pass, red any fails, violet known gap, yellow skipped, \"no case\" none; an "
        "empty grey cell: not a rule of that rule set). Bold rules are numbered in a seed text. "
        "Cells link to the cases.</p>\n", f);
  json_t *cells = matrix_cells(rec->cases), *details = json_object_get(rec->header, "ruleset_details");
  json_array_foreach(games, i, rsn) matrix(f, details, declared, json_string_value(rsn), cells);
  json_decref(cells);
  switches(f, details, declared);
  zo_report_html_tables(f, rec);
  case_lists(f, rec, &d);
  fputs("</body></html>\n", f);
  json_decref(declared);
  json_decref(games);
  zo_digest_free(&d);
}

zo_status zo_report_render_html(const char *jsonl, const char *path, zo_error *err) {
  return zo_report_render(jsonl, path, err, zo_report_html_body);
}
