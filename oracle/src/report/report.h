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
 *   Where the system has no renameat2 (ZO_HAVE_RENAMEAT2 unset: macOS,
 *   the BSDs, WebAssembly) or the file system refuses the exchange, the
 *   same staging directory is put in place with two renames: DIR to
 *   PARENT/.NAME.zoneoracle-old.RUNID, then the staging directory to DIR
 *   (the old one renamed back when the second fails). The guarantee is
 *   the same for whoever opens DIR/x (the whole previous set or the whole
 *   new one, never files of two runs), with one difference: between the
 *   two renames DIR is absent, so an open there fails with ENOENT. A run
 *   killed between them leaves DIR absent and the old set aside, whole;
 *   the next zo_report_set_begin on DIR renames it back (unless its lock
 *   is held: a run committing at that moment) before anything else; when
 *   DIR was made again meanwhile (the CLI makes a missing report
 *   directory), the entries of the old DIR that are not report files go
 *   back into it and the old set is dropped. A second run that makes DIR
 *   again in the moment between the two renames takes a lock of its own
 *   there: the first run's commit then fails (its old set stays aside,
 *   recovered as above) rather than mixing two sets. The environment
 *   variable ZO_REPORT_NO_EXCHANGE=1 takes this way where renameat2
 *   exists too (the tests: oracle/tests/report_fallback.sh). Where no
 *   hard link can be made either (Node's file system under WebAssembly),
 *   DIR's own files and the lock file are renamed over after the two
 *   renames, as its folders are: they are absent from DIR for that
 *   moment too, and a run starting then is not kept out by the lock
 *   (under WebAssembly flock locks nothing anyway).
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
 *   or the file system has no hard links), the set is
 *   written in DIR/.zoneoracle-tmp.RUNID and its files renamed into DIR
 *   one by one: each file whole, the set not atomic, and
 *   zo_report_set_note says why. Power loss is not covered (no fsync).
 */
#ifndef ZO_REPORT_H
#define ZO_REPORT_H

#include <stdio.h>

#include "runner.h"

/* Whole or not at all, for a single file: open path.tmp.PID for writing
 * (created anew: O_EXCL, O_NOFOLLOW, O_CLOEXEC; tmp receives its name;
 * cap >= strlen(path) + 32), write, then zo_report_commit closes it and
 * renames it to path. zo_report_open returns NULL (errno set) when the
 * file can't be created. zo_report_commit returns ZO_ERR_IO with err
 * naming path when a write, the close or the rename failed, and then
 * removes the temporary file. */
FILE *zo_report_open(const char *path, char *tmp, size_t cap);
zo_status zo_report_commit(FILE *f, const char *tmp, const char *path, zo_error *err);

/* s as one word of a POSIX shell command line: as it is when it holds
 * only letters, digits and _ - . / , : = @ % + (and is not empty), else
 * between single quotes, each ' written '\''. The caller frees. */
char *zo_report_shell_word(const char *s);

/* A failure's message without the lines of the engine's stderr it ends
 * with (a crash's "...; stderr: A | B | C", its last lines joined with
 * " | ") that set (a JSON object keyed by line) holds, and a note of how
 * many were left out ("; 7 more lines of stderr shown once above"); with
 * add, the lines kept are added to set. *dropped (may be NULL) receives
 * how many were left out. The message as it is when it has no such
 * tail. The caller frees. */
struct json_t;
char *zo_report_message_dedup(const char *message, struct json_t *set, int add, int *dropped);

/* ---- the results site (site.c, site_html.c) --------------------------- */

/* What zo_report_site built, for the caller's message. */
typedef struct {
  int runs;          /* run records read */
  int engines;       /* distinct engine names */
  int rows;          /* engine + version pairs: rows of the index, one page each */
  long long cases;   /* case lines read, over every record */
  int disagreements; /* (rule set, case) pairs the rows disagree on */
} zo_site_summary;

/* The results site: static pages comparing engines and their versions
 * from the run records paths[0..n) (n >= 1; borrowed; any order), written
 * to the directory out. No script, nothing fetched: plain HTML with inline
 * CSS and an inline SVG plot, readable from disk.
 *
 *   out/index.html       conformance per engine + version (the newest run
 *                        of each by the header's `started`) overall and per
 *                        rule set; a trend plot of every run, one line per
 *                        engine; the cases where those runs disagree (one
 *                        conforms, another does not), per rule set, each
 *                        linking to the failure; every run.
 *   out/engine-*.html    per engine + version: its failing cases (file:line,
 *                        what, expected vs observed, message, the engine's
 *                        stderr, what the other engines did), known gaps,
 *                        skips by reason, the engine's runs.
 *
 * Conformance is (pass + xpass) / every case line but skip: fail, error,
 * crash, timeout and xfail count against (the pages say so).
 *
 * Whole or not at all: the pages are written in a private directory made
 * beside out (PARENT/.NAME.zoneoracle-site.XXXXXX) and swapped in for out
 * in one step (renameat2 RENAME_EXCHANGE; where the file system cannot,
 * out is moved aside and the new site renamed in, the old one moved back
 * on failure). out may be absent, or a directory holding only what a site
 * holds (index.html, engine-*.html): anything else there is refused, never
 * deleted. The replaced site's files are removed. Not locked: two sites
 * built at once on one out leave one of them whole.
 *
 * Errors (err filled, nothing of out changed, nothing to free):
 * ZO_ERR_SYNTAX a file that is not a run record: err->file, err->line
 * (1-based) and what is wrong ("not a run record line: ...", "not a run
 * record: format ...", "no header line", "empty file", "case ID: unknown
 * status 'x'"); ZO_ERR_IO a record that cannot be opened or read, out
 * that cannot be replaced (err->file names it and why), a page that
 * cannot be written; ZO_ERR_USAGE n < 1 or an out naming no directory
 * ("/", "."). Out of memory is zo_oom. sum (may be NULL) is filled on
 * success. Records are streamed: memory grows with the cases that did not
 * pass, not with a record's size. */
zo_status zo_report_site(const char *const *paths, int n, const char *out, zo_site_summary *sum,
                         zo_error *err);

#endif
