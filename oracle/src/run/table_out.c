/* table_out.c: the transition table (table.h) as plain text and as
 * Markdown, from the JSON zo_table_build makes. The HTML report renders
 * the same JSON (report/table_html.c). */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "table.h"

static const char *str(const json_t *o, const char *k) {
  const char *s = json_string_value(json_object_get(o, k));
  return s ? s : "";
}

static void join(FILE *f, const json_t *a, const char *sep) {
  size_t i;
  json_t *v;
  if (!json_array_size(a)) fputs("-", f);
  json_array_foreach(a, i, v) fprintf(f, "%s%s", i ? sep : "", json_string_value(v));
}

/* The strings of array a joined with sep into f ("-" when empty). */
static void join(FILE *f, const json_t *a, const char *sep);

/* A row's outcome: "stayed (token_left)", "moved, then ceased at the state
 * check", and what the same move by a rule does where it differs ("; by a
 * rule: cleared to owner.graveyard as a new object (also FaB 3.0.12)": the
 * rules beyond the effect's). */
static void outcome(FILE *f, const json_t *row) {
  fputs(str(row, "outcome"), f);
  if (*str(row, "error")) fprintf(f, " (%s)", str(row, "error"));
  if (*str(row, "state_check")) fprintf(f, ", then %s at the state check", str(row, "state_check"));
  const json_t *br = json_object_get(row, "by_rule");
  if (!br) return;
  fprintf(f, "; by a rule: %s", str(br, "outcome"));
  if (*str(br, "error")) fprintf(f, " (%s)", str(br, "error"));
  if (*str(br, "ends_in")) fprintf(f, " to %s", str(br, "ends_in"));
  if (json_is_true(json_object_get(br, "new_object"))) fputs(" as a new object", f);
  size_t i, j, n = 0; /* the rules the effect's move did not apply */
  json_t *r, *q;
  json_array_foreach(json_object_get(br, "rules"), i, r) {
    int seen = 0;
    json_array_foreach(json_object_get(row, "rules"), j, q) seen |= json_equal(q, r);
    if (!seen) fprintf(f, "%s%s", n++ ? ", " : " (also ", json_string_value(r));
  }
  if (n) fputs(")", f);
}

/* Where it ends up: "there (top)", "gone". */
static void ends_in(FILE *f, const json_t *row) {
  const char *e = str(row, "ends_in");
  fputs(*e ? e : "gone", f);
  if (*str(row, "position")) fprintf(f, " (%s)", str(row, "position"));
}

/* "yes"/"no" for new_object, "-" when it is gone. */
static const char *is_new(const json_t *row) {
  const json_t *n = json_object_get(row, "new_object");
  return !n ? "-" : json_is_true(n) ? "yes" : "no";
}

/* The rules, each switch name after them: "CR 400.7 (new_object)". */
static void rules(FILE *f, const json_t *row) {
  join(f, json_object_get(row, "rules"), ", ");
  if (json_array_size(json_object_get(row, "by"))) {
    fputs(" [", f);
    join(f, json_object_get(row, "by"), ", ");
    fputs("]", f);
  }
}

/* The object's heading words: "kind card, types creature, face down". */
static void object_words(FILE *f, const json_t *o) {
  fprintf(f, "kind %s", str(o, "kind"));
  if (json_array_size(json_object_get(o, "types"))) {
    fputs(", types ", f);
    join(f, json_object_get(o, "types"), " ");
  }
  size_t i;
  json_t *s;
  json_array_foreach(json_object_get(o, "status"), i, s) fprintf(f, ", %s", json_string_value(s));
}

void zo_table_write_text(const json_t *t, FILE *f) {
  fprintf(f, "Transition table of %s: %s\n%lld cells in %lld rows.\n", str(t, "ruleset"), str(t, "title"),
          (long long)json_integer_value(json_object_get(t, "cells")),
          (long long)json_integer_value(json_object_get(t, "rows")));
  const char *k;
  json_t *v;
  json_object_foreach(json_object_get(t, "legend"), k, v) fprintf(f, "  %s: %s\n", k, json_string_value(v));
  size_t i, j;
  json_t *o, *row;
  json_array_foreach(json_object_get(t, "objects"), i, o) {
    fprintf(f, "\n== %s (", str(o, "object"));
    object_words(f, o);
    fputs(")\n", f);
    if (*str(o, "same_as")) {
      fprintf(f, "  same as %s\n", str(o, "same_as"));
      continue;
    }
    const json_t *last = NULL;
    json_array_foreach(json_object_get(o, "rows"), j, row) {
      if (!last || !json_equal(last, json_object_get(row, "from"))) {
        fputs("  from ", f);
        join(f, json_object_get(row, "from"), ", ");
        fputs("\n", f);
      }
      last = json_object_get(row, "from");
      fputs("    to ", f);
      join(f, json_object_get(row, "to"), ", ");
      fputs("\n      ", f);
      outcome(f, row);
      fprintf(f, "; new object: %s; ends in: ", is_new(row));
      ends_in(f, row);
      if (*str(row, "sees")) {
        fprintf(f, "; sees: %s; controller: %s; keeps: ", str(row, "sees"), str(row, "controller"));
        join(f, json_object_get(row, "keeps"), ", ");
      }
      fputs("\n      rules: ", f);
      rules(f, row);
      fputs("\n", f);
    }
    json_array_foreach(json_object_get(o, "unreachable"), j, row)
      fprintf(f, "  not from %s: %s\n", str(row, "from"), str(row, "why"));
  }
}

/* s in a Markdown table cell: '|' escaped. */
static void md(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '|') fputc('\\', f);
    fputc(*s == '\n' ? ' ' : *s, f);
  }
}

void zo_table_write_markdown(const json_t *t, FILE *f) {
  fprintf(f, "# Transition table of %s\n\n%s. %lld cells in %lld rows.\n\n", str(t, "ruleset"), str(t, "title"),
          (long long)json_integer_value(json_object_get(t, "cells")),
          (long long)json_integer_value(json_object_get(t, "rows")));
  const char *k;
  json_t *v;
  json_object_foreach(json_object_get(t, "legend"), k, v) fprintf(f, "- **%s**: %s\n", k, json_string_value(v));
  size_t i, j;
  json_t *o, *org, *row;
  json_array_foreach(json_object_get(t, "objects"), i, o) {
    fprintf(f, "\n## %s\n\n", str(o, "object"));
    object_words(f, o);
    fputs(".", f);
    if (*str(o, "same_as")) {
      fprintf(f, " Same as %s.\n", str(o, "same_as"));
      continue;
    }
    fputs("\n\n| from | to | outcome | new object | ends in | sees | controller | keeps | rules |\n"
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n", f);
    json_array_foreach(json_object_get(o, "rows"), j, row) {
      fputs("| ", f);
      join(f, json_object_get(row, "from"), ", ");
      fputs(" | ", f);
      join(f, json_object_get(row, "to"), ", ");
      fputs(" | ", f);
      outcome(f, row);
      fprintf(f, " | %s | ", is_new(row));
      ends_in(f, row);
      fprintf(f, " | %s | %s | ", *str(row, "sees") ? str(row, "sees") : "-",
              *str(row, "controller") ? str(row, "controller") : "-");
      join(f, json_object_get(row, "keeps"), ", ");
      fputs(" | ", f);
      rules(f, row);
      fputs(" |\n", f);
    }
    json_array_foreach(json_object_get(o, "unreachable"), j, org) {
      fprintf(f, "%s- not from %s: ", j ? "" : "\n", str(org, "from"));
      md(f, str(org, "why"));
      fputs("\n", f);
    }
  }
}
