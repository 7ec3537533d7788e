/* reports.c: what run and gate share after a run, below both commands
 * (cmd_run.c, cmd_gate.c): the --baseline check, the report set begun,
 * written and committed, and the exit code of a finished run (cli.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "engine.h"
#include "report.h"
#include "runner.h"
#include "util.h"
#include "cli.h"

/* "zoneoracle: FILE: MESSAGE" (FILE left out when err names none). */
static void print_error(const zo_error *err) {
  if (err->file[0]) fprintf(stderr, "zoneoracle: %s: %s\n", err->file, err->message);
  else fprintf(stderr, "zoneoracle: %s\n", err->message);
}

/* --baseline: the file must be a run record, checked before anything runs;
 * -1, or ZO_EXIT_USAGE after a message (cli.h). */
int zo_cli_check_baseline(const zo_cli_opts *o) {
  if (!o->baseline) return -1;
  zo_error err = {0};
  json_t *cases = zo_report_read_cases(o->baseline, &err);
  if (!cases) {
    if (err.line) fprintf(stderr, "zoneoracle: %s:%d: %s (--baseline)\n", err.file, err.line, err.message);
    else print_error(&err);
    return ZO_EXIT_USAGE;
  }
  json_decref(cases);
  return -1;
}

/* The report set of a run in o->report_dir; NULL after a message (cli.h). */
zo_report_set *zo_cli_reports_begin(const zo_cli_opts *o) {
  if (zo_cli_mkdirs(o->report_dir)) {
    fprintf(stderr, "zoneoracle: cannot create %s: %s\n", o->report_dir, strerror(errno));
    return NULL;
  }
  zo_report_set *set;
  zo_error err = {0};
  if (zo_report_set_begin(o->report_dir, &set, &err)) {
    print_error(&err);
    return NULL;
  }
  return set;
}

/* The run record (its header with the run id, the suite commit and this
 * version) and its renderings into the staging directory of set; 0, or 1
 * after a message (cli.h). */
int zo_cli_write_reports(const zo_cli_opts *o, const zo_run *run, const zo_engine *e,
                         const zo_cli_known_gaps *kg, zo_report_set *set) {
  zo_error err = {0};
  size_t nall = zo_ruleset_count();
  const char **ids = zo_xcalloc(nall + 1, sizeof *ids);
  int nids = 0;
  for (size_t i = 0; i < nall; i++) {
    const char *id = zo_ruleset_id(zo_ruleset_at(i));
    if (!o->ruleset || !strcmp(o->ruleset, id)) ids[nids++] = id;
  }
  zo_run_header h = {.suite_commit = zo_cli_suite_commit(), .engine = e->ops->name,
                     .engine_version = e->ops->version, .rulesets = ids, .nrulesets = nids,
                     .zoneoracle_version = zo_cli_version(), .run_id = zo_report_set_run_id(set),
                     .known_gaps = kg ? kg->file : NULL, .unknown_gaps = kg ? kg->unknown : NULL,
                     .nunknown_gaps = kg ? kg->nunknown : 0, .baseline = o->baseline};
  /* what a failure needs to be rerun alone; the rule sets the engine
     doesn't declare, summed up in one line */
  char *rerun = zo_cli_rerun_prefix(o);
  const char **undeclared = zo_xcalloc(nall + 1, sizeof *undeclared);
  h.rerun = rerun;
  h.undeclared = undeclared;
  h.nundeclared = zo_cli_undeclared(o, e, undeclared);
  zo_activity_set("writing the reports for %s", o->report_dir);
  char *p1 = zo_report_set_path(set, "run.jsonl");
  char *p2 = zo_report_set_path(set, "junit.xml");
  char *p3 = zo_report_set_path(set, "summary.md");
  char *p4 = zo_report_set_path(set, "index.html");
  int io_bad = 0;
  if (zo_report_write_jsonl(run, &h, p1, &err) || zo_report_render_all(p1, p2, p3, p4, &err)) {
    /* named where it was to go, not by its staging directory */
    const char *stg = zo_report_set_staging(set);
    size_t ns = strlen(stg);
    if (!strncmp(err.file, stg, ns) && err.file[ns] == '/')
      fprintf(stderr, "zoneoracle: %s%s: %s\n", o->report_dir, err.file + ns, err.message);
    else
      print_error(&err);
    io_bad = 1;
  }
  free(p1);
  free(p2);
  free(p3);
  free(p4);
  free(ids);
  free(rerun);
  free(undeclared);
  return io_bad;
}

/* Commit set and say where the reports are; 0, or 1 after a message
 * (cli.h). */
int zo_cli_reports_commit(const zo_cli_opts *o, zo_report_set *set) {
  zo_error err = {0};
  char note[320];
  zo_activity_set("putting the reports in place in %s", o->report_dir);
  if (zo_report_set_commit(set, note, sizeof note, &err)) {
    print_error(&err);
    return 1;
  }
  if (note[0])
    fprintf(stderr, "zoneoracle: note: the reports in %s were replaced file by file, not as a whole (%s)\n",
            o->report_dir, note);
  if (!o->quiet)
    printf("reports: %s/run.jsonl %s/junit.xml %s/summary.md %s/index.html\n", o->report_dir, o->report_dir,
           o->report_dir, o->report_dir);
  return 0;
}

/* The exit code of a finished run or gate (cli.h); the reason of an
 * empty run on stdout. */
int zo_cli_verdict(const zo_cli_opts *o, const zo_run *run, int failed, int io_bad) {
  char why[800];
  int empty = zo_run_empty(run, why, sizeof why);
  if (empty && !run->ninvalid)
    printf("%s%s\n", why, o->given & ZO_OPT_ALLOW_EMPTY ? " (--allow-empty: not a failure)" : "");
  if (run->ninvalid) return ZO_EXIT_INVALID;
  if (io_bad) return ZO_EXIT_USAGE;
  if (failed || (empty && !(o->given & ZO_OPT_ALLOW_EMPTY))) return ZO_EXIT_FAIL;
  return ZO_EXIT_PASS;
}
