/* table_group.c: the cells of the transition table (table.c) grouped
 * into rows: the positions of one ordered zone merged where they say the
 * same, then, per object, one row per result and set of origins, listing
 * the destinations that give it, rows of the same origins together. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "case.h"
#include "table_int.h"
#include "util.h"

/* Whether a cell put the object at the position destination d asked for
 * (past the end of the zone: at the bottom). */
static int as_asked(const json_t *cell, const tzone *d) {
  const char *e = json_string_value(json_object_get(cell, "ends_in"));
  const char *p = json_string_value(json_object_get(cell, "position"));
  if (!e || !p || (strcmp(e, "there") && strcmp(e, "the owner's instead"))) return 0;
  if (d->position == ZO_POS_TOP) return !strcmp(p, "top");
  if (d->position == ZO_POS_BOTTOM || d->position > 1) return !strcmp(p, "bottom");
  return p[0] == '#' && atoi(p + 1) == d->position;
}

/* cell without the keys that may differ between positions of one zone
 * (new reference). */
static json_t *strip(const json_t *cell) {
  json_t *c = json_deep_copy(cell);
  json_object_del(c, "position");
  json_object_del(c, "rules");
  json_object_del(c, "by");
  json_t *br = json_object_get(c, "by_rule");
  if (br) {
    json_object_del(br, "rules");
    json_object_del(br, "by");
  }
  return c;
}

/* Append the strings of `from` missing from `to`. */
static void union_into(json_t *to, const json_t *from) {
  size_t i, j;
  json_t *v, *w;
  json_array_foreach(from, i, v) {
    int dup = 0;
    json_array_foreach(to, j, w) dup |= json_equal(v, w);
    if (!dup) json_array_append(to, v);
  }
}

/* The cells of the n positions of one ordered zone (from cells[i]) as one
 * cell named after the zone when they say the same: all alike, or each
 * put where it was asked to be (position "as asked", the rules of all);
 * NULL otherwise. */
static json_t *merge_positions(const tzone *to, json_t *cells, int i, int n) {
  json_t *first = json_object_get(json_array_get(cells, (size_t)i), "cell");
  int same = 1, asked = 1;
  json_t *s0 = strip(first);
  for (int k = 0; k < n; k++) {
    json_t *c = json_object_get(json_array_get(cells, (size_t)(i + k)), "cell");
    same &= json_equal(c, first);
    asked &= as_asked(c, &to[i + k]);
    json_t *sk = strip(c);
    asked &= json_equal(sk, s0);
    json_decref(sk);
  }
  json_t *m = NULL;
  if (same) {
    m = json_deep_copy(first);
  } else if (asked) {
    m = s0;
    s0 = NULL;
    json_object_set_new(m, "position", json_string("as asked"));
    json_t *rules = json_array(), *by = json_array();
    for (int k = 0; k < n; k++) {
      json_t *c = json_object_get(json_array_get(cells, (size_t)(i + k)), "cell");
      union_into(rules, json_object_get(c, "rules"));
      union_into(by, json_object_get(c, "by"));
    }
    json_object_set_new(m, "rules", rules);
    json_object_set_new(m, "by", by);
    json_t *br = json_object_get(m, "by_rule");
    if (br) { /* the rules of each position's move by a rule */
      json_t *brules = json_array(), *bby = json_array();
      for (int k = 0; k < n; k++) {
        json_t *c = json_object_get(json_object_get(json_array_get(cells, (size_t)(i + k)), "cell"), "by_rule");
        union_into(brules, json_object_get(c, "rules"));
        union_into(bby, json_object_get(c, "by"));
      }
      json_object_set_new(br, "rules", brules);
      json_object_set_new(br, "by", bby);
    }
  }
  json_decref(s0);
  return m;
}

/* Add the cells of origin f (cells: [{cell}], one per destination) to
 * bykey: result -> {result, tos: {destination: [origins]}} (order: the
 * results in order of first appearance). The positions of one ordered
 * zone are merged where they say the same; the origin's own zone is
 * called "its own zone", so that moves to where an object is group
 * together. */
void zo_table_add_origin(const tzone *to, int nto, const tzone *f, const char *fname, json_t *cells,
                         json_t *bykey, json_t *order) {
  for (int d = 0; d < nto;) {
    int n = 1;
    while (d + n < nto && !strcmp(to[d + n].zone, to[d].zone)) n++;
    json_t *merged = n > 1 ? merge_positions(to, cells, d, n) : NULL;
    for (int k = 0; k < (merged ? 1 : n); k++) {
      const tzone *t = &to[d + k];
      json_t *cell = merged ? merged : json_object_get(json_array_get(cells, (size_t)(d + k)), "cell");
      char name[80];
      const char *zone = f && t->type == f->type && t->player == f->player && t->type >= 0 ? "its own zone" : t->zone;
      if (merged || !strcmp(t->name, t->zone)) snprintf(name, sizeof name, "%s", zone);
      else snprintf(name, sizeof name, "%s%s", zone, t->name + strlen(t->zone));
      char *key = json_dumps(cell, JSON_COMPACT | JSON_SORT_KEYS);
      json_t *e = json_object_get(bykey, key);
      if (!e) {
        e = json_pack("{s:O,s:{}}", "result", cell, "tos");
        json_object_set_new(bykey, key, e);
        json_array_append_new(order, json_string(key));
      }
      json_t *froms = json_object_get(json_object_get(e, "tos"), name);
      if (!froms) json_object_set_new(json_object_get(e, "tos"), name, froms = json_array());
      json_array_append_new(froms, json_string(fname));
      free(key);
    }
    json_decref(merged);
    d += n;
  }
}

/* A row and where it goes when rows are sorted by their origins. */
typedef struct { json_t *row; size_t group, index; } sort_row;

static int sort_row_cmp(const void *a, const void *b) {
  const sort_row *x = a, *y = b;
  if (x->group != y->group) return x->group < y->group ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* rows (taken) sorted so that rows with the same origins follow each
 * other, in order of their first appearance; a new array. */
static json_t *by_origins(json_t *rows) {
  size_t n = json_array_size(rows), i;
  sort_row *v = zo_xcalloc(n + 1, sizeof *v);
  json_t *first = json_object(), *row;
  json_array_foreach(rows, i, row) {
    char *k = json_dumps(json_object_get(row, "from"), JSON_COMPACT);
    if (!json_object_get(first, k)) json_object_set_new(first, k, json_integer((json_int_t)i));
    v[i].row = row;
    v[i].group = (size_t)json_integer_value(json_object_get(first, k));
    v[i].index = i;
    free(k);
  }
  qsort(v, n, sizeof *v, sort_row_cmp);
  json_t *out = json_array();
  for (i = 0; i < n; i++) json_array_append(out, v[i].row);
  free(v);
  json_decref(first);
  json_decref(rows);
  return out;
}

/* The rows of one object: for each result, its destinations grouped by
 * the origins they share ({from: [...], to: [...], result...}), rows of
 * the same origins together. */
json_t *zo_table_rows(json_t *bykey, json_t *order) {
  json_t *rows = json_array();
  size_t i;
  json_t *k;
  json_array_foreach(order, i, k) {
    json_t *e = json_object_get(bykey, json_string_value(k)), *byfrom = json_object();
    const char *to;
    json_t *froms;
    json_object_foreach(json_object_get(e, "tos"), to, froms) {
      char *fk = json_dumps(froms, JSON_COMPACT);
      json_t *row = json_object_get(byfrom, fk);
      if (!row) {
        row = json_pack("{s:O,s:[]}", "from", froms, "to");
        json_object_update(row, json_object_get(e, "result"));
        json_array_append_new(rows, row);
        json_object_set(byfrom, fk, row);
      }
      json_array_append_new(json_object_get(row, "to"), json_string(to));
      free(fk);
    }
    json_decref(byfrom);
  }
  return by_origins(rows);
}

