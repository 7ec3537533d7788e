/* ydoc.h: a small read-only YAML tree with source marks.
 *
 * libyaml's own document API resolves aliases silently and accepts duplicate
 * keys; a rule case must do neither. ydoc builds its tree from libyaml's
 * event stream, so it can refuse anchors, aliases, tags and duplicate keys
 * with a file:line:column, and every node keeps its 1-based position for the
 * errors of the loaders built on top (case/case_parse.c, rules/ruleset_load.c).
 */
#ifndef ZO_YDOC_H
#define ZO_YDOC_H

#include <stddef.h>

#include "zo.h"

typedef enum { YD_SCALAR, YD_MAP, YD_SEQ } yd_kind;

/* One node. Map nodes hold 2*n children (key, value, key, value...). */
typedef struct yd_node {
  yd_kind kind;
  int line, col;       /* 1-based */
  char *str;           /* scalar text (NUL-terminated), NULL otherwise */
  int plain;           /* scalar was unquoted (so `null`, `true`, `3` are typed) */
  struct yd_node **kids;
  size_t n;            /* scalar: 0; seq: items; map: pairs */
  size_t nk, cap;      /* kids stored / allocated (internal) */
} yd_node;

/* A parsed document: owns every node and string. */
typedef struct yd_doc {
  yd_node *root;
  char *file;          /* name used in messages (copied) */
  char sha256[65];     /* the SHA-256 of the bytes parsed, in hex (a rule
                          set's digest is made of it) */
} yd_doc;

/* Parse `len` bytes of YAML text. `file` names it in errors. Returns ZO_OK and
 * fills *out (free with yd_free), or an error status with err filled
 * (ZO_ERR_SYNTAX for malformed YAML, aliases, tags, duplicate keys, more than
 * one document, nesting deeper than 64). Never prints. */
zo_status yd_parse(const char *file, const char *text, size_t len, yd_doc *out,
                   zo_error *err);

/* Read and parse a file (ZO_ERR_IO if unreadable). */
zo_status yd_parse_file(const char *path, yd_doc *out, zo_error *err);

/* One UTF-8 character at s[0..n): its length (1..4) and code point in *cp,
 * or 0 when the bytes there are not UTF-8 (or n is 0). */
size_t yd_utf8_char(const unsigned char *s, size_t n, unsigned *cp);

/* Release a document; safe on a zeroed doc. */
void yd_free(yd_doc *doc);

/* Map lookup: the value node for `key`, or NULL. */
yd_node *yd_get(const yd_node *map, const char *key);

/* Key node and value node of pair i of a map. */
#define YD_KEY(m, i) ((m)->kids[2 * (i)])
#define YD_VAL(m, i) ((m)->kids[2 * (i) + 1])

/* True when a plain scalar reads as YAML null (`null`, `~`, empty). */
int yd_is_null(const yd_node *n);

/* Fill err with code, message and the node's position in doc. Returns code. */
zo_status yd_fail(zo_error *err, const yd_doc *doc, const yd_node *at,
                  zo_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#endif
