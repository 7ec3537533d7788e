/* yjson.c: ydoc trees <-> jansson values (yjson.h). */
#include "yjson.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

json_t *yd_to_json(const yd_node *n) {
  if (n->kind == YD_MAP) {
    json_t *o = json_object();
    for (size_t i = 0; i < n->n; i++)
      json_object_set_new(o, YD_KEY(n, i)->str, yd_to_json(YD_VAL(n, i)));
    return o;
  }
  if (n->kind == YD_SEQ) {
    json_t *a = json_array();
    for (size_t i = 0; i < n->n; i++) json_array_append_new(a, yd_to_json(n->kids[i]));
    return a;
  }
  if (n->plain) {
    if (yd_is_null(n)) return json_null();
    if (!strcmp(n->str, "true")) return json_true();
    if (!strcmp(n->str, "false")) return json_false();
    char *end;
    long long v = strtoll(n->str, &end, 10);
    if (*n->str && !*end && end != n->str) return json_integer(v);
  }
  return json_string(n->str);
}

char *yd_to_json_text(const yd_node *n) {
  json_t *j = yd_to_json(n);
  char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
  json_decref(j);
  return s ? s : zo_xstrdup("null");
}

yd_node *yd_from_json(json_t *j) {
  yd_node *n = zo_xcalloc(1, sizeof *n);
  n->line = n->col = 1;
  if (json_is_object(j)) {
    n->kind = YD_MAP;
    const char *k;
    json_t *v;
    n->kids = zo_xcalloc(2 * json_object_size(j) + 1, sizeof *n->kids);
    json_object_foreach(j, k, v) {
      yd_node *key = zo_xcalloc(1, sizeof *key);
      key->kind = YD_SCALAR;
      key->line = key->col = 1;
      key->str = zo_xstrdup(k);
      n->kids[n->nk++] = key;
      n->kids[n->nk++] = yd_from_json(v);
    }
    n->n = n->nk / 2;
  } else if (json_is_array(j)) {
    n->kind = YD_SEQ;
    size_t i;
    json_t *v;
    n->kids = zo_xcalloc(json_array_size(j) + 1, sizeof *n->kids);
    json_array_foreach(j, i, v) n->kids[n->nk++] = yd_from_json(v);
    n->n = n->nk;
  } else {
    char buf[64];
    n->kind = YD_SCALAR;
    n->plain = !json_is_string(j);
    if (json_is_string(j)) n->str = zo_xstrdup(json_string_value(j));
    else if (json_is_integer(j)) {
      snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(j));
      n->str = zo_xstrdup(buf);
    } else if (json_is_real(j)) {
      snprintf(buf, sizeof buf, "%g", json_real_value(j));
      n->str = zo_xstrdup(buf);
    } else n->str = zo_xstrdup(json_is_true(j) ? "true" : json_is_false(j) ? "false" : "null");
  }
  return n;
}
