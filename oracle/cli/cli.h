/* cli.h: what the files of oracle/cli/ offer each other (internal): the
 * exit codes, the command table, the shared option parser (options.c), the
 * commands (cmd_*.c, smoke.c) and their helpers. */
#ifndef ZO_CLI_H
#define ZO_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "zo.h"     /* the public API: rule sets, cases, runs, reports */
#include "runner.h" /* the run layer beyond it: engines, needed features */

/* The exit codes of every command. */
enum {
  ZO_EXIT_PASS = 0,    /* every case passed (or the command did its job) */
  ZO_EXIT_FAIL = 1,    /* conformance failures (or a difference, a survivor...) */
  ZO_EXIT_USAGE = 2,   /* a usage error, or an I/O error */
  ZO_EXIT_INVALID = 3, /* invalid case files */
  ZO_EXIT_ENGINE = 4   /* the engine under test could not be started or driven */
};

/* The options, one bit each: which a command accepts (zo_cli_command.opts)
 * and which were given (zo_cli_opts.given). --help/-h is always accepted. */
enum {
  ZO_OPT_RULESET = 1u << 0,         /* --ruleset ID */
  ZO_OPT_FILTER = 1u << 1,          /* --filter GLOB */
  ZO_OPT_REPORT_DIR = 1u << 2,      /* --report-dir DIR */
  ZO_OPT_QUIET = 1u << 3,           /* --quiet */
  ZO_OPT_RULESET_FILE = 1u << 4,    /* --ruleset-file FILE (repeatable) */
  ZO_OPT_MUTANT = 1u << 5,          /* --mutant NAME (repeatable) */
  ZO_OPT_INVARIANTS = 1u << 6,      /* --invariants */
  ZO_OPT_FORMAT = 1u << 7,          /* --format text|json */
  ZO_OPT_ENGINE = 1u << 8,          /* --engine CMD */
  ZO_OPT_ENGINE_PLUGIN = 1u << 9,   /* --engine-plugin LIB.so */
  ZO_OPT_TIMEOUT = 1u << 10,        /* --timeout SECONDS */
  ZO_OPT_EXPECT_FAILURES = 1u << 11,/* --expect-failures FILE */
  ZO_OPT_SHARD = 1u << 12,          /* --shard I/N */
  ZO_OPT_VALIDATE = 1u << 13,       /* --validate */
  ZO_OPT_STRICT = 1u << 14,         /* --strict */
  ZO_OPT_FUZZ = 1u << 15,           /* --fuzz SECONDS */
  ZO_OPT_SEED = 1u << 16,           /* --seed S */
  ZO_OPT_OUT = 1u << 17,            /* --out DIR */
  ZO_OPT_LIST = 1u << 18,           /* --list */
  ZO_OPT_HARNESS = 1u << 19,        /* --harness moves|diff */
  ZO_OPT_ID = 1u << 20,             /* --id ID */
  ZO_OPT_HELP = 1u << 21,           /* --help, -h */
  ZO_OPT_ALLOW_EMPTY = 1u << 22,    /* --allow-empty: a run where no case ran may pass */
  ZO_OPT_MAX_FAIL = 1u << 23,       /* --max-fail N: stop after N failing results */
  ZO_OPT_UPDATE = 1u << 24,         /* known-gaps --update: write the file */
  ZO_OPT_BASELINE = 1u << 25        /* --baseline RUN.jsonl: what changed since that run */
};
/* What run, check, rules, mutants, corpus and gate share. */
#define ZO_OPT_COMMON                                                                        \
  (ZO_OPT_RULESET | ZO_OPT_FILTER | ZO_OPT_REPORT_DIR | ZO_OPT_QUIET | ZO_OPT_RULESET_FILE | \
   ZO_OPT_MUTANT | ZO_OPT_INVARIANTS | ZO_OPT_FORMAT)
/* What only a run against an engine under test takes (gate, run --engine). */
#define ZO_OPT_GATE_ONLY                                                                  \
  (ZO_OPT_TIMEOUT | ZO_OPT_EXPECT_FAILURES | ZO_OPT_SHARD | ZO_OPT_VALIDATE | ZO_OPT_STRICT | \
   ZO_OPT_FUZZ | ZO_OPT_SEED | ZO_OPT_OUT)

/* The parsed command line of one command. Strings are borrowed from argv
 * (or point into default_cases); the two lists ruleset_files and mutants
 * are owned (zo_cli_opts_free). */
typedef struct zo_cli_opts {
  unsigned given;              /* ZO_OPT_* bits of the options given */
  const char *ruleset, *filter, *report_dir, *format;
  int quiet, invariants, strict, validate, list;
  const char **ruleset_files; int nruleset_files;
  const char **mutants; int nmutants;
  const char *engine, *plugin, *expect_failures, *out, *harness, *id;
  double timeout;              /* seconds per request, default 5 */
  int shard, nshards;          /* --shard I/N as 0-based I and N; N 0 when not given */
  int max_fail;                /* --max-fail N, 0 when not given */
  const char *baseline;        /* --baseline RUN.jsonl, or NULL */
  double fuzz;                 /* --fuzz seconds, 0 when not given */
  uint64_t seed;               /* --seed, default 1 */
  char **args; int nargs;      /* the operands (PATHs, FILEs), in order (borrowed from argv) */
  char default_cases[4096];    /* the suite, when a command runs it without PATH */
  const char *default_path;    /* default_cases, as a list of one (zo_cli_case_paths) */
} zo_cli_opts;

struct zo_cli_command;
/* A command: its name, implementation, accepted options and help. */
typedef struct zo_cli_command {
  const char *name;
  int (*run)(const struct zo_cli_command *cmd, int argc, char **argv);
  unsigned opts;         /* ZO_OPT_* accepted besides --help */
  int min_args, max_args; /* operands accepted; max -1: any number */
  const char *synopsis;  /* "run [OPTIONS] [PATH...]": the usage line, without "zoneoracle " */
  const char *summary;   /* one line for the command list */
  const char *help;      /* what it does, its options and exit codes */
} zo_cli_command;

/* The command table (main.c), and the command called name or NULL. */
extern const zo_cli_command zo_cli_commands[];
extern const size_t zo_cli_ncommands;
const zo_cli_command *zo_cli_find_command(const char *name);

/* The long name of option bit (ZO_OPT_*), without "--"; static storage. */
const char *zo_cli_option_name(unsigned bit);

/* printf into a new string (malloc'd, caller frees); aborts when out of
 * memory. */
char *zo_cli_strf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Print cmd's usage line and help to f. */
void zo_cli_print_help(const zo_cli_command *cmd, FILE *f);

/* A usage error of cmd: "zoneoracle CMD: <message>", its usage line and a
 * pointer to `zoneoracle help CMD` on stderr. Returns ZO_EXIT_USAGE. */
int zo_cli_usage_error(const zo_cli_command *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Parse argv (argv[0] the command's name, as main's argv + 1) with
 * getopt_long against the options cmd accepts, validating every value
 * (--timeout, --shard, --fuzz, --seed, --format, --harness) and the count
 * of operands. Then loads the --ruleset-file files, applies the --mutant
 * mutants and checks that --ruleset names a rule set. Fills o (free with
 * zo_cli_opts_free, also after an error). Returns -1 to go on, else the
 * exit code: ZO_EXIT_PASS after printing the help for --help/-h, 2 for a
 * usage error (message on stderr naming the option and value), 3 for an
 * invalid --ruleset-file. argv is permuted (operands last). */
int zo_cli_parse(const zo_cli_command *cmd, int argc, char **argv, zo_cli_opts *o);
void zo_cli_opts_free(zo_cli_opts *o);

/* The case paths o names: its operands, or without any the installed or
 * source-tree suite (zo_cli_data_path). Sets *paths (borrowed from o) and
 * *n. Returns -1, or ZO_EXIT_USAGE after "no case suite found" on stderr. */
int zo_cli_case_paths(zo_cli_opts *o, const char *const **paths, int *n);

/* zo_cli_case_paths, then zo_collect_cases: the case files, sorted per
 * directory; *files owned by the caller (zo_paths_free). Returns -1, or
 * ZO_EXIT_USAGE after a message naming the path that could not be read (an
 * unreadable file or directory, one not a regular file, a symlink loop). */
int zo_cli_collect(zo_cli_opts *o, char ***files, int *nfiles);

/* The whole of file path, for reading input files (the expected-failures
 * list, a case copied into a corpus, a fuzz input): refused unless a
 * regular file (or, with allow_fifo, a FIFO or pipe), checked on the open
 * descriptor before any read (opened O_NONBLOCK, so a FIFO or device never
 * blocks the open). Returns a malloc'd buffer (caller frees) holding *size
 * bytes plus a terminating NUL, or NULL after a message on stderr naming
 * the path. */
char *zo_cli_read_file(const char *path, int allow_fifo, size_t *size);

/* Open the engine under test: cmd (a process, zcp/1 on its stdin/stdout)
 * or plugin (a zo_engine_v1 shared object); eo may be NULL. NULL after
 * "zoneoracle: engine '...' could not be started or driven: why" on
 * stderr (the caller exits ZO_EXIT_ENGINE). Free with
 * zo_engine_process_free. */
zo_engine *zo_cli_engine_open(const char *cmd, const char *plugin,
                              const zo_engine_process_options *eo);

/* The commands (cmd_run.c, cmd_gate.c, cmd_tools.c, cmd_site.c, cmd_table.c,
 * smoke.c, main.c): each parses argv (argv[0] its name) and returns the
 * exit code. */
int zo_cli_cmd_run(const zo_cli_command *cmd, int argc, char **argv);
int zo_cli_cmd_check(const zo_cli_command *cmd, int argc, char **argv);
int zo_cli_cmd_rulesets(const zo_cli_command *cmd, int argc, char **argv);
int zo_cli_cmd_rules(const zo_cli_command *cmd, int argc, char **argv);
int zo_cli_cmd_mutants(const zo_cli_command *cmd, int argc, char **argv);
int zo_cli_cmd_gate(const zo_cli_command *cmd, int argc, char **argv);
int zo_cli_cmd_replay(const zo_cli_command *cmd, int argc, char **argv);
int zo_cli_cmd_corpus(const zo_cli_command *cmd, int argc, char **argv);
/* zoneoracle steps: the step table (case/steps.def) as text or JSON. */
int zo_cli_cmd_steps(const zo_cli_command *cmd, int argc, char **argv);
int zo_cli_cmd_serve(const zo_cli_command *cmd, int argc, char **argv);
int zo_cli_cmd_diff(const zo_cli_command *cmd, int argc, char **argv);
int zo_cli_cmd_smoke(const zo_cli_command *cmd, int argc, char **argv);
int zo_cli_cmd_site(const zo_cli_command *cmd, int argc, char **argv);
int zo_cli_cmd_known_gaps(const zo_cli_command *cmd, int argc, char **argv);
int zo_cli_cmd_table(const zo_cli_command *cmd, int argc, char **argv);

/* The known-gaps file (--expect-failures FILE, cmd_known_gaps.c;
 * ci/protocol/known-gaps.schema.json): a YAML list of maps {id, reason,
 * ruleset (optional)}, read with ydoc (base/ydoc.h). Owned by whoever
 * loaded it (zo_cli_known_gaps_free); gaps' strings live in doc. */
struct yd_doc;
typedef struct {
  const char *file;            /* the path as given (borrowed) */
  struct yd_doc *doc;          /* the parsed file, NULL for an empty one */
  zo_known_gap *gaps; int n;   /* the entries, in file order */
  zo_known_gap *unknown; int nunknown; /* zo_cli_known_gaps_check: those in
                                  the run's scope naming no case of it */
} zo_cli_known_gaps;

/* Load and check the known-gaps file path into kg (zeroed first; free it
 * with zo_cli_known_gaps_free whatever the result): a list (a file of
 * only comments is an empty one) of maps with a non-empty id and reason
 * and an optional ruleset, no other key, no entry twice (the same id and
 * rule set, or one an earlier entry without ruleset covers already);
 * comments excuse nothing. Returns -1, or ZO_EXIT_USAGE after the first
 * error on stderr as "FILE:LINE:COL: error: ..." with its source line, as
 * for case files. */
int zo_cli_known_gaps_load(const char *path, zo_cli_known_gaps *kg);

/* After a run with kg's entries as expected failures: fill kg->unknown
 * with the entries that name no case of the run, leaving out what o's
 * selection excludes (an id --filter does not match, a ruleset other
 * than --ruleset; with --shard I/N no entry is called unknown, since
 * its case may be in another shard), then print the stale entries on
 * stdout, each with its FILE:LINE: those whose case passes (xpass) and
 * the unknown ones. Prints nothing when no entry is stale. */
void zo_cli_known_gaps_check(zo_cli_known_gaps *kg, const zo_cli_opts *o, const zo_run *run);
void zo_cli_known_gaps_free(zo_cli_known_gaps *kg);

/* The suite against an engine under test, for gate and run --engine: o
 * parsed by zo_cli_parse with o->engine or o->plugin set; cmd names the
 * command in messages. Returns the exit code. */
int zo_cli_gate(const zo_cli_command *cmd, zo_cli_opts *o);

/* What run and gate print and write after a run (progress.c, reports.c). */
/* Results printed as the run goes (progress.c): attach sets opt's
 * progress callback (and max_fail from o) to print each result as it
 * finishes (all of them unless o->quiet; invalid case files on stderr),
 * with a live counter and colour on a terminal; finish ends the counter and
 * says when --max-fail stopped the run. p must outlive the run. */
typedef struct zo_cli_progress {
  const struct zo_cli_opts *o;
  int tty, colour, counter_shown;
  int results_done, invalid_done; /* printed so far */
  double t0, last_line;           /* seconds (monotonic clock) */
  const zo_engine *engine;        /* the engine under test (NULL: the oracle,
                                     which declares every rule set) */
  char *rerun;                    /* zo_cli_rerun_prefix, or NULL */
  struct json_t *undeclared;      /* rule set the engine does not declare ->
                                     its skips, never printed one by one */
  struct json_t *stderr_seen;     /* the stderr lines printed so far */
} zo_cli_progress;
/* Attach p to opt; e is the engine under test (NULL: the oracle). */
void zo_cli_progress_attach(zo_cli_progress *p, const struct zo_cli_opts *o, zo_run_options *opt);
void zo_cli_progress_engine(zo_cli_progress *p, const zo_engine *e);
/* End the counter, say when --max-fail stopped the run, and sum up the
 * skips under rule sets the engine does not declare in one line ("663
 * cases under 5 rule sets this engine doesn't declare: fab (134), ...");
 * frees what p holds. */
void zo_cli_progress_finish(zo_cli_progress *p, const zo_run *run);
/* The command that reruns one case of the run o describes, up to its
 * --ruleset and file: "zoneoracle gate --engine 'CMD'" (or
 * --engine-plugin LIB.so; "zoneoracle run" on the oracle) and the options
 * that change a verdict (--strict, --invariants, --timeout, each
 * --ruleset-file and --mutant), each word quoted for a POSIX shell. The
 * caller frees. */
char *zo_cli_rerun_prefix(const struct zo_cli_opts *o);
/* The rule sets of the run (o->ruleset, or every one) that e does not
 * declare, into ids (room for zo_ruleset_count() entries; borrowed
 * names); their number. 0 for the oracle (e NULL). */
int zo_cli_undeclared(const struct zo_cli_opts *o, const zo_engine *e, const char **ids);
/* The run record and what is rendered from it (run.jsonl, junit.xml,
 * summary.md, index.html) into the staging directory of report set set
 * (report.h; the caller commits it), for engine e, the header naming the
 * set's run id and, when kg is not NULL, the known-gaps file and its
 * unknown entries (zo_cli_known_gaps_check). Returns 0, or 1 after a
 * message on stderr when a file could not be written. */
struct zo_report_set;
int zo_cli_write_reports(const zo_cli_opts *o, const zo_run *run, const zo_engine *e,
                         const zo_cli_known_gaps *kg, struct zo_report_set *set);
/* Begin the report set of a run in o->report_dir (created if need be):
 * its lock taken, what interrupted runs left removed (report.h). NULL
 * after a message on stderr (the directory cannot be made, or another
 * run holds it: "report directory DIR is in use by another zoneoracle run
 * (pid N)"); the caller exits 2. */
struct zo_report_set *zo_cli_reports_begin(const zo_cli_opts *o);
/* --baseline RUN.jsonl must name a run record: -1, or ZO_EXIT_USAGE after
 * a message naming FILE:LINE (reports.c). */
int zo_cli_check_baseline(const zo_cli_opts *o);
/* Commit set (report.h) and, unless o->quiet, print where the reports
 * are; 0, or 1 after a message on stderr. */
int zo_cli_reports_commit(const zo_cli_opts *o, struct zo_report_set *set);
/* The exit code of a finished run of run and gate, one rule for both:
 * 3 invalid case files, else 2 an I/O error (io_bad), else 1 a failure
 * (failed > 0) or a run where no case ran (zo_run_empty; its reason is
 * printed on stderr) unless --allow-empty, else 0. */
int zo_cli_verdict(const zo_cli_opts *o, const zo_run *run, int failed, int io_bad);

/* gate --validate: the transcript of a run and its check against the
 * protocol's JSON Schemas by ci/protocol/validate.py (python3 with
 * jsonschema). */
typedef struct {
  char dir[4096];    /* the schema directory holding validate.py */
  char path[4096];   /* STAGING/protocol.jsonl (the report set's, report.h) */
  char shown[4096];  /* REPORT_DIR/protocol.jsonl: where it will be, for messages */
  char tmp[4200];    /* written there first, renamed when complete */
  FILE *tap;         /* the transcript, for zo_engine_process_options.tap */
} zo_protocol_check;

/* Before the run: find the schema directory ($ZO_PROTOCOL_DIR, else
 * <executable's dir>/../share/zoneoracle/protocol, else the source tree's
 * ci/protocol), check that python3 ($ZO_PYTHON overrides) runs
 * validate.py with jsonschema, and open the transcript in pc->tap, as
 * protocol.jsonl in staging_dir (the report set's staging directory,
 * report.h); messages name it report_dir/protocol.jsonl, where the
 * commit puts it. Returns -1 when ready, else the exit code (2) after a
 * message on stderr naming what to install or set. argv0 is main's
 * argv[0]. On -1 the caller must call zo_protocol_check_finish or
 * zo_protocol_check_abandon. */
int zo_protocol_check_start(zo_protocol_check *pc, const char *argv0, const char *staging_dir,
                            const char *report_dir);

/* After the run, once the engine said bye: close the transcript, rename it
 * into place and check it; validate.py's report (each invalid message with
 * its transcript line, schema file and JSON path) goes to stdout. Returns
 * the number of invalid messages (0: all valid) and *checked the number
 * checked, or -1 when the validator could not run (message on stderr). */
int zo_protocol_check_finish(zo_protocol_check *pc, int *checked);

/* When the run does not happen (the engine could not be started...):
 * close and remove the transcript. Does nothing for a zeroed pc. */
void zo_protocol_check_abandon(zo_protocol_check *pc);

/* Where zoneoracle's data directory `what` is (datadir.c): "cases" (the
 * suite run when no PATH is given), "protocol" (the zcp/1 schemas and
 * validate.py), "rulesets" (the rule set files and their schema) or
 * "smoke" (smoke's cases: checks.yaml and cases/).
 * Looked up in $ZO_DATA_DIR/<what> when that is set, else beside an
 * installed executable (<bin>/../share/zoneoracle/<what>), else in the
 * source tree the binary was built from. Fills out (cap bytes) and returns
 * 0 when the directory exists; -1 otherwise, out then holding the
 * installed-relative name for messages. */
int zo_cli_data_path(const char *what, char *out, size_t cap);

/* Where this zoneoracle's copy of a document its help names is
 * (PROTOCOL.md, INVARIANTS.md): installed (<bin>/../share/zoneoracle/protocol,
 * <bin>/../share/doc/zoneoracle), else in the source tree it was built
 * from; PROTOCOL.md under $ZO_DATA_DIR when that is set. Fills out and
 * returns 0 when the file exists; -1 otherwise. */
int zo_cli_doc_path(const char *name, char *out, size_t cap);

/* After a help text: the path of each document text names (every one
 * when text is NULL), as zo_cli_doc_path finds it. */
void zo_cli_print_docs(FILE *f, const char *text);

/* The version (CMake project(VERSION), e.g. "0.2.0"); static storage. */
const char *zo_cli_version(void);

/* The git commit of the source tree (and so of its case suite) this binary
 * was built from, or "unknown" (a build outside git); static storage. */
const char *zo_cli_suite_commit(void);

/* mkdir -p: 0, or -1 with errno set (options.c). */
int zo_cli_mkdirs(const char *dir);

/* gate --engine CMD --fuzz SECONDS --seed S [--out DIR] [--expect-failures
 * FILE] [--quiet] (gate_fuzz.c), from o: decoded random games within the
 * rule sets and features engine e declares (already started; borrowed),
 * on e and on the oracle, compared after every step over the protocol's
 * batch `run`; each new difference (one per rule set and property; those
 * FILE lists as known differences are only counted) minimized, replayed
 * under plain gate and written under out_dir as a YAML case when it fails
 * there the same way. Prints the findings and progress (a live line on a
 * terminal, a line every 5 s otherwise; none with --quiet) and one
 * summary line with games/s and steps/s. Returns the exit code: 0 no new
 * difference, 1 new differences written, 2 an unreadable FILE or a case
 * that could not be written. */
int zo_cli_gate_fuzz(zo_engine *e, const char *engine_name, const zo_cli_opts *o);

/* The whole command line: zoneoracle COMMAND [ARGS...] as argv (argv[0]
 * the program's name), run in this process; the exit code of the command
 * (the enum above). main (entry.c) is this; the shared library and the
 * WebAssembly build export it for the Python and npm packages, which
 * call it any number of times in one process (every call parses its
 * options anew). Out of memory ends the process, as in the command. */
int zo_cli_main(int argc, char **argv);

#endif
