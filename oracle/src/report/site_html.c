/* site_html.c: the pages of the results site (site.c reads the records):
 * index.html (conformance table, trend plot as inline SVG, where engines
 * disagree, every run) and one page per engine and version (its failing
 * cases in full). Plain HTML with inline CSS: no script, nothing fetched,
 * every record string escaped by zo_report_xml_text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"
#include "site_int.h"
#include "util.h"

/* Conformance, the one definition every page uses: of the cases that ran
 * (any status but skip), those that behaved as the rules say (pass,
 * xpass). */
static long long ran_of(const long long *c) {
  long long n = 0;
  for (int i = 0; i < NSTATUS; i++) n += i == ZO_SITE_SKIP ? 0 : c[i];
  return n;
}
static long long ok_of(const long long *c) { return c[ZO_SITE_PASS] + c[ZO_SITE_XPASS]; }
static long long failing_of(const long long *c) {
  return c[ZO_SITE_FAIL] + c[ZO_SITE_ERROR] + c[ZO_SITE_CRASH] + c[ZO_SITE_TIMEOUT];
}

/* "96.2%": one decimal, never 100.0% unless every case conformed, nor
 * 0.0% when one did. */
static void put_pct(FILE *f, long long ok, long long ran) {
  double p = 100.0 * (double)ok / (double)ran;
  if (ok < ran && p > 99.9) p = 99.9;
  if (ok > 0 && p < 0.1) p = 0.1;
  fprintf(f, "%.1f%%", p);
}

/* A table cell of counts c: the percentage on a colour from red (80% and
 * below) through yellow to green (100%), the counts under it. */
static void pct_cell(FILE *f, const long long *c, const char *href) {
  long long ran = ran_of(c), ok = ok_of(c);
  if (!ran) {
    fprintf(f, "<td class=\"pct none\" title=\"nothing ran (%lld skipped)\">&#8212;</td>", c[ZO_SITE_SKIP]);
    return;
  }
  double p = 100.0 * (double)ok / (double)ran, t = (p - 80) / 20;
  int hue = ok == ran ? 130 : (int)(105 * (t < 0 ? 0 : t > 1 ? 1 : t));
  fprintf(f, "<td class=\"pct\" style=\"background:hsl(%d,60%%,82%%)\" title=\"%lld of %lld cases that ran "
             "conform; %lld skipped\">", hue, ok, ran, c[ZO_SITE_SKIP]);
  if (href) fprintf(f, "<a href=\"%s\">", href);
  fputs("<b>", f);
  put_pct(f, ok, ran);
  fputs("</b>", f);
  if (href) fputs("</a>", f);
  fprintf(f, "<small>%lld / %lld</small>", ok, ran);
  if (c[ZO_SITE_SKIP]) fprintf(f, "<small>%lld skipped</small>", c[ZO_SITE_SKIP]);
  fputs("</td>", f);
}

/* s in a fragment: every byte outside [A-Za-z0-9./-] as "_XX", so two
 * strings never share one. */
static void esc(FILE *f, const char *s) {
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if ((*p >= '0' && *p <= '9') || ((*p | 32) >= 'a' && (*p | 32) <= 'z') || *p == '.' || *p == '/' || *p == '-')
      fputc(*p, f);
    else
      fprintf(f, "_%02X", *p);
  }
}

/* The fragment of a case: PREFIX RULESET "~" ID (esc'd). */
static void anchor(FILE *f, const char *prefix, const char *rs, const char *id) {
  fputs(prefix, f);
  esc(f, rs);
  fputc('~', f);
  esc(f, id);
}

/* The CSS class of a status. */
static const char *st_class(int st) {
  if (zo_site_conforms(st)) return "st-pass";
  if (st == ZO_SITE_SKIP) return "st-skip";
  if (st == ZO_SITE_XFAIL) return "st-gap";
  return "st-fail";
}

/* Whether an engine page has a row for a case of status st. */
static int has_row(int st) { return st != ZO_SITE_PASS && st != ZO_SITE_SKIP; }

static void text(FILE *f, const char *s) { zo_report_xml_text(f, s); }

/* A file path, escaped, a line may break after each '/'. */
static void text_path(FILE *f, const char *s) {
  const char *slash;
  while ((slash = strchr(s, '/'))) {
    char part[256];
    size_t n = (size_t)(slash - s) + 1;
    if (n >= sizeof part) n = zo_utf8_cut(s, n, sizeof part - 1);
    memcpy(part, s, n);
    part[n] = 0;
    text(f, part);
    if (s[n - 1] == '/') fputs("<wbr>", f);
    s += n;
  }
  text(f, s);
}

/* The first max bytes of s (cut on a character boundary), escaped. */
static void text_cut(FILE *f, const char *s, size_t max) {
  char buf[128];
  size_t n = zo_utf8_cut(s, strlen(s), max < sizeof buf ? max : sizeof buf - 1);
  memcpy(buf, s, n);
  buf[n] = 0;
  text(f, buf);
  if (n < strlen(s) && max > 12) fputs("&#8230;", f);
}

/* A page's head: its title (a and b, escaped) and the style sheet. */
static void page_open(FILE *f, const char *a, const char *b) {
  fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n"
        "<meta name=\"generator\" content=\"zoneoracle site\">\n<title>", f);
  text(f, a);
  if (*b) fputc(' ', f);
  text(f, b);
  fputs(" &#183; zone rules conformance</title>\n<style>\n"
        "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#1d2329;background:#f5f6f8}\n"
        "header{background:#1f2d3a;color:#e9eef3;padding:18px 32px 14px}\n"
        "header h1{font-size:24px;margin:0 0 4px;font-weight:600;color:#fff}\n"
        "header p{margin:2px 0;color:#b9c6d2}header a{color:#9ccaff}header b{color:#fff}\n"
        ".ver{font-weight:400;color:#b9c6d2}\n"
        "main{padding:6px 32px 48px}\n"
        "h2{font-size:18px;margin:30px 0 6px;padding-bottom:4px;border-bottom:2px solid #dfe4ea}\n"
        "h3{font-size:15px;margin:20px 0 4px}\n"
        ".note{color:#55616d;max-width:920px;margin:4px 0 10px}\n"
        "table{border-collapse:collapse;background:#fff;margin:6px 0 16px;box-shadow:0 1px 3px rgba(20,30,40,.08)}\n"
        "th,td{border:1px solid #e1e5ea;padding:5px 9px;text-align:left;vertical-align:top}\n"
        "th{background:#eef1f5;font-weight:600;font-size:13px;white-space:nowrap}\n"
        "th small,td small{display:block;font-weight:400;color:#55616d;font-size:11px}\n"
        "td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
        "td.pct{text-align:center;min-width:70px;font-variant-numeric:tabular-nums}\n"
        "td.pct a{color:inherit;text-decoration:none}td.none{color:#9aa4ae;background:#f7f8fa}\n"
        ".st-pass{background:#d5f0d8}.st-fail{background:#f9cdcd}.st-skip{background:#f6ecbf}\n"
        ".st-gap{background:#e5d9f6}.st-none{color:#9aa4ae;background:#f7f8fa}\n"
        "td.st-pass,td.st-fail,td.st-skip,td.st-gap,td.st-none{text-align:center}\n"
        "td a{color:#174f96}\n"
        ".title{color:#55616d;font-size:12px;max-width:420px}\n"
        "code,pre{font:12px/1.4 ui-monospace,'DejaVu Sans Mono',monospace}\n"
        "pre{margin:0;white-space:pre-wrap;word-break:break-word}\n"
        "code.where{overflow-wrap:anywhere}\n"
        "tr.msg td{border-top:none;background:#fafbfc;color:#3b4550}\n"
        ".tag{display:inline-block;margin:1px 4px 1px 0;padding:0 6px;border-radius:9px;font-size:12px;"
        "color:#1d2329;text-decoration:none;white-space:nowrap}\n"
        ".rules span{display:inline-block;margin:1px 6px 1px 0;padding:0 6px;background:#e8edf3;"
        "border-radius:3px;font-size:12px;cursor:help}\n"
        "svg{max-width:100%;height:auto;background:#fff;box-shadow:0 1px 3px rgba(20,30,40,.08)}\n"
        "details summary{cursor:pointer;color:#174f96}\n"
        "</style></head><body>\n", f);
}

/* The rule sets some row ran, in name order: indices, -1 ended. */
static int *ruleset_columns(zo_site *s) {
  size_t n = json_array_size(s->rs_names);
  int *cols = zo_xmalloc((n + 1) * sizeof *cols), k = 0;
  for (size_t i = 0; i < n; i++) {
    int used = 0;
    for (int w = 0; w < s->nrows && !used; w++)
      if ((int)i < s->rows[w]->ncnt)
        for (int st = 0; st < NSTATUS; st++) used |= s->rows[w]->cnt[i][st] != 0;
    if (used) cols[k++] = (int)i;
  }
  cols[k] = -1;
  /* insertion sort by name (a handful of rule sets) */
  for (int i = 1; i < k; i++)
    for (int j = i; j > 0 && strcmp(json_string_value(json_array_get(s->rs_names, (size_t)cols[j - 1])),
                                     json_string_value(json_array_get(s->rs_names, (size_t)cols[j]))) > 0; j--) {
      int t = cols[j];
      cols[j] = cols[j - 1];
      cols[j - 1] = t;
    }
  return cols;
}

static const char *rs_name(zo_site *s, int i) { return json_string_value(json_array_get(s->rs_names, (size_t)i)); }

/* ---- index.html ------------------------------------------------------------ */

static void conformance_table(FILE *f, zo_site *s, const int *cols) {
  fputs("<h2 id=\"conformance\">Conformance</h2>\n<p class=\"note\"><b>Conformance</b> = cases that "
        "behaved as the rules say (<i>pass</i>, or <i>xpass</i>: a known gap that now passes) &#247; "
        "cases that ran (every status but <i>skip</i>: <i>fail</i>, <i>error</i>, <i>crash</i>, "
        "<i>timeout</i> and known gaps count against). Skipped cases (features an engine does not "
        "declare) are counted apart and left out. One row per engine and version: its newest run.</p>\n"
        "<table id=\"conformance-table\"><tr><th>engine</th><th>version</th><th>run started</th>"
        "<th>all rule sets</th>", f);
  for (int i = 0; cols[i] >= 0; i++) {
    fputs("<th>", f);
    text(f, rs_name(s, cols[i]));
    fputs("</th>", f);
  }
  int gaps = 0;
  for (int w = 0; w < s->nrows; w++) gaps |= s->rows[w]->tot[ZO_SITE_XFAIL] != 0;
  fprintf(f, "<th>failing</th>%s<th>skipped</th></tr>\n", gaps ? "<th>known gaps</th>" : "");
  for (int w = 0; w < s->nrows; w++) {
    zo_site_run *r = s->rows[w];
    fprintf(f, "<tr><td><a href=\"%s\"><b>", r->page);
    text(f, r->engine);
    fputs("</b></a></td><td>", f);
    text(f, r->version);
    fputs("</td><td><small>", f);
    text(f, r->started);
    fputs("</small></td>", f);
    pct_cell(f, r->tot, r->page);
    for (int i = 0; cols[i] >= 0; i++) {
      static const long long none[NSTATUS];
      pct_cell(f, cols[i] < r->ncnt ? r->cnt[cols[i]] : none, NULL);
    }
    long long bad = failing_of(r->tot);
    if (bad) fprintf(f, "<td class=\"num\"><a href=\"%s#failing\">%lld</a>", r->page, bad);
    else fputs("<td class=\"num\">0", f);
    if (json_array_size(r->invalid)) fprintf(f, "<small>+ %zu invalid case files</small>", json_array_size(r->invalid));
    fputs("</td>", f);
    if (gaps) fprintf(f, "<td class=\"num\">%lld</td>", r->tot[ZO_SITE_XFAIL]);
    fprintf(f, "<td class=\"num\">%lld</td></tr>\n", r->tot[ZO_SITE_SKIP]);
  }
  fputs("</table>\n", f);
}

static const char *const palette[] = {"#1f6fb2", "#d1495b", "#2e9e5b", "#8e5cc4",
                                      "#e08a1e", "#6b4f3a", "#d45fa6", "#1aa3b5"};
#define NPALETTE (sizeof palette / sizeof palette[0])

/* The plot's geometry: width, margins, the plot area's height. */
enum { PLOT_W = 880, PLOT_L = 58, PLOT_R = 20, PLOT_T = 16, PLOT_H = 240, PLOT_B = 52, LEGEND_COLS = 4 };
/* 100% is this far under the plot's top edge, so a line there stays visible */
enum { PLOT_PAD = 12 };

/* The trend plot: x the runs in time order (equal steps), y conformance
 * from a floor under the lowest point to 100%, one polyline and its
 * points per engine (each point's run in its <title>), and a legend. */
static void trend(FILE *f, zo_site *s) {
  fputs("<h2 id=\"trend\">Trend</h2>\n<p class=\"note\">Each engine's conformance in every run, all "
        "its versions on one line, runs left to right in the order they started. Hover a point for "
        "its run.</p>\n", f);
  double lo = 100;
  for (int i = 0; i < s->nruns; i++) {
    long long ran = ran_of(s->runs[i].tot);
    if (ran && 100.0 * (double)ok_of(s->runs[i].tot) / (double)ran < lo)
      lo = 100.0 * (double)ok_of(s->runs[i].tot) / (double)ran;
  }
  double ymin = lo - 1 >= 95 ? 95 : lo - 1 >= 90 ? 90 : lo - 1 >= 80 ? 80 : lo - 1 >= 50 ? 50 : 0;
  const int pw = PLOT_W - PLOT_L - PLOT_R, n = s->nruns;
  int height = PLOT_T + PLOT_H + PLOT_B + (s->nengines + LEGEND_COLS - 1) / LEGEND_COLS * 22 + 8;
  fprintf(f, "<svg id=\"trend-plot\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\" "
             "aria-labelledby=\"trend-title\" font-family=\"system-ui,sans-serif\" font-size=\"11\" fill=\"#3b4550\">\n"
             "<title id=\"trend-title\">Conformance per run, one line per engine</title>\n"
             "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fbfcfd\" stroke=\"#c9d0d7\"/>\n",
          PLOT_W, height, PLOT_W, height, PLOT_L, PLOT_T, pw, PLOT_H);
  for (int k = 0; k <= 5; k++) {
    double y = PLOT_T + PLOT_H - k * (PLOT_H - PLOT_PAD) / 5.0;
    fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e7ec\"/>"
               "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g%%</text>\n",
            PLOT_L, PLOT_L + pw, y, y, PLOT_L - 6, y + 4, ymin + k * (100 - ymin) / 5);
  }
  fprintf(f, "<text transform=\"rotate(-90)\" x=\"%d\" y=\"14\" text-anchor=\"middle\">conformance</text>\n",
          -(PLOT_T + PLOT_H / 2));
  int step = (n + 7) / 8; /* at most eight labels */
  for (int i = 0; i < n; i += step) {
    double x = PLOT_L + pw * (i + 0.5) / n;
    const char *t = s->runs[i].started;
    fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#9aa4ae\"/>"
               "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", x, x, PLOT_T + PLOT_H, PLOT_T + PLOT_H + 4,
            x, PLOT_T + PLOT_H + 17);
    text_cut(f, t, 10); /* the date, then the time below it */
    fprintf(f, "<tspan x=\"%.1f\" dy=\"13\">", x);
    if (strlen(t) > 11) text_cut(f, t + 11, 5);
    fputs("</tspan></text>\n", f);
  }
  fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">runs, oldest to newest (started, UTC)</text>\n",
          PLOT_L + pw / 2, PLOT_T + PLOT_H + 46);
  for (int e = 0; e < s->nengines; e++) {
    const char *color = palette[(size_t)e % NPALETTE], *dash = (size_t)e >= NPALETTE ? " stroke-dasharray=\"7 4\"" : "";
    fprintf(f, "<g class=\"engine\"><polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2.2\"%s points=\"", color, dash);
    int first = 1;
    long long last_ok = 0, last_ran = 0; /* the engine's newest run, for the legend */
    for (int pass = 0; pass < 2; pass++) { /* the line, then its points on top */
      for (int i = 0; i < n; i++) {
        zo_site_run *r = &s->runs[i];
        long long ran = ran_of(r->tot), ok = ok_of(r->tot);
        if (r->engine_ix != e || !ran) continue;
        double x = PLOT_L + pw * (i + 0.5) / n, p = 100.0 * (double)ok / (double)ran;
        double y = PLOT_T + PLOT_PAD + (PLOT_H - PLOT_PAD) * (100 - p) / (100 - ymin);
        last_ok = ok;
        last_ran = ran;
        if (!pass) {
          fprintf(f, "%s%.1f,%.1f", first ? "" : " ", x, y);
          first = 0;
          continue;
        }
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" stroke=\"#fff\" stroke-width=\"1.5\"><title>", x, y, color);
        text(f, r->engine);
        fputc(' ', f);
        text(f, r->version);
        fputs(", ", f);
        text(f, r->started);
        fputs(": ", f);
        put_pct(f, ok, ran);
        fprintf(f, " (%lld / %lld)</title></circle>", ok, ran);
      }
      if (!pass) fputs("\"/>\n", f);
    }
    fputs("</g>\n", f);
    int col = e % LEGEND_COLS, lrow = e / LEGEND_COLS;
    int lx = PLOT_L + col * (pw / LEGEND_COLS), ly = PLOT_T + PLOT_H + PLOT_B + lrow * 22 + 8;
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"18\" height=\"4\" rx=\"2\" fill=\"%s\"/><text x=\"%d\" y=\"%d\" "
               "font-size=\"12\">", lx, ly - 2, color, lx + 24, ly + 3);
    text_cut(f, json_string_value(s->engines[e]), 30);
    if (last_ran) {
      fputs(" <tspan fill=\"#6b7682\">", f);
      put_pct(f, last_ok, last_ran);
      fputs("</tspan>", f);
    }
    fputs("</text>\n", f);
  }
  fputs("</svg>\n", f);
}

/* A status cell of row w for case key: linking to that engine's row of it. */
static void status_cell(FILE *f, zo_site *s, int w, int key) {
  int st = zo_site_status(s, w, key);
  if (st < 0) {
    fputs("<td class=\"st-none\" title=\"not in this run\">&#8212;</td>", f);
    return;
  }
  fprintf(f, "<td class=\"%s\">", st_class(st));
  json_t *c = zo_site_line(s, w, key);
  if (c && has_row(st)) {
    fprintf(f, "<a href=\"%s", s->rows[w]->page);
    anchor(f, "#c-", zo_record_str(c, "ruleset"), zo_record_str(c, "id"));
    fprintf(f, "\">%s</a></td>", zo_site_status_word(st));
  } else {
    fprintf(f, "%s</td>", zo_site_status_word(st));
  }
}

/* A case line of some row for key (they all name the same case). */
static json_t *some_line(zo_site *s, int key) {
  for (int w = 0; w < s->nrows; w++) {
    json_t *c = zo_site_line(s, w, key);
    if (c) return c;
  }
  return NULL;
}

/* The cited rules of case line c, each with its text as a tooltip. */
static void rule_tags(FILE *f, zo_site *s, json_t *c) {
  size_t i;
  json_t *x;
  json_array_foreach(json_object_get(c, "rules"), i, x) {
    const char *rule = json_string_value(x);
    if (!rule) continue;
    const char *t = json_string_value(json_object_get(s->rule_text, zo_site_pair(s, zo_record_str(c, "ruleset"), rule)));
    fputs("<span", f);
    if (t) {
      fputs(" title=\"", f);
      text(f, t);
      fputc('"', f);
    }
    fputc('>', f);
    text(f, rule);
    fputs("</span>", f);
  }
}

/* Where engines disagree, rule set by rule set: the rules those cases
 * cite, then one row per case with each row's status. */
static void disagreements(FILE *f, zo_site *s, const int *cols) {
  fprintf(f, "<h2 id=\"disagreements\">Where engines disagree (%d case%s)</h2>\n<p class=\"note\">Cases "
             "that one engine or version passes and another fails, among the runs of the table above "
             "(a skip is no disagreement). A status links to that engine's page, where the failure is "
             "shown in full.</p>\n", s->ndis, s->ndis == 1 ? "" : "s");
  if (s->nrows < 2) fputs("<p>One engine version only: nothing to compare.</p>\n", f);
  else if (!s->ndis) fputs("<p>None: every case ran by two or more of them has the same outcome.</p>\n", f);
  json_t *rules = json_object();
  for (int i = 0; s->ndis && cols[i] >= 0; i++) {
    int rs = cols[i], count = 0;
    json_object_clear(rules);
    for (size_t k = 0; k < s->nkeys; k++) {
      if (s->key_rs[k] != rs || !s->dis[k]) continue;
      count++;
      size_t j;
      json_t *x, *c = some_line(s, (int)k);
      json_array_foreach(json_object_get(c, "rules"), j, x) if (json_is_string(x)) {
        json_t *n = json_object_get(rules, json_string_value(x));
        json_object_set_new(rules, json_string_value(x), json_integer(json_integer_value(n) + 1));
      }
    }
    if (!count) continue;
    fputs("<h3 id=\"dis-", f);
    esc(f, rs_name(s, rs));
    fputs("\">", f);
    text(f, rs_name(s, rs));
    fprintf(f, ": %d case%s</h3>\n<p class=\"rules\">Rules cited: ", count, count == 1 ? "" : "s");
    const char *rule;
    json_t *n;
    json_object_foreach(rules, rule, n) {
      const char *t = json_string_value(json_object_get(s->rule_text, zo_site_pair(s, rs_name(s, rs), rule)));
      fputs("<span title=\"", f);
      text(f, t ? t : "");
      fputs("\">", f);
      text(f, rule);
      if (json_integer_value(n) > 1) fprintf(f, " &#215;%lld", (long long)json_integer_value(n));
      fputs("</span>", f);
    }
    fputs("</p>\n<table class=\"dis\"><tr><th>case</th><th>rules</th>", f);
    for (int w = 0; w < s->nrows; w++) {
      fprintf(f, "<th><a href=\"%s\">", s->rows[w]->page);
      text(f, s->rows[w]->engine);
      fputs("</a><small>", f);
      text(f, s->rows[w]->version);
      fputs("</small></th>", f);
    }
    fputs("</tr>\n", f);
    for (size_t k = 0; k < s->nkeys; k++) {
      if (s->key_rs[k] != rs || !s->dis[k]) continue;
      json_t *c = some_line(s, (int)k);
      fputs("<tr id=\"", f);
      anchor(f, "d-", zo_record_str(c, "ruleset"), zo_record_str(c, "id"));
      fputs("\"><td><code>", f);
      text(f, zo_record_str(c, "id"));
      fputs("</code><div class=\"title\">", f);
      text(f, zo_record_str(c, "title"));
      fputs("</div></td><td class=\"rules\">", f);
      rule_tags(f, s, c);
      fputs("</td>", f);
      for (int w = 0; w < s->nrows; w++) status_cell(f, s, w, (int)k);
      fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
  }
  json_decref(rules);
}

/* Every run (of engine only, when not NULL), newest first. */
static void runs_table(FILE *f, zo_site *s, const char *engine, const zo_site_run *self) {
  fputs("<table class=\"runs\"><tr><th>started</th><th>engine</th><th>version</th><th>conformance</th>"
        "<th>passed</th><th>failing</th><th>known gaps</th><th>skipped</th><th>invalid files</th>"
        "<th>run record</th></tr>\n", f);
  for (int i = s->nruns - 1; i >= 0; i--) {
    zo_site_run *r = &s->runs[i];
    if (engine && strcmp(r->engine, engine)) continue;
    fputs(r == self ? "<tr class=\"st-pass\"><td>" : "<tr><td>", f);
    text(f, r->started);
    fputs("</td><td>", f);
    if (r->page) fprintf(f, "<a href=\"%s\">", r->page);
    text(f, r->engine);
    fputs(r->page ? "</a></td><td>" : "</td><td>", f);
    text(f, r->version);
    fputs("</td>", f);
    pct_cell(f, r->tot, NULL);
    fprintf(f, "<td class=\"num\">%lld</td><td class=\"num\">%lld</td><td class=\"num\">%lld</td><td class=\"num\">"
               "%lld</td><td class=\"num\">%zu</td><td><code class=\"where\">", ok_of(r->tot), failing_of(r->tot),
            r->tot[ZO_SITE_XFAIL], r->tot[ZO_SITE_SKIP], json_array_size(r->invalid));
    text_path(f, r->shown);
    fputs("</code>", f);
    if (r->page && r != self) fputs("<small>the newest of its version</small>", f);
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
}

void zo_site_index_page(FILE *f, zo_site *s, zo_site_run *unused) {
  (void)unused;
  page_open(f, "Engines", "");
  int *cols = ruleset_columns(s);
  fprintf(f, "<header><h1>Zone rules conformance</h1><p><b>%d</b> engine%s, <b>%d</b> engine version%s, "
             "<b>%d</b> run%s &#183; built by zoneoracle site " ZO_VERSION " from run records</p></header>\n<main>\n",
          s->nengines, s->nengines == 1 ? "" : "s", s->nrows, s->nrows == 1 ? "" : "s", s->nruns, s->nruns == 1 ? "" : "s");
  conformance_table(f, s, cols);
  trend(f, s);
  disagreements(f, s, cols);
  fputs("<h2 id=\"runs\">Runs</h2>\n", f);
  runs_table(f, s, NULL, NULL);
  fputs("</main></body></html>\n", f);
  free(cols);
}

/* ---- engine pages ---------------------------------------------------------- */

/* What the other rows did on case key: a tag each, linking to their row
 * of it, and to the index's comparison when they disagree. */
static void others(FILE *f, zo_site *s, int self, int key) {
  for (int w = 0; w < s->nrows; w++) {
    int st = zo_site_status(s, w, key);
    if (w == self || st < 0) continue;
    json_t *c = zo_site_line(s, w, key);
    if (c && has_row(st)) {
      fprintf(f, "<a class=\"tag %s\" href=\"%s", st_class(st), s->rows[w]->page);
      anchor(f, "#c-", zo_record_str(c, "ruleset"), zo_record_str(c, "id"));
      fputs("\">", f);
    } else {
      fprintf(f, "<span class=\"tag %s\">", st_class(st));
    }
    text(f, s->rows[w]->engine);
    fputc(' ', f);
    text(f, s->rows[w]->version);
    fprintf(f, ": %s%s", zo_site_status_word(st), c && has_row(st) ? "</a>" : "</span>");
  }
}

/* The cases of r with a status in want (a bit per status), in full. */
static void problem_table(FILE *f, zo_site *s, zo_site_run *r, unsigned want) {
  fputs("<table class=\"cases\"><tr><th>case</th><th>rule set</th><th>status</th><th>where</th><th>what</th>"
        "<th>expected</th><th>observed</th><th>other engines</th></tr>\n", f);
  for (size_t i = 0; i < r->ncases; i++) {
    zo_site_case *sc = &r->cases[i];
    if (!(want >> sc->st & 1u) || !sc->line) continue;
    json_t *c = sc->line;
    const char *rs = zo_record_str(c, "ruleset"), *id = zo_record_str(c, "id");
    fputs("<tr id=\"", f);
    anchor(f, "c-", rs, id);
    fputs("\"><td><code>", f);
    text(f, id);
    fputs("</code><div class=\"title\">", f);
    text(f, zo_record_str(c, "title"));
    fputs("</div></td><td>", f);
    text(f, rs);
    fprintf(f, "</td><td class=\"%s\">%s</td><td><code class=\"where\">", st_class(sc->st), zo_site_status_word(sc->st));
    text_path(f, zo_record_str(c, "file"));
    long long line = json_integer_value(json_object_get(c, "line")), step = json_integer_value(json_object_get(c, "step"));
    if (line) fprintf(f, ":%lld", line);
    fputs("</code>", f);
    if (step) fprintf(f, "<small>step %lld</small>", step);
    fputs("</td><td><code>", f);
    text(f, zo_record_str(c, "what"));
    fputs("</code></td><td class=\"st-pass\"><code>", f);
    text(f, zo_record_str(c, "expected"));
    fputs("</code></td><td class=\"st-fail\"><code>", f);
    text(f, zo_record_str(c, "observed"));
    fputs("</code></td><td>", f);
    others(f, s, r->row, sc->key);
    if (s->dis[sc->key]) {
      fputs("<a href=\"index.html", f);
      anchor(f, "#d-", rs, id);
      fputs("\">compare</a>", f);
    }
    fputs("</td></tr>\n<tr class=\"msg\"><td colspan=\"8\"><pre>", f);
    text(f, zo_record_str(c, "message"));
    fputs("</pre>", f);
    if (*zo_record_str(c, "stderr")) {
      fputs("<details><summary>the engine's stderr</summary><pre>", f);
      text(f, zo_record_str(c, "stderr"));
      fputs("</pre></details>", f);
    }
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
}

/* Skipped cases of r counted by reason, most frequent first. */
static void skips(FILE *f, zo_site_run *r) {
  if (!r->tot[ZO_SITE_SKIP]) return;
  json_t *why = json_object();
  for (size_t i = 0; i < r->ncases; i++)
    if (r->cases[i].st == ZO_SITE_SKIP) {
      const char *k = zo_record_skip_reason(r->cases[i].line);
      json_object_set_new(why, k, json_integer(json_integer_value(json_object_get(why, k)) + 1));
    }
  fprintf(f, "<h2 id=\"skipped\">Skipped (%lld), by reason</h2>\n<table><tr><th>reason</th><th>cases</th></tr>\n",
          r->tot[ZO_SITE_SKIP]);
  while (json_object_size(why)) { /* a few reasons: pick the largest each time */
    const char *k, *best = NULL;
    json_t *v;
    long long most = -1;
    json_object_foreach(why, k, v) if (json_integer_value(v) > most) {
      most = json_integer_value(v);
      best = k;
    }
    fputs("<tr><td>", f);
    text(f, best);
    fprintf(f, "</td><td class=\"num\">%lld</td></tr>\n", most);
    json_object_del(why, best);
  }
  fputs("</table>\n", f);
  json_decref(why);
}

void zo_site_engine_page(FILE *f, zo_site *s, zo_site_run *r) {
  page_open(f, r->engine, r->version);
  int *cols = ruleset_columns(s);
  long long ran = ran_of(r->tot), ok = ok_of(r->tot), bad = failing_of(r->tot);
  fputs("<header><p><a href=\"index.html\">&#8592; all engines</a></p><h1>", f);
  text(f, r->engine);
  fputs(" <span class=\"ver\">", f);
  text(f, r->version);
  fputs("</span></h1><p>Conformance <b>", f);
  if (ran) put_pct(f, ok, ran);
  else fputs("&#8212;", f);
  fprintf(f, "</b> (%lld of %lld cases that ran) &#183; <b>%lld</b> failing &#183; %lld known gaps &#183; "
             "%lld skipped</p><p>Run started ", ok, ran, bad, r->tot[ZO_SITE_XFAIL], r->tot[ZO_SITE_SKIP]);
  text(f, r->started);
  fputs(" &#183; suite commit <code>", f);
  text(f, zo_record_str(r->header, "suite_commit"));
  fputs("</code> &#183; record <code>", f);
  text(f, r->shown);
  fputs("</code></p></header>\n<main>\n<h2 id=\"by-ruleset\">By rule set</h2>\n<table><tr><th>rule set</th>"
        "<th>conformance</th><th>passed</th><th>failing</th><th>known gaps</th><th>skipped</th></tr>\n", f);
  for (int i = 0; cols[i] >= 0; i++) {
    if (cols[i] >= r->ncnt || !(ran_of(r->cnt[cols[i]]) + r->cnt[cols[i]][ZO_SITE_SKIP])) continue;
    const long long *c = r->cnt[cols[i]];
    fputs("<tr><td>", f);
    text(f, rs_name(s, cols[i]));
    fputs("</td>", f);
    pct_cell(f, c, NULL);
    fprintf(f, "<td class=\"num\">%lld</td><td class=\"num\">%lld</td><td class=\"num\">%lld</td>"
               "<td class=\"num\">%lld</td></tr>\n", ok_of(c), failing_of(c), c[ZO_SITE_XFAIL], c[ZO_SITE_SKIP]);
  }
  fputs("</table>\n", f);
  fprintf(f, "<h2 id=\"failing\">Failing (%lld)</h2>\n", bad);
  if (bad)
    problem_table(f, s, r, 1u << ZO_SITE_FAIL | 1u << ZO_SITE_ERROR | 1u << ZO_SITE_CRASH | 1u << ZO_SITE_TIMEOUT);
  else fputs("<p>None.</p>\n", f);
  if (r->tot[ZO_SITE_XFAIL]) {
    fprintf(f, "<h2 id=\"gaps\">Known gaps (%lld, --expect-failures)</h2>\n", r->tot[ZO_SITE_XFAIL]);
    problem_table(f, s, r, 1u << ZO_SITE_XFAIL);
  }
  if (r->tot[ZO_SITE_XPASS]) {
    fprintf(f, "<h2 id=\"xpass\">Known gaps that passed (%lld): conforming, yet they fail a gate</h2>\n",
            r->tot[ZO_SITE_XPASS]);
    problem_table(f, s, r, 1u << ZO_SITE_XPASS);
  }
  if (json_array_size(r->invalid)) {
    fprintf(f, "<h2 id=\"invalid\">Invalid case files (%zu)</h2>\n<table><tr><th>file</th><th>error</th></tr>\n",
            json_array_size(r->invalid));
    size_t i;
    json_t *inv;
    json_array_foreach(r->invalid, i, inv) {
      fputs("<tr><td><code class=\"where\">", f);
      text_path(f, zo_record_str(inv, "file"));
      fputs("</code></td><td><pre>", f);
      text(f, zo_record_str(inv, "message"));
      fputs("</pre></td></tr>\n", f);
    }
    fputs("</table>\n", f);
  }
  skips(f, r);
  fputs("<h2 id=\"runs\">Runs of ", f);
  text(f, r->engine);
  fputs("</h2>\n", f);
  runs_table(f, s, r->engine, r);
  fputs("</main></body></html>\n", f);
  free(cols);
}
