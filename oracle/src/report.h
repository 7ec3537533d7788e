/* report.h: the run record (JSON Lines, the source of truth) and what is
 * rendered from it (JUnit XML, Markdown). Every file is written whole: to a
 * temporary file in the same directory, then renamed. */
#ifndef ZO_REPORT_H
#define ZO_REPORT_H

#include <stdio.h>

#include "runner.h"

typedef struct {
  const char *suite_commit;   /* git commit of the cases, or "unknown" */
  const char *engine, *engine_version;
  const char *const *rulesets; int nrulesets;
  const char *zoneoracle_version; /* the zoneoracle that ran it, or NULL (left out) */
} zo_run_header;

/* Whole or not at all, for every file zoneoracle writes: open
 * path.tmp.PID for writing (tmp receives its name; cap >= strlen(path) +
 * 32), write, then zo_report_commit closes it and renames it to path.
 * zo_report_open returns NULL (errno set) when the file can't be created.
 * zo_report_commit returns ZO_ERR_IO with err naming path when a write,
 * the close or the rename failed, and then removes the temporary file. */
FILE *zo_report_open(const char *path, char *tmp, size_t cap);
zo_status zo_report_commit(FILE *f, const char *tmp, const char *path, zo_error *err);

/* Write the run record: a header line, one line per case x rule set, a
 * footer. ZO_ERR_IO on failure (nothing is left half-written). */
zo_status zo_report_write_jsonl(const zo_run *run, const zo_run_header *h,
                                const char *path, zo_error *err);

/* The case lines of a run record, as a JSON array (new reference; a
 * jansson json_t *), or NULL with err naming file:line:column. */
struct json_t;
struct json_t *zo_report_read_cases(const char *jsonl, zo_error *err);

/* Render JUnit XML and Markdown from a run record file. */
zo_status zo_report_render_junit(const char *jsonl, const char *path, zo_error *err);
zo_status zo_report_render_markdown(const char *jsonl, const char *path, zo_error *err);
/* One self-contained HTML page (no scripts, no network): the conformance
 * matrix of rules x rule sets linking to each case, each rule set's switch
 * table with its citations, and the case list. */
zo_status zo_report_render_html(const char *jsonl, const char *path, zo_error *err);

#endif
