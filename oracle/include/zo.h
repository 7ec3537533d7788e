/* zo.h: the public API of zoneoracle, a reference model of the zone rules of
 * trading card games (Magic: the Gathering, Flesh and Blood) and a runner of
 * YAML rule cases against it.
 *
 * What it offers: rule sets and cases loaded and inspected; a game set up
 * in a case's starting position and checked against the invariants; the
 * oracle as a zcp engine in process (zo_server_answer: every request of
 * ci/protocol/PROTOCOL.md, so a game is stepped and observed in JSON
 * there, not through C calls); engines living in this process
 * (zo_engine_ops_open, zo_engine_register); runs of case files against
 * an engine with their reports (zo_run_files, zo_report_*); mutants. What
 * it does not: a process engine (`--engine CMD`) is opened by the CLI,
 * which the shared library carries as zo_cli_main; stepping a zo_game
 * in C is the library's internal model API, not this header's.
 *
 * Conventions: every fallible call returns a zo_status (ZO_OK == 0) and fills
 * an optional zo_error; the library never prints and never exits. Names are
 * zo_<noun>_<verb>; zo_<noun>_free frees an object the library made, and
 * zo_<noun>_clear empties storage the caller owns. Enum values are
 * append-only. Unless a call says otherwise, what it is given is borrowed
 * for the call, and what it returns through a `**out` is the caller's.
 */
#ifndef ZO_H
#define ZO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Result of a fallible call. Append-only. */
typedef enum zo_status {
  ZO_OK = 0,
  ZO_ERR_IO,       /* a file could not be read or written */
  ZO_ERR_SYNTAX,   /* malformed YAML (or alias, tag, duplicate key) */
  ZO_ERR_SCHEMA,   /* well-formed YAML that is not a valid case / rule set */
  ZO_ERR_SETUP,    /* a starting position the rule set forbids */
  ZO_ERR_UNKNOWN,  /* an unknown rule set, zone, handle or name */
  ZO_ERR_NOMEM,    /* out of memory */
  ZO_ERR_ENGINE,   /* an engine could not be driven */
  ZO_ERR_USAGE     /* a bad argument from the caller */
} zo_status;

/* Where and why a call failed. Positions are 1-based; 0 = unknown.
 * Owned by the caller (plain storage, nothing to free). */
typedef struct zo_error {
  zo_status code;
  char message[512]; /* one line, no trailing newline */
  char file[256];
  int line, column;
  char context[160]; /* e.g. "while reading step 2"; may be empty */
  /* The kind of an engine's failure as a value: a zo_engine_fault of the
     engines layer (oracle/src/engines/engine.h; 0 none), set with the
     kind's word in context on every error an engine under test reports;
     other errors leave it as it was (start from {0}). */
  int engine_fault;
} zo_error;

/* Name of a status ("io", "syntax"...); static storage. */
const char *zo_status_name(zo_status s);

/* Format err the way people read it, into buf (cap bytes, always
 * terminated): "file:line:col: error: message", then "\nnote: context"
 * when there is one, then the source line of a regular file with a caret
 * under the column. */
void zo_error_format(const zo_error *err, char *buf, size_t cap);

/* Outcome of one step (cases/README.md "Outcomes"). Append-only. */
typedef enum zo_outcome {
  ZO_OUTCOME_NONE = 0,
  ZO_OUTCOME_MOVED,
  ZO_OUTCOME_NO_MOVE,
  ZO_OUTCOME_NEW_OBJECT_IN_PLACE,
  ZO_OUTCOME_REDIRECTED,
  ZO_OUTCOME_STAYED,
  ZO_OUTCOME_REPLACED,
  ZO_OUTCOME_FAILED,
  ZO_OUTCOME_CLEARED,
  ZO_OUTCOME_CEASED,
  ZO_OUTCOME_REJECTED,
  ZO_OUTCOME_NOT_FOUND,
  ZO_OUTCOME_COUNT
} zo_outcome;

/* Error code a step may carry with its outcome (cases/README.md). */
typedef enum zo_step_error {
  ZO_E_NONE = 0,
  ZO_E_CAPACITY,
  ZO_E_NO_ZONE,
  ZO_E_CANNOT_HOLD,
  ZO_E_TOKEN_LEFT,
  ZO_E_NOT_IN_ZONE,
  ZO_E_NO_CONTROLLER,
  ZO_E_ALREADY,
  ZO_E_EMPTY,
  ZO_E_ORDERED,
  ZO_E_WRONG_PLAYER,
  ZO_E_UNSUPPORTED,
  ZO_E_PHASED_OUT,
  ZO_E_NOT_FOUND,
  ZO_E_NOT_FIRED,
  ZO_E_FORBIDDEN, /* a "can't" effect forbids the move (CR 614.17) */
  ZO_E_CANNOT_CHOOSE, /* an as-enters effect can't choose it (CR 614.13a, 614.13b) */
  ZO_E_COUNT
} zo_step_error;

/* Lower-case names as written in cases ("new_object_in_place", "capacity");
 * static storage. *_parse returns -1 for an unknown name. */
const char *zo_outcome_name(zo_outcome o);
int zo_outcome_parse(const char *name);
const char *zo_step_error_name(zo_step_error e);
int zo_step_error_parse(const char *name);

/* ---- Rule sets (oracle/rulesets/ID.yaml, embedded at build time) ---- */

/* A rule set: the zone types of one game and era and its policy switches,
 * each citing its rule. Owned by the library (embedded ones live for the
 * process) or by the caller of zo_ruleset_load_file. */
typedef struct zo_ruleset zo_ruleset;

/* Number of embedded rule sets, and the i-th (0 <= i < count). Parsed once on
 * first use; a broken embedded file is a build defect and aborts. */
size_t zo_ruleset_count(void);
const zo_ruleset *zo_ruleset_at(size_t i);

/* Embedded rule set by id ("mtg-2011", "fab"), or NULL. */
const zo_ruleset *zo_ruleset_find(const char *id);

/* Id and one-line title; storage owned by the rule set. */
const char *zo_ruleset_id(const zo_ruleset *rs);
const char *zo_ruleset_title(const zo_ruleset *rs);

/* Load a user's rule set file (may `extends:` an embedded one). On success
 * *out is owned by the caller (zo_ruleset_free). Errors name file:line:col. */
zo_status zo_ruleset_load_file(const char *path, zo_ruleset **out,
                               zo_error *err);
/* The same from memory; `name` is used in messages. */
zo_status zo_ruleset_load_mem(const char *name, const char *text, size_t len,
                              zo_ruleset **out, zo_error *err);
void zo_ruleset_free(zo_ruleset *rs);

/* Rules listed by the rule set (number, paraphrase, seed flag): the rule
 * coverage that reports show. Index 0 <= i < zo_ruleset_rule_count. */
size_t zo_ruleset_rule_count(const zo_ruleset *rs);
const char *zo_ruleset_rule_id(const zo_ruleset *rs, size_t i);
const char *zo_ruleset_rule_text(const zo_ruleset *rs, size_t i);
int zo_ruleset_rule_is_seed(const zo_ruleset *rs, size_t i);
/* Why the zone model has nothing of rule i to check (the rule set's
 * `out_of_scope:`, owned by the rule set), or NULL for a rule in scope.
 * A rule out of scope is never a seed rule. */
const char *zo_ruleset_rule_out_of_scope(const zo_ruleset *rs, size_t i);
/* What the case language lacks to write a case of rule i, a zone rule no
 * case cites yet (the rule set's `language_gap:`, owned by the rule set),
 * or NULL. Such a rule is neither a seed rule nor out of scope. */
const char *zo_ruleset_rule_language_gap(const zo_ruleset *rs, size_t i);

/* ---- Cases ---- */

/* A loaded rule case (cases/README.md). Owned by the caller: zo_case_free. */
typedef struct zo_case zo_case;

/* Load and validate a case file: YAML syntax, the case language, and the
 * starting position against each of its rule sets. Returns ZO_ERR_IO,
 * ZO_ERR_SYNTAX, ZO_ERR_SCHEMA, ZO_ERR_UNKNOWN or ZO_ERR_SETUP with
 * file:line:column and what was expected in err. */
zo_status zo_case_load_file(const char *path, zo_case **out, zo_error *err);

/* The same from memory; `name` is used in messages. */
zo_status zo_case_load_mem(const char *name, const char *text, size_t len,
                           zo_case **out, zo_error *err);

void zo_case_free(zo_case *c);
const char *zo_case_id(const zo_case *c);
const char *zo_case_title(const zo_case *c);
const char *zo_case_file(const zo_case *c);
size_t zo_case_ruleset_count(const zo_case *c);
const char *zo_case_ruleset(const zo_case *c, size_t i);
size_t zo_case_rule_count(const zo_case *c);
const char *zo_case_rule(const zo_case *c, size_t i);

/* ---- The model (the oracle) ---- */

/* One game in progress: the reference model. Owned by the caller. */
typedef struct zo_game zo_game;

/* Invariant violation found by zo_game_check (fuzz/INVARIANTS.md). */
typedef struct zo_violation {
  const char *invariant; /* id, e.g. "tokens-in-arena"; static storage */
  const char *rule;      /* the rule it comes from; static storage */
  char detail[256];
} zo_violation;

/* Set up a game for case c under rule set rs (the case's starting position)
 * into *out, the caller's (zo_game_free). The game borrows c and rs: both
 * must outlive it. ZO_ERR_SETUP with err filled if the rule set forbids
 * the position (file:line:column of the card in c's file). */
zo_status zo_game_new(const zo_ruleset *rs, const zo_case *c, zo_game **out,
                      zo_error *err);
void zo_game_free(zo_game *g);

/* Check every invariant of fuzz/INVARIANTS.md that holds at any time (and, when
 * at_rest is non-zero, those that hold after a state check). Returns 1 and
 * fills v on the first violation, 0 when the game is sound. */
int zo_game_check(const zo_game *g, int at_rest, zo_violation *v);

/* ---- Engines ---- */

/* An engine under test, or the oracle itself: what cases run against.
 * Opened and freed through the engine layer (the CLI's --engine CMD,
 * --engine-plugin LIB.so; zo_engine.h is the plug-in ABI an engine
 * implements). */
typedef struct zo_engine zo_engine;

/* An engine living in this process, behind the plugin ABI's table of
 * calls (zo_engine.h) but made by the host rather than loaded from a
 * shared object: how the Python and npm packages gate an engine object
 * of their language in process (a ctypes callback, a JavaScript function
 * behind WebAssembly). Driven like a plugin loaded in process: the same
 * messages, no pipes, no time limit, no isolation (a crash of the engine
 * is the host's). */
struct zo_engine_ops;

/* Open an engine from ops (borrowed: it must outlive the engine): its
 * open(), then the handshake. name (copied; may be NULL) names it in
 * messages. NULL with err filled (ZO_ERR_ENGINE, name as the file) when
 * the ABI version is not ZO_ENGINE_ABI_VERSION, open() returns NULL or
 * hello is not answered right. The caller frees it with
 * zo_engine_ops_free, which calls close(). */
zo_engine *zo_engine_ops_open(const struct zo_engine_ops *ops, const char *name, zo_error *err);
void zo_engine_ops_free(zo_engine *e);

/* Register ops under name ('@' and 1 to 62 characters) for this process,
 * so that the CLI run in this process (zo_cli_main, in the shared library
 * and the WebAssembly build) opens it for `--engine-plugin @NAME`, in
 * process, as zo_engine_ops_open does. ops NULL removes the name; a name
 * registered again is replaced. ops is borrowed until it is removed.
 * ZO_ERR_USAGE with err filled for a bad name or ABI version, or when
 * 16 names are registered already. */
zo_status zo_engine_register(const char *name, const struct zo_engine_ops *ops, zo_error *err);

/* ---- The oracle as a zcp/1 engine (ci/protocol/PROTOCOL.md) ---- */

/* One zcp/1 session with the oracle: what `zoneoracle serve` and the
 * oracle's plug-in (ci/adapters/c-plugin) answer through. Owned by the
 * caller (zo_server_free, which frees its game). */
typedef struct zo_server zo_server;

/* A new session with no game. Never NULL (out of memory is zo_oom's). */
zo_server *zo_server_new(void);
void zo_server_free(zo_server *s);

/* Answer one request, a line of JSON text (NUL-terminated, borrowed):
 * the answer line without its newline, a new string the caller frees
 * with free(). Never NULL and never a crash: text that is not a request
 * gets an error answer (bad_request, unsupported or internal). */
char *zo_server_answer(zo_server *s, const char *request);

/* Make the oracle play one rule wrong from now on, for the whole process:
 * the mutant NAME (`zoneoracle mutants --list`: one switch of a rule set
 * set to another era's value, or one zone attribute flipped). How the
 * strength of a suite or a fuzzer is measured. ZO_ERR_USAGE with err
 * naming the near names when there is no such mutant. */
zo_status zo_mutant_apply_named(const char *name, zo_error *err);

/* ---- Runs: cases x rule sets against an engine ---- */

/* Outcome of one case under one rule set (ci/protocol/PROTOCOL.md, "Run
 * record"): passed, failed, error (the engine answered nonsense), skipped
 * (an undeclared rule set or feature), crash, timeout, expected failure,
 * unexpectedly passing. Append-only. */
typedef enum {
  RS_PASS = 0, RS_FAIL, RS_ERROR, RS_SKIP, RS_CRASH, RS_TIMEOUT, RS_XFAIL, RS_XPASS
} zo_result_status;
/* Its name in the run record ("pass", "xfail"...); static storage. */
const char *zo_result_status_name(zo_result_status s);

/* A rule the engine applied in one case, and how often. */
typedef struct {
  char *id;     /* rule number, as the rule set lists it ("CR 400.7") */
  int count;
} zo_hit;

/* One case under one rule set. Strings owned by the result. */
typedef struct {
  char *case_id, *title, *file, *ruleset;
  zo_result_status status;
  int line;              /* of the failing expectation (or the step) */
  int step;              /* 1-based step of the failure; 0 = final expect */
  char *what;            /* "rancor.zone", "outcome", "invariant in-a-zone" */
  char *expected, *observed;
  char *message;         /* one line for people */
  char *stderr_text;     /* what the engine wrote on stderr during a case
                            that did not pass (bounded: its first and last
                            32 KiB), or NULL */
  char **rules; int nrules;  /* cited by the case */
  zo_hit *hits; int nhits;   /* rules the engine applied, with counts */
  double ms;            /* wall time of the case, milliseconds */
  char *reason;          /* xfail, xpass: the reason of the known gap naming
                            it (zo_known_gap); NULL otherwise */
} zo_case_result;

/* A case file that could not be loaded. */
typedef struct {
  char *file;
  char *message; /* "file:line:col: error: ..." with its note */
} zo_invalid;

/* The results of a run, in the order cases ran; owned by the caller of
 * zo_run_files (zo_run_free). Zero it before the first zo_run_files. */
typedef struct {
  zo_case_result *results; int n, cap;
  zo_invalid *invalid; int ninvalid;
  int passed, failed, errors, skipped;  /* errors: error, crash, timeout */
  int xfailed, xpassed;
  int not_run;           /* case files not run: the run stopped at max_fail */
  double ms;            /* wall time of the run, milliseconds */
} zo_run;

/* A known gap: a case an engine is known to fail, one entry of the file
 * `gate --expect-failures FILE` reads (ci/protocol/known-gaps.schema.json;
 * the CLI loads and checks it). Strings borrowed from whoever loaded it. */
typedef struct {
  const char *id;        /* the case's id */
  const char *ruleset;   /* only under this rule set, or NULL: every rule set */
  const char *reason;    /* why it fails, for people: never NULL nor empty */
  int line, column;      /* the entry's place in its file, 1-based; 0 unknown */
} zo_known_gap;

/* What zo_run_files runs, and how. Every pointer is borrowed for the call. */
typedef struct {
  const char *ruleset;   /* only this rule set id, or NULL */
  const char *filter;    /* fnmatch glob on case ids, or NULL */
  int check_invariants;  /* zo_game_check after every step (oracle) */
  int shard, nshards;    /* run case files i with i % nshards == shard (0-based) */
  const zo_known_gap *xfail; int nxfail; /* expected failures: a case x rule
                            set the first matching entry names becomes xfail
                            when it does not pass (a skip stays a skip) and
                            xpass when it passes, with the entry's reason */
  zo_engine *strict;     /* --strict: the oracle, compared after every step */
  int obs_invariants;    /* --invariants: fuzz/INVARIANTS.md on the engine's
                            observations after the setup and every step
                            (obs_check.h); a violation fails the case */
  int max_fail;          /* stop once this many results fail (fail, error,
                            crash, timeout, xpass) or case files are invalid;
                            the files not reached count in zo_run.not_run;
                            0 never stops */
  /* Called as the run goes: after each result is added to run (its last
   * result) and after each invalid case file (its last invalid entry),
   * with the 0-based index of the case file and their number. May print;
   * must not change run. NULL: nothing is called. */
  void (*progress)(const zo_run *run, int file, int nfiles, void *ctx);
  void *progress_ctx;
} zo_run_options;

/* Expand files and directories into a list of case files: a file named in
 * paths is taken whatever its extension; a directory contributes its *.yaml
 * and *.yml files, recursively (following symlinks; names starting with '.'
 * skipped), sorted by path. Only regular files are taken, and none is read.
 * Returns ZO_ERR_IO with err->file naming the path and err->message the
 * reason for: a path that doesn't exist or can't be read (a file that can't
 * be opened, a directory that can't be listed), a named file or a *.yaml /
 * *.yml entry that is not a regular file ("not a regular file": FIFOs,
 * sockets and devices are never opened), and a symlink loop (a directory
 * reached again inside itself, or ELOOP). On success the list and its
 * strings are owned by the caller (zo_paths_free); on error nothing is
 * returned. */
zo_status zo_collect_cases(const char *const *paths, int n, char ***out,
                           int *count, zo_error *err);
void zo_paths_free(char **paths, int n);

/* Run every case file against engine e, appending to run. Never stops on a
 * bad file or a failing case. */
void zo_run_files(zo_engine *e, char **files, int nfiles,
                  const zo_run_options *opt, zo_run *run);

/* Run one loaded case under one rule set; fills res (owned by caller). */
void zo_run_case(zo_engine *e, const zo_case *c, const zo_ruleset *rs,
                 const zo_run_options *opt, zo_case_result *res);

/* Free the strings and arrays of one result and leave it zeroed (a
 * result of zo_run_case; one inside a zo_run is zo_run_clear's). */
void zo_case_result_clear(zo_case_result *res);

/* Free everything run holds and leave it empty (reusable): run itself is
 * the caller's storage. zo_run_free is its name of 0.1, kept. */
void zo_run_clear(zo_run *run);
void zo_run_free(zo_run *run);

/* ---- Reports: the run record and what is rendered from it ---- */

/* The run record's header: what ran, on what. Every pointer is borrowed
 * for the call that takes it. */
typedef struct {
  const char *suite_commit;   /* git commit of the cases, or "unknown" */
  const char *engine, *engine_version;
  const char *const *rulesets; int nrulesets;
  const char *zoneoracle_version; /* the zoneoracle that ran it, or NULL (left out) */
  const char *run_id;         /* the report set's run id, or NULL (left out) */
  const char *known_gaps;     /* the known-gaps file of the run (--expect-failures),
                                 or NULL: no list given (left out) */
  const zo_known_gap *unknown_gaps; int nunknown_gaps;
                              /* its entries that name no case of the run: one
                                 "unknown_gap" line each (stale entries) */
  const char *baseline;       /* a run record to compare with (--baseline), or
                                 NULL: each case line then says what its case
                                 was there ("was"), the header names the file */
  const char *rerun;          /* the command that reruns one case of the run,
                                 up to its --ruleset and file ("zoneoracle gate
                                 --engine 'python3 engine.py' --strict"), or
                                 NULL (left out) */
  const char *const *undeclared; int nundeclared;
                              /* the rule sets of the run the engine does not
                                 declare: every case under them is a skip, and
                                 the reports sum them up in one line instead
                                 of a row each */
} zo_run_header;

/* Report sets: how a run's report files reach the report directory, as one
 * set, never two runs' files mixed (the whole design: report/report.h). */

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



/* Write the run record (ci/protocol/run-record.schema.json): a header
 * line, one line per case x rule set (xfail and xpass ones with their
 * known gap's reason), one per invalid case file, one per unknown known
 * gap (h->unknown_gaps), a footer. Every string is made valid UTF-8
 * (zo_utf8_sanitize): no record is ever dropped. ZO_ERR_IO on failure
 * (nothing is left half-written). */
zo_status zo_report_write_jsonl(const zo_run *run, const zo_run_header *h,
                                const char *path, zo_error *err);

/* The case lines of a run record, as a JSON array (new reference; a
 * jansson json_t *), or NULL with err naming the file and line: ZO_ERR_IO
 * "cannot open: why", or ZO_ERR_SCHEMA "not a run record: why" for an
 * empty file, a first line that is not a header of format
 * zoneoracle-run/1, a line that is not a JSON object of a known type
 * (header, case, invalid, unknown_gap, footer), a case line without its id,
 * ruleset or status, a second header, a line after the footer, or no
 * footer. */
struct json_t;
struct json_t *zo_report_read_cases(const char *jsonl, zo_error *err);

/* Render JUnit XML and Markdown from a run record file. */
zo_status zo_report_render_junit(const char *jsonl, const char *path, zo_error *err);
zo_status zo_report_render_markdown(const char *jsonl, const char *path, zo_error *err);
/* One self-contained HTML page (no scripts, no network): the conformance
 * matrix of rules x rule sets linking to each case, each rule set's switch
 * table with its citations, and the case list. */
zo_status zo_report_render_html(const char *jsonl, const char *path, zo_error *err);
/* The three renderings above from one reading of the record (a path NULL
 * is left out): what a run writes. The first failure stops it, as each
 * function above would fail. */
zo_status zo_report_render_all(const char *jsonl, const char *junit, const char *markdown,
                               const char *html, zo_error *err);



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
/* The same badge rendered from the run record at jsonl (as the other
 * reports are): the cases under rule sets the engine does not declare
 * (the header's undeclared_rulesets) are named apart from the other skips
 * ("125 passed · 20 failing · 59 skipped · 663 cases under 5 undeclared
 * rule sets"). Errors as zo_report_render_junit. */
zo_status zo_report_render_badge(const char *jsonl, int protocol_invalid, const char *path,
                                 zo_error *err);


#ifdef __cplusplus
}
#endif

#endif /* ZO_H */
