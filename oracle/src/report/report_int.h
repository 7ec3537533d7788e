/* report_int.h: what the report layer's files share (private to report/).
 * report.h is the layer's interface. */
#ifndef ZO_REPORT_INT_H
#define ZO_REPORT_INT_H

#include <jansson.h>
#include <stdio.h>

#include "report.h"

/* A run record read back (ci/protocol/run-record.schema.json): every
 * line's JSON object, owned by the record (zo_record_free). */
typedef struct {
  json_t *header, *footer;
  json_t *cases;        /* array of case objects */
  json_t *invalid;      /* array */
  json_t *unknown_gaps; /* array: known gaps naming no case of the run */
} zo_record;

/* Read the run record at path, checking its shape (zo.h,
 * zo_report_read_cases): ZO_ERR_IO "cannot open: why" or "read error", or
 * ZO_ERR_SCHEMA "not a run record: why" with err naming path and the
 * line; nothing to free on error. */
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
/* Path out without trailing slashes split into its parent ("." for none)
 * and last component, both new strings the caller frees; -1 (nothing
 * made) when out names no directory one can make ("", "/", ".", ".."). */
int zo_report_split_path(const char *out, char **parent, char **base);

/* s as XML (and HTML) text or attribute value (valid UTF-8 in, markup
 * escaped, characters XML forbids dropped or replaced). */
void zo_report_xml_text(FILE *f, const char *s);
/* s in a Markdown table cell ('|' escaped, line breaks as spaces). */
void zo_report_md_cell(FILE *f, const char *s);
/* The rules case line c (a run record's) cites, ", " between, each
 * written by put (zo_report_xml_text or zo_report_md_cell). */
void zo_report_rules(FILE *f, const struct json_t *c, void (*put)(FILE *f, const char *s));
/* Read the record at jsonl and write the report at path through body,
 * whole or not at all (record.c). */
zo_status zo_report_render(const char *jsonl, const char *path, zo_error *err,
                           void (*body)(FILE *f, zo_record *rec));
/* The same from a record already read (rec borrowed). */
zo_status zo_report_render_rec(zo_record *rec, const char *path, zo_error *err,
                               void (*body)(FILE *f, zo_record *rec));

/* The HTML page's body for rec (render_html.c). */
void zo_report_html_body(FILE *f, zo_record *rec);
/* The page's transition tables (table_html.c): a heading, then one
 * collapsed section per rule set of rec's header that the oracle knows
 * (zo_ruleset_find), its table built by run/table.h (each cell a game of
 * the model); nothing when it knows none. */
void zo_report_html_tables(FILE *f, zo_record *rec);

/* What every report opens with, from one pass over a record: the totals
 * of its footer, the cases that make the run fail (fail, error, crash,
 * timeout, xpass), the expected failures, and the skips counted by reason
 * (first-seen order). The arrays hold references to rec's case objects;
 * zo_digest_free drops them (the record must outlive the digest). */
typedef struct {
  long long passed, failed, errors, skipped, xfailed, xpassed;
  long long not_run; /* case files a --max-fail stop left out */
  size_t invalid;
  json_t *failing, *gaps; /* arrays of case objects */
  json_t *skips;          /* object: reason -> count */
  const char *baseline;   /* the record's baseline file, "" without --baseline */
  json_t *newly_failing, *fixed; /* arrays: failing now and not there, and
                                    passing now and failing there */
  long long undeclared;   /* skips under rule sets the engine does not declare
                             (the header's undeclared_rulesets): in skipped,
                             yet never in skips nor listed case by case */
  json_t *undeclared_by;  /* object: such rule set -> its cases */
  int undeclared_rs;      /* those of them with a case */
  json_t *undeclared_order; /* the header's undeclared_rulesets (borrowed) */
  json_t *stderr_common;  /* array: the lines of the engine's stderr found in
                             two or more of the failing cases and known gaps
                             (a start-up banner), first-seen order */
  json_t *stderr_seen;    /* object: those lines -> true */
} zo_digest;
void zo_digest_make(zo_record *rec, zo_digest *d);
void zo_digest_free(zo_digest *d);
/* "failing" (a failing case or an invalid case file), "passing" (something
 * passed, nothing failed) or "no verdict"; static storage. */
const char *zo_digest_verdict(const zo_digest *d);
/* The totals for people, into buf (cap bytes): "2 failing · 412 passed ·
 * 6 known gaps · 30 skipped" (parts that are zero left out, passed always
 * shown). */
void zo_digest_counts(const zo_digest *d, char *buf, size_t cap);
/* Whether a case's status word makes the run fail (fail, error, crash,
 * timeout, xpass). */
int zo_report_failing_status(const char *status);
/* Why a skipped case was skipped: its message without the file:line and
 * "skipped: " (storage of c). */
const char *zo_record_skip_reason(json_t *c);
/* Whether rule set rs is one the engine of rec does not declare (the
 * header's undeclared_rulesets). */
int zo_record_undeclared(zo_record *rec, const char *rs);
/* "663 cases under 5 rule sets this engine doesn't declare: fab (134),
 * mtg-1999 (127)" into buf (cap bytes), "" when there are none. */
void zo_digest_undeclared_line(const zo_digest *d, char *buf, size_t cap);
/* The engine's stderr of case c without the lines of d->stderr_common,
 * a last line saying how many were left out; NULL when c has none. The
 * caller frees. */
char *zo_digest_stderr_own(const zo_digest *d, json_t *c);
/* Case c's message without the stderr lines of d->stderr_common its end
 * quotes (zo_report_message_dedup). The caller frees. */
char *zo_digest_message(const zo_digest *d, json_t *c);
/* The command that reruns case c alone as the run ran it (the header's
 * rerun, then --ruleset RS FILE, quoted for a POSIX shell), or NULL when
 * the record has no rerun. The caller frees. */
char *zo_record_rerun(zo_record *rec, json_t *c);

#endif
