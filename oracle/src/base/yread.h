/* yread.h: typed reading of a ydoc tree for the loaders built on it (the
 * case parser, case/, and the rule set parser, rules/): one value of the
 * kind a key wants, whole numbers in a range, true/false, bounded names,
 * and the "unknown WORD (did you mean ...? expected one of: ...)" error,
 * each refused at the node's file:line:column. The wording is the one the
 * loaders' messages have always had (oracle/tests/malformed/expected.tsv
 * pins it). */
#ifndef ZO_YREAD_H
#define ZO_YREAD_H

#include <stdarg.h>
#include <stddef.h>

#include "ydoc.h"

/* One document being read: where its errors go, and what is being read. */
typedef struct yr_reader {
  const yd_doc *doc; /* the document (its file name and root); not owned */
  zo_error *err;     /* the caller's, or NULL */
  char note[160];    /* every error's note ("while reading card 'x'"), or "" */
} yr_reader;

/* Fill r->err with code and a printf message (cut at 479 bytes) at node
 * at, or at the document's root when at is NULL (a key not written: the
 * caller names the map it is missing from), and r->note as its note.
 * Returns code. */
zo_status yr_fail(yr_reader *r, const yd_node *at, zo_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* The same with a va_list. */
zo_status yr_failv(yr_reader *r, const yd_node *at, zo_status code, const char *fmt,
                   va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 0)))
#endif
    ;

/* "unknown WHAT 'word'[ in WHERE] ([did you mean 'x'? ]expected one of: a,
 * b, ...)" at node at, with code: x is the nearest of the n valid words
 * (zo_nearest), the list cut with "..." past 359 bytes. Returns code. */
zo_status yr_unknown(yr_reader *r, const yd_node *at, zo_status code, const char *what,
                     const char *word, const char *where, const char *const *valid, size_t n);

/* Every key of map m is one of keys[0..nkeys): otherwise the first other
 * key is refused (yr_unknown "key", in WHERE) with code. */
zo_status yr_keys(yr_reader *r, const yd_node *m, zo_status code, const char *const *keys,
                  size_t nkeys, const char *where);

/* n is a node of kind k (a scalar: not null): otherwise ZO_ERR_SCHEMA,
 * "missing WHAT" (n NULL, at the root) or "expected a single value / a map
 * / a list for WHAT". */
zo_status yr_want(yr_reader *r, const yd_node *n, yd_kind k, const char *what);

/* A plain whole number lo..hi into *out; otherwise ZO_ERR_SCHEMA naming
 * the range. */
zo_status yr_int(yr_reader *r, const yd_node *n, const char *what, int lo, int hi, int *out);

/* Plain true or false into *out (1 or 0); otherwise ZO_ERR_SCHEMA. */
zo_status yr_bool(yr_reader *r, const yd_node *n, const char *what, int *out);

/* A scalar copied into buf (cap bytes with its NUL); one of cap bytes or
 * more is refused (ZO_ERR_SCHEMA, naming the limit), never cut. */
zo_status yr_name(yr_reader *r, const yd_node *n, const char *what, char *buf, size_t cap);

/* Index of word in words[0..n), or -1. */
int yr_index(const char *word, const char *const *words, size_t n);

#endif
