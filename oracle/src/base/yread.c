/* yread.c: typed reading of a ydoc tree, with the loaders' errors
 * (yread.h). */
#include "yread.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "util.h"

zo_status yr_failv(yr_reader *r, const yd_node *at, zo_status code, const char *fmt,
                   va_list ap) {
  char msg[480];
  vsnprintf(msg, sizeof msg, fmt, ap);
  yd_fail(r->err, r->doc, at ? at : r->doc->root, code, "%s", msg);
  zo_error_note(r->err, "%s", r->note);
  return code;
}

zo_status yr_fail(yr_reader *r, const yd_node *at, zo_status code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  yr_failv(r, at, code, fmt, ap);
  va_end(ap);
  return code;
}

zo_status yr_unknown(yr_reader *r, const yd_node *at, zo_status code, const char *what,
                     const char *word, const char *where, const char *const *valid, size_t n) {
  const char *near = zo_nearest(word, valid, n);
  char list[360];
  zo_join(list, sizeof list, valid, n);
  return yr_fail(r, at, code, "unknown %s '%s'%s%s (%s%s%sexpected one of: %s)", what, word,
                 where ? " in " : "", where ? where : "", near ? "did you mean '" : "",
                 near ? near : "", near ? "'? " : "", list);
}

int yr_index(const char *word, const char *const *words, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(word, words[i]) == 0) return (int)i;
  return -1;
}

zo_status yr_keys(yr_reader *r, const yd_node *m, zo_status code, const char *const *keys,
                  size_t nkeys, const char *where) {
  for (size_t i = 0; i < m->n; i++) {
    const yd_node *k = YD_KEY(m, i);
    if (yr_index(k->str, keys, nkeys) < 0)
      return yr_unknown(r, k, code, "key", k->str, where, keys, nkeys);
  }
  return ZO_OK;
}

zo_status yr_want(yr_reader *r, const yd_node *n, yd_kind k, const char *what) {
  static const char *const kinds[] = {"a single value", "a map", "a list"};
  if (!n) return yr_fail(r, NULL, ZO_ERR_SCHEMA, "missing %s", what);
  if (n->kind != k || (k == YD_SCALAR && yd_is_null(n)))
    return yr_fail(r, n, ZO_ERR_SCHEMA, "expected %s for %s", kinds[k], what);
  return ZO_OK;
}

zo_status yr_int(yr_reader *r, const yd_node *n, const char *what, int lo, int hi, int *out) {
  zo_status st = yr_want(r, n, YD_SCALAR, what);
  if (st) return st;
  char *end;
  long v = strtol(n->str, &end, 10);
  if (!n->plain || *end || end == n->str || v < lo || v > hi)
    return yr_fail(r, n, ZO_ERR_SCHEMA, "expected a whole number %d..%d for %s", lo, hi, what);
  *out = (int)v;
  return ZO_OK;
}

zo_status yr_bool(yr_reader *r, const yd_node *n, const char *what, int *out) {
  zo_status st = yr_want(r, n, YD_SCALAR, what);
  if (st) return st;
  if (n->plain && !strcmp(n->str, "true")) *out = 1;
  else if (n->plain && !strcmp(n->str, "false")) *out = 0;
  else return yr_fail(r, n, ZO_ERR_SCHEMA, "expected true or false for %s", what);
  return ZO_OK;
}

zo_status yr_name(yr_reader *r, const yd_node *n, const char *what, char *buf, size_t cap) {
  zo_status st = yr_want(r, n, YD_SCALAR, what);
  if (st) return st;
  if (strlen(n->str) >= cap)
    return yr_fail(r, n, ZO_ERR_SCHEMA, "%s is longer than %zu characters", what, cap - 1);
  snprintf(buf, cap, "%s", n->str);
  return ZO_OK;
}
