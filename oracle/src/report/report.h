/* report.h: the run record (JSON Lines, the source of truth), what is
 * rendered from it (JUnit XML, Markdown, HTML, the badge), and how a run's
 * report files reach the report directory: as one set.
 *
 * One report set per run, never mixed (zo_report_set_*):
 *
 *   A run writes every file of its set (run.jsonl, junit.xml, summary.md,
 *   index.html; for gate also badge.json and, with --validate,
 *   protocol.jsonl) into a fresh private directory made with mkdtemp
 *   beside the report directory DIR: PARENT/.NAME.zoneoracle-tmp.RUNID.
 *   When the set is complete, that directory is given DIR's mode, the
 *   entries of DIR that are not report files (a README, a fuzz-diff/
 *   folder, the lock file) are hard-linked into it (files, symlinks are
 *   copied), and the two directories are exchanged in one step
 *   (renameat2 RENAME_EXCHANGE). The report files are ordinary files, yet
 *   whoever opens DIR/x sees either the whole previous set or the whole
 *   new one, never files of two runs, whenever the run is killed. Then
 *   the foreign subdirectories are moved back into DIR (renamed, never
 *   copied) and the old directory is removed.
 *
 *   Every file of a set names its run: run.jsonl's header and footer
 *   ("run_id"), a comment in junit.xml and summary.md, a meta element in
 *   index.html (badge.json is a shields.io endpoint and takes no other
 *   key). A reader can so check that files it read at different times
 *   come from one run.
 *
 *   Two runs on one report directory never interleave: a run holds an
 *   exclusive flock on DIR/.zoneoracle.lock (opened O_CLOEXEC, so no
 *   engine inherits it; the lock file is hard-linked into each new set,
 *   so it is one file across exchanges) from zo_report_set_begin to the
 *   commit or abandon. A second run fails at once with "report directory
 *   DIR is in use by another zoneoracle run (pid N)" rather than waiting
 *   (the CLI exits 2).
 *
 *   Under the lock, zo_report_set_begin removes what an interrupted run
 *   left: its temporary directories (moving back any foreign entry DIR
 *   lacks, so a kill between the exchange and the move-back loses
 *   nothing) and *.tmp.PID files whose process is gone.
 *
 *   Where DIR cannot be exchanged as a whole (it is or contains the
 *   current directory, it is a mount point, its parent is not writable,
 *   or the file system has no RENAME_EXCHANGE or hard links), the set is
 *   written in DIR/.zoneoracle-tmp.RUNID and its files renamed into DIR
 *   one by one: each file whole, the set not atomic, and
 *   zo_report_set_note says why. Power loss is not covered (no fsync).
 */
#ifndef ZO_REPORT_H
#define ZO_REPORT_H

#include <stdio.h>

#include "runner.h"

typedef struct {
  const char *suite_commit;   /* git commit of the cases, or "unknown" */
  const char *engine, *engine_version;
  const char *const *rulesets; int nrulesets;
  const char *zoneoracle_version; /* the zoneoracle that ran it, or NULL (left out) */
  const char *run_id;         /* the report set's run id, or NULL (left out) */
} zo_run_header;

/* Whole or not at all, for a single file: open path.tmp.PID for writing
 * (created anew: O_EXCL, O_NOFOLLOW, O_CLOEXEC; tmp receives its name;
 * cap >= strlen(path) + 32), write, then zo_report_commit closes it and
 * renames it to path. zo_report_open returns NULL (errno set) when the
 * file can't be created. zo_report_commit returns ZO_ERR_IO with err
 * naming path when a write, the close or the rename failed, and then
 * removes the temporary file. */
FILE *zo_report_open(const char *path, char *tmp, size_t cap);
zo_status zo_report_commit(FILE *f, const char *tmp, const char *path, zo_error *err);

/* ---- report sets (see above) ---------------------------------------- */

typedef struct zo_report_set zo_report_set;

/* The file names a report set may hold, NULL-terminated: whatever of
 * these a new set lacks is gone from DIR after its commit. */
extern const char *const zo_report_set_names[];

/* Start a set for the existing directory dir: take its lock, clean what
 * interrupted runs left, make the staging directory. *out is owned by the
 * caller until zo_report_set_commit or zo_report_set_abandon. ZO_ERR_IO
 * with err naming dir when it is locked by another run (the message says
 * so, with its pid), cannot be resolved or locked, or no staging
 * directory can be made. */
zo_status zo_report_set_begin(const char *dir, zo_report_set **out, zo_error *err);

/* The staging directory, where the set's files are written; its run id
 * ("20260116T101500Z-a1b2C3"); the path of file name in the staging
 * directory (malloc'd, the caller frees). */
const char *zo_report_set_staging(const zo_report_set *s);
const char *zo_report_set_run_id(const zo_report_set *s);
char *zo_report_set_path(const zo_report_set *s, const char *name);

/* Why the set is installed file by file rather than exchanged whole
 * ("it is the current directory"), or NULL. Set by begin, or by a commit
 * that had to fall back (read it before the commit frees s: the commit
 * copies it to note, cap bytes, when note is not NULL). */
const char *zo_report_set_note(const zo_report_set *s);

/* Put the staging directory's files in place as DIR's report set (see
 * above), release the lock and free s. ZO_ERR_IO with err naming the file
 * or directory when that failed: DIR then holds the previous set (or, in
 * the file-by-file fallback, what could be moved). note (cap bytes, may
 * be NULL) receives zo_report_set_note's text or "". */
zo_status zo_report_set_commit(zo_report_set *s, char *note, size_t cap, zo_error *err);

/* Drop the set (remove the staging directory, release the lock, free s):
 * DIR keeps its previous set. NULL does nothing. */
void zo_report_set_abandon(zo_report_set *s);

/* The lock alone, for a directory that collects files across runs
 * (gate --fuzz's cases): the flock of zo_report_set_begin on
 * dir/.zoneoracle.lock, then the *.tmp.PID files of dead processes
 * removed. *fd receives the lock's descriptor (release it with
 * zo_report_dir_unlock). ZO_ERR_IO as zo_report_set_begin. */
zo_status zo_report_dir_lock(const char *dir, int *fd, zo_error *err);
void zo_report_dir_unlock(int fd);

/* ---- the record and its renderings ---------------------------------- */

/* Write the run record: a header line, one line per case x rule set, one
 * per invalid case file, a footer. Every string is made valid UTF-8
 * (zo_utf8_sanitize): no record is ever dropped. ZO_ERR_IO on failure
 * (nothing is left half-written). */
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

/* ---- verdicts ------------------------------------------------------- */

/* Whether a run gives no verdict: no case passed and none failed (every
 * result skipped, or an expected failure, or no result at all). Then why
 * (cap bytes) receives one line for people: "no case ran: 12 skipped
 * (the engine does not declare feature 'phasing': 7; ...)", or "no case passed: 3
 * skipped, 2 known gaps (--expect-failures)", or "no case ran: no case
 * file matched (check the PATHs, --filter and --ruleset)". Returns 1 or 0. */
int zo_run_empty(const zo_run *run, char *why, size_t cap);

/* The shields.io endpoint badge of a gate run into path (whole or not at
 * all): message "412 passed · 6 known gaps · 2 failing · 30 skipped"
 * (the parts that are not zero; "0 run · N skipped" when nothing ran;
 * invalid case files and protocol_invalid > 0 invalid protocol messages
 * named too), colour brightgreen only when something passed and nothing
 * failed (failing: failed, errors, xpass, invalid files or messages; then
 * red), else lightgrey. Expected failures never count as passes.
 * ZO_ERR_IO as zo_report_commit. */
zo_status zo_report_write_badge(const zo_run *run, int protocol_invalid, const char *path,
                                zo_error *err);

#endif
