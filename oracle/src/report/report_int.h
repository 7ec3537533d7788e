/* report_int.h: what the report layer's files share (private to report/).
 * report.h is the layer's interface. */
#ifndef ZO_REPORT_INT_H
#define ZO_REPORT_INT_H

#include <jansson.h>
#include <stdio.h>

#include "report.h"

/* A run record read back: every line's JSON object, owned by the record
 * (zo_record_free). A record without a header or footer line gets empty
 * objects for them. */
typedef struct {
  json_t *header, *footer;
  json_t *cases;   /* array of case objects */
  json_t *invalid; /* array */
} zo_record;

/* Read the run record at path. ZO_ERR_IO (err: path, the line and column,
 * "cannot open" or "not a run record line") and nothing to free on error. */
zo_status zo_record_read(const char *path, zo_record *rec, zo_error *err);
void zo_record_free(zo_record *rec);
/* Member k of object o as a string; "" when absent or not a string.
 * Storage owned by o. */
const char *zo_record_str(json_t *o, const char *k);

/* Fill err as an I/O error on path: "what: strerror(errno)"; returns
 * ZO_ERR_IO. */
zo_status zo_report_io_fail(zo_error *err, const char *path, const char *what);
/* The same with a message of its own. */
zo_status zo_report_io_msg(zo_error *err, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* "a/b" in a new string (the caller frees). */
char *zo_report_join_path(const char *a, const char *b);

/* s as XML (and HTML) text or attribute value (valid UTF-8 in, markup
 * escaped, characters XML forbids dropped or replaced). */
void zo_report_xml_text(FILE *f, const char *s);
/* s in a Markdown table cell ('|' escaped, line breaks as spaces). */
void zo_report_md_cell(FILE *f, const char *s);
/* Read the record at jsonl and write the report at path through body,
 * whole or not at all. */
zo_status zo_report_render(const char *jsonl, const char *path, zo_error *err,
                           void (*body)(FILE *f, zo_record *rec));

#endif
