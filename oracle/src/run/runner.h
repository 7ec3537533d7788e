/* runner.h: run cases against an engine and keep one result per case and
 * rule set (the run record that reports are rendered from). */
#ifndef ZO_RUNNER_H
#define ZO_RUNNER_H

#include "engine.h"
#include "error.h"

/* Outcome of one case under one rule set (ci/protocol/PROTOCOL.md). Append-only. */
typedef enum {
  RS_PASS = 0, RS_FAIL, RS_ERROR, RS_SKIP, RS_CRASH, RS_TIMEOUT, RS_XFAIL, RS_XPASS
} zo_result_status;
const char *zo_result_status_name(zo_result_status s);

typedef struct {
  char *id;     /* rule number */
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
  char **rules; int nrules;  /* cited by the case */
  zo_hit *hits; int nhits;   /* rules the engine applied, with counts */
  double ms;
} zo_case_result;

/* A case file that could not be loaded. */
typedef struct {
  char *file;
  char *message; /* "file:line:col: error: ..." with its note */
} zo_invalid;

typedef struct {
  zo_case_result *results; int n, cap;
  zo_invalid *invalid; int ninvalid;
  int passed, failed, errors, skipped;  /* errors: error, crash, timeout */
  int xfailed, xpassed;
  double ms;
} zo_run;

typedef struct {
  const char *ruleset;   /* only this rule set id, or NULL */
  const char *filter;    /* fnmatch glob on case ids, or NULL */
  int check_invariants;  /* zo_game_check after every step (oracle) */
  int shard, nshards;    /* run case files i with i % nshards == shard (0-based) */
  char **xfail; int nxfail; /* expected failures: case ids */
  zo_engine *strict;     /* --strict: the oracle, compared after every step */
  int obs_invariants;    /* --invariants: fuzz/INVARIANTS.md on the engine's
                            observations after the setup and every step
                            (obs_check.h); a violation fails the case */
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

void zo_run_free(zo_run *run);

/* The first protocol feature (ci/protocol/PROTOCOL.md) case c needs, from its steps,
 * expectations and `features:` key, that engine e does not declare; NULL
 * when e can run it. Static storage. */
const char *zo_case_missing_feature(zo_engine *e, const zo_case *c);


#endif
