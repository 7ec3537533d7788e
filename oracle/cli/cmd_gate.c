/* cmd_gate.c: `zoneoracle gate --engine CMD | --engine-plugin LIB.so`, the
 * suite against an engine under test (also `run --engine CMD`), or with
 * --fuzz differential fuzzing of it (gate_fuzz.c). */
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

/* The shields.io endpoint badge (zo_report_render_badge), rendered from
 * the run record in the staging directory of set, into it. 0, or 1 after
 * a message naming REPORT_DIR/badge.json when it could not be written. */
static int write_badge(const zo_cli_opts *o, zo_report_set *set, int protocol_invalid) {
  char *path = zo_report_set_path(set, "badge.json"), *record = zo_report_set_path(set, "run.jsonl");
  zo_error err = {0};
  int io_bad = 0;
  if (zo_report_render_badge(record, protocol_invalid, path, &err)) {
    fprintf(stderr, "zoneoracle: %s/badge.json: %s\n", o->report_dir, err.message);
    io_bad = 1;
  }
  free(path);
  free(record);
  return io_bad;
}

/* gate --fuzz: the options it takes besides the engine's; any other is a
 * usage error rather than silently ignored. */
#define FUZZ_OPTS (ZO_OPT_ENGINE | ZO_OPT_ENGINE_PLUGIN | ZO_OPT_TIMEOUT | ZO_OPT_FUZZ | ZO_OPT_SEED | \
                   ZO_OPT_OUT | ZO_OPT_QUIET | ZO_OPT_MUTANT | ZO_OPT_RULESET_FILE | ZO_OPT_EXPECT_FAILURES | \
                   ZO_OPT_RULESET)

/* gate --fuzz SECONDS: differential fuzzing of the engine. */
static int gate_fuzz(const zo_cli_command *cmd, zo_cli_opts *o) {
  unsigned extra = o->given & ~(unsigned)FUZZ_OPTS;
  if (extra) {
    extra &= -extra;
    return zo_cli_usage_error(cmd, "--fuzz does not take --%s", zo_cli_option_name(extra));
  }
  if (o->nargs) return zo_cli_usage_error(cmd, "--fuzz generates its games: it takes no PATH ('%s')", o->args[0]);
  zo_engine_process_options eo = {.timeout = o->timeout};
  zo_engine *e = zo_cli_engine_open(o->engine, o->plugin, &eo);
  if (!e) return ZO_EXIT_ENGINE;
  int rc = zo_cli_gate_fuzz(e, o->plugin ? o->plugin : o->engine, o);
  zo_engine_process_free(e);
  return rc;
}

/* The suite (or --fuzz) against the engine o names; the exit code, 4 when
 * the engine cannot be started or fails the handshake (cli.h). */
int zo_cli_gate(const zo_cli_command *cmd, zo_cli_opts *o) {
  if (!o->engine == !o->plugin)
    return zo_cli_usage_error(cmd, o->engine ? "give --engine CMD or --engine-plugin LIB.so, not both"
                                             : "needs --engine CMD or --engine-plugin LIB.so");
  if (o->given & ZO_OPT_FUZZ) return gate_fuzz(cmd, o);
  if (o->given & (ZO_OPT_SEED | ZO_OPT_OUT))
    return zo_cli_usage_error(cmd, "--%s is for --fuzz SECONDS",
                              zo_cli_option_name(o->given & ZO_OPT_SEED ? ZO_OPT_SEED : ZO_OPT_OUT));
  zo_run_options opt = {.ruleset = o->ruleset, .filter = o->filter, .check_invariants = 0,
                        .obs_invariants = o->invariants, .shard = o->shard, .nshards = o->nshards};
  int rc;
  char **files = NULL;
  int nfiles = 0;
  zo_protocol_check pc = {0};
  zo_engine *e = NULL;
  zo_report_set *set = NULL;
  zo_cli_known_gaps kg = {0};
  /* the inputs first: a bad path or list is a usage error before any engine starts */
  if ((rc = zo_cli_check_baseline(o)) >= 0) goto out;
  if (o->expect_failures) {
    if ((rc = zo_cli_known_gaps_load(o->expect_failures, &kg)) >= 0) goto out;
    opt.xfail = kg.gaps;
    opt.nxfail = kg.n;
  }
  if ((rc = zo_cli_collect(o, &files, &nfiles)) >= 0) goto out;
  /* the report set: its lock before anything runs (report.h) */
  zo_activity_set("preparing the report directory %s", o->report_dir);
  if (!(set = zo_cli_reports_begin(o))) {
    rc = ZO_EXIT_USAGE;
    goto out;
  }
  /* --validate: every message into the set's protocol.jsonl (cli.h) */
  if (o->validate && (rc = zo_protocol_check_start(&pc, "zoneoracle", zo_report_set_staging(set), o->report_dir)) >= 0) goto out;
  zo_engine_process_options eo = {.timeout = o->timeout, .tap = pc.tap};
  zo_activity_set("starting the engine");
  if (!(e = zo_cli_engine_open(o->engine, o->plugin, &eo))) {
    zo_protocol_check_abandon(&pc);
    rc = ZO_EXIT_ENGINE;
    goto out;
  }
  zo_run run = {0};
  if (o->strict) opt.strict = zo_engine_oracle_new();
  zo_activity_set("running %d case files against the engine", nfiles);
  zo_cli_progress progress;
  zo_cli_progress_attach(&progress, o, &opt);
  zo_cli_progress_engine(&progress, e);
  zo_run_files(e, files, nfiles, &opt, &run);
  zo_cli_progress_finish(&progress, &run);
  zo_engine_oracle_free(opt.strict);
  if (o->expect_failures) zo_cli_known_gaps_check(&kg, o, &run); /* its stale entries */
  int write_bad = zo_cli_write_reports(o, &run, e, o->expect_failures ? &kg : NULL, set), io_bad = 0;
  char protocol[200] = "";
  int invalid = 0;
  if (o->validate) { /* bye belongs to the transcript too */
    int checked = 0;
    zo_engine_process_bye(e, NULL);
    zo_activity_set("checking the protocol transcript");
    invalid = zo_protocol_check_finish(&pc, &checked);
    if (invalid > 0) snprintf(protocol, sizeof protocol, "; %d of %d protocol messages invalid", invalid, checked);
    else if (!invalid) snprintf(protocol, sizeof protocol, "; %d protocol messages valid", checked);
    else snprintf(protocol, sizeof protocol, "; protocol messages not checked");
    io_bad |= invalid < 0;
  }
  int bad = run.failed + run.errors + run.xpassed + (invalid > 0);
  if (!write_bad) write_bad |= write_badge(o, set, invalid); /* from the record */
  /* a set with a file missing is not committed: the previous one stays */
  if (write_bad) zo_report_set_abandon(set);
  else write_bad = zo_cli_reports_commit(o, set);
  set = NULL;
  io_bad |= write_bad;
  printf("%s %s: %d cases x rule sets; %d xfail, %d xpass (take them off the list)\n",
         e->ops->name, e->ops->version, run.n, run.xfailed, run.xpassed);
  printf("%d passed, %d failed, %d skipped%s\n", run.passed, run.failed + run.errors + run.xpassed,
         run.skipped, protocol);
  rc = zo_cli_verdict(o, &run, bad, io_bad);
  zo_run_clear(&run);
out:
  zo_report_set_abandon(set); /* NULL once committed */
  zo_engine_process_free(e);
  zo_paths_free(files, nfiles);
  zo_cli_known_gaps_free(&kg);
  return rc;
}

/* zoneoracle gate: parse, then zo_cli_gate. */
int zo_cli_cmd_gate(const zo_cli_command *cmd, int argc, char **argv) {
  zo_cli_opts o;
  int rc = zo_cli_parse(cmd, argc, argv, &o);
  if (rc < 0) rc = zo_cli_gate(cmd, &o);
  zo_cli_opts_free(&o);
  return rc;
}
