/* cmd_run.c: the commands that run the case suite on the built-in oracle
 * (run, rules, mutants) or only load it (check), and rulesets. A run
 * against an engine under test is cmd_gate.c's; what both write and print
 * after a run is reports.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "engine.h"
#include "mutants.h"
#include "report.h"
#include "runner.h"
#include "util.h"
#include "cli.h"

/* A run of the collected case files on the oracle. */
typedef struct {
  char **files;
  int nfiles;
  zo_engine *engine;
  zo_run run;
  int print;  /* print the results as they finish (run; not rules) */
} suite;

/* Collect the case files o names into s (free with finish_suite). -1, or
 * the exit code after a message. */
static int collect_suite(zo_cli_opts *o, suite *s) {
  memset(s, 0, sizeof *s);
  zo_activity_set("collecting the case files");
  return zo_cli_collect(o, &s->files, &s->nfiles);
}

/* Run the collected files on the oracle (its own invariants after every
 * step with check_invariants). */
static void run_suite(zo_cli_opts *o, int check_invariants, suite *s) {
  s->engine = zo_engine_oracle_new();
  zo_run_options opt = {.ruleset = o->ruleset, .filter = o->filter,
                        .check_invariants = check_invariants,
                        .obs_invariants = o->invariants};
  zo_cli_progress progress;
  if (s->print) zo_cli_progress_attach(&progress, o, &opt);
  zo_activity_set("running %d case files", s->nfiles);
  zo_run_files(s->engine, s->files, s->nfiles, &opt, &s->run);
  zo_activity_set(NULL);
  if (s->print) zo_cli_progress_finish(&progress, &s->run);
}

/* Free what collect_suite and run_suite made. */
static void finish_suite(suite *s) {
  zo_run_clear(&s->run);
  if (s->engine) zo_engine_oracle_free(s->engine);
  zo_paths_free(s->files, s->nfiles);
}

/* zoneoracle run: the cases on the built-in oracle (the default engine;
 * --engine oracle says so); any other --engine CMD or --engine-plugin PATH
 * makes it a gate run. */
int zo_cli_cmd_run(const zo_cli_command *cmd, int argc, char **argv) {
  zo_cli_opts o;
  int rc = zo_cli_parse(cmd, argc, argv, &o);
  if (rc >= 0) goto out;
  if (o.engine && !strcmp(o.engine, "oracle")) o.engine = NULL; /* the default */
  if (o.engine || o.plugin) {
    rc = zo_cli_gate(cmd, &o);
    goto out;
  }
  if (o.given & ZO_OPT_GATE_ONLY) {
    unsigned bit = o.given & ZO_OPT_GATE_ONLY;
    bit &= -bit; /* the first one */
    rc = zo_cli_usage_error(cmd, "--%s is for a run against an engine under test (--engine CMD or "
                                 "--engine-plugin LIB.so; zoneoracle help gate)", zo_cli_option_name(bit));
    goto out;
  }
  suite s;
  if ((rc = zo_cli_check_baseline(&o)) >= 0) goto out;
  if ((rc = collect_suite(&o, &s)) >= 0) {
    finish_suite(&s);
    goto out;
  }
  zo_report_set *set = zo_cli_reports_begin(&o);
  if (!set) {
    finish_suite(&s);
    rc = ZO_EXIT_USAGE;
    goto out;
  }
  s.print = 1;
  run_suite(&o, 1, &s);
  const zo_run *run = &s.run;
  int io_bad = zo_cli_write_reports(&o, run, s.engine, NULL, set);
  if (io_bad) zo_report_set_abandon(set);
  else io_bad = zo_cli_reports_commit(&o, set);
  int not_passed = run->failed + run->errors;
  printf("%d cases x rule sets in %.0f ms; %d invalid case files\n", run->n, run->ms, run->ninvalid);
  printf("%d passed, %d failed, %d skipped\n", run->passed, not_passed, run->skipped);
  rc = zo_cli_verdict(&o, run, not_passed, io_bad);
  finish_suite(&s);
out:
  zo_cli_opts_free(&o);
  return rc;
}

/* zoneoracle check: load every case file, report each error and duplicate
 * ids, run nothing. */
int zo_cli_cmd_check(const zo_cli_command *cmd, int argc, char **argv) {
  zo_cli_opts o;
  char **files = NULL;
  int nfiles = 0;
  int rc = zo_cli_parse(cmd, argc, argv, &o);
  if (rc >= 0 || (rc = zo_cli_collect(&o, &files, &nfiles)) >= 0) {
    zo_cli_opts_free(&o);
    return rc;
  }
  int bad = 0;
  char **ids = zo_xcalloc((size_t)nfiles + 1, sizeof *ids);
  char **idfiles = zo_xcalloc((size_t)nfiles + 1, sizeof *idfiles);
  int nids = 0;
  for (int i = 0; i < nfiles; i++) {
    zo_case *c;
    zo_error err = {0};
    zo_activity_set("loading %s", files[i]);
    zo_status st = zo_case_load_file(files[i], &c, &err);
    if (st == ZO_ERR_NOMEM) zo_oom(NULL); /* never a verdict (util.h) */
    if (st) {
      char buf[2048];
      zo_error_format(&err, buf, sizeof buf);
      fprintf(stderr, "%s\n", buf);
      bad++;
      continue;
    }
    for (int k = 0; k < nids; k++)
      if (!strcmp(ids[k], zo_case_id(c))) {
        fprintf(stderr, "%s:1:1: error: id '%s' is also the id of %s\n", files[i], zo_case_id(c), idfiles[k]);
        bad++;
      }
    ids[nids] = zo_xstrdup(zo_case_id(c));
    idfiles[nids++] = files[i];
    zo_case_free(c);
  }
  for (int k = 0; k < nids; k++) free(ids[k]);
  free(ids);
  free(idfiles);
  printf("%d case files checked, %d invalid\n", nfiles, bad);
  zo_paths_free(files, nfiles);
  zo_cli_opts_free(&o);
  return bad ? ZO_EXIT_INVALID : ZO_EXIT_PASS;
}

/* zoneoracle rulesets: id and title of each rule set. */
int zo_cli_cmd_rulesets(const zo_cli_command *cmd, int argc, char **argv) {
  zo_cli_opts o;
  int rc = zo_cli_parse(cmd, argc, argv, &o);
  zo_cli_opts_free(&o);
  if (rc >= 0) return rc;
  for (size_t i = 0; i < zo_ruleset_count(); i++)
    printf("%-12s %s\n", zo_ruleset_id(zo_ruleset_at(i)), zo_ruleset_title(zo_ruleset_at(i)));
  return ZO_EXIT_PASS;
}

/* The scenario stem of a case id written once per era
 * ("mtg/eras/phased-out-token.mtg-1999" -> "mtg/eras/phased-out-token"),
 * or 0 when the id does not end in ".<rule set id>". */
static int era_stem(const char *id, char *stem, size_t cap) {
  const char *dot = strrchr(id, '.');
  if (!dot || !zo_ruleset_find(dot + 1)) return 0;
  snprintf(stem, cap, "%.*s", (int)(dot - id), id);
  return 1;
}

/* Scenarios written for two or more rule sets (each file its own era). */
static int count_era_scenarios(const zo_run *run) {
  int n = 0;
  for (int i = 0; i < run->n; i++) {
    char stem[512], other[512];
    if (!era_stem(run->results[i].case_id, stem, sizeof stem)) continue;
    int first = 1, variants = 0;
    for (int j = 0; j < run->n; j++) {
      if (!era_stem(run->results[j].case_id, other, sizeof other) || strcmp(stem, other)) continue;
      if (j < i) first = 0;
      variants++;
    }
    if (first && variants >= 2) n++;
  }
  return n;
}

/* zoneoracle rules: every rule, the cases citing it, oracle hits over the
 * suite, and why a rule out of the model's scope has none; exits 1 when a
 * rule numbered in a seed text has no case. */
int zo_cli_cmd_rules(const zo_cli_command *cmd, int argc, char **argv) {
  zo_cli_opts o;
  int rc = zo_cli_parse(cmd, argc, argv, &o);
  if (rc >= 0) {
    zo_cli_opts_free(&o);
    return rc;
  }
  o.filter = NULL; /* coverage is over every case */
  suite s;
  if ((rc = collect_suite(&o, &s)) >= 0) {
    finish_suite(&s);
    zo_cli_opts_free(&o);
    return rc;
  }
  run_suite(&o, 0, &s);
  zo_activity_set("counting the rules' cases");
  const zo_run run = s.run;
  int json = !strcmp(o.format, "json");
  json_t *jall = json_array();
  int gaps = 0, seeds = 0;
  for (size_t r = 0; r < zo_ruleset_count(); r++) {
    const zo_ruleset *rs = zo_ruleset_at(r);
    if (o.ruleset && strcmp(o.ruleset, zo_ruleset_id(rs))) continue;
    if (!json) printf("%s: %s\n", zo_ruleset_id(rs), zo_ruleset_title(rs));
    json_t *jrules = json_array();
    int covered = 0, nseed = 0, nout = 0, ngap = 0;
    for (size_t i = 0; i < zo_ruleset_rule_count(rs); i++) {
      const char *id = zo_ruleset_rule_id(rs, i);
      int hits = 0;
      json_t *jcases = json_array();
      for (int k = 0; k < run.n; k++) {
        const zo_case_result *cr = &run.results[k];
        if (strcmp(cr->ruleset, zo_ruleset_id(rs))) continue;
        for (int j = 0; j < cr->nrules; j++)
          if (!strcmp(cr->rules[j], id)) json_array_append_new(jcases, json_string(cr->case_id));
        for (int j = 0; j < cr->nhits; j++)
          if (!strcmp(cr->hits[j].id, id)) hits += cr->hits[j].count;
      }
      int cases = (int)json_array_size(jcases);
      int seed = zo_ruleset_rule_is_seed(rs, i);
      const char *out = zo_ruleset_rule_out_of_scope(rs, i);
      const char *gap = zo_ruleset_rule_language_gap(rs, i);
      nseed += seed;
      nout += out != NULL;
      ngap += gap != NULL;
      if (seed && cases) covered++;
      if (seed && !cases) gaps++;
      if (json)
        json_array_append_new(jrules, json_pack("{s:s, s:s, s:b, s:s?, s:s?, s:o, s:i}", "id", id,
                                                "text", zo_ruleset_rule_text(rs, i), "seed", seed,
                                                "out_of_scope", out, "language_gap", gap, "cases",
                                                jcases, "hits", hits));
      else {
        printf("  %-18s %s cases %3d  hits %5d  %s%s\n", id,
               seed ? "seed" : out ? "out " : gap ? "gap " : "    ", cases, hits,
               seed && !cases ? "NO CASE" : "", out ? out : gap ? gap : "");
        json_decref(jcases);
      }
    }
    seeds += nseed;
    if (json)
      json_array_append_new(jall, json_pack("{s:s, s:s, s:o, s:i, s:i, s:i, s:i}", "id",
                                            zo_ruleset_id(rs),
                                            "title", zo_ruleset_title(rs), "rules", jrules,
                                            "seed_rules", nseed, "seed_rules_covered", covered,
                                            "out_of_scope", nout, "language_gap", ngap));
    else {
      printf("  seed rules covered: %d/%d\n", covered, nseed);
      if (nout) printf("  rules out of the zone model's scope (each with its reason): %d\n", nout);
      if (ngap)
        printf("  zone rules the case language can't express yet (each with what it lacks): %d\n",
               ngap);
      json_decref(jrules);
    }
  }
  int eras = count_era_scenarios(&run);
  if (json) {
    json_t *doc = json_pack("{s:o, s:i, s:i, s:i}", "rulesets", jall, "seed_rules", seeds,
                            "seed_rules_without_case", gaps, "era_scenarios", eras);
    char *txt = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (txt) puts(txt);
    free(txt);
    json_decref(doc);
  } else {
    json_decref(jall);
    printf("%d era-difference scenarios (one scenario, one case per rule set)\n", eras);
    printf("%d seed rules without a case (of %d)\n", gaps, seeds);
  }
  rc = run.ninvalid ? ZO_EXIT_INVALID : gaps ? ZO_EXIT_FAIL : ZO_EXIT_PASS;
  finish_suite(&s);
  zo_cli_opts_free(&o);
  return rc;
}

/* zoneoracle mutants [--list]: how strong the suite is. */
int zo_cli_cmd_mutants(const zo_cli_command *cmd, int argc, char **argv) {
  zo_cli_opts o;
  int rc = zo_cli_parse(cmd, argc, argv, &o);
  if (rc >= 0) {
    zo_cli_opts_free(&o);
    return rc;
  }
  zo_mutant *ms;
  int n = zo_mutants_list(&ms);
  if (o.list) {
    for (int i = 0; i < n; i++) puts(ms[i].name);
    printf("%d mutants\n", n);
    free(ms);
    zo_cli_opts_free(&o);
    return ZO_EXIT_PASS;
  }
  char **files;
  int nfiles;
  if ((rc = zo_cli_collect(&o, &files, &nfiles)) >= 0) {
    free(ms);
    zo_cli_opts_free(&o);
    return rc;
  }
  /* load the cases once */
  zo_case **cs = zo_xcalloc((size_t)nfiles + 1, sizeof *cs);
  for (int i = 0; i < nfiles; i++) {
    zo_error err = {0};
    zo_activity_set("loading %s", files[i]);
    zo_status st = zo_case_load_file(files[i], &cs[i], &err);
    if (st == ZO_ERR_NOMEM) zo_oom(NULL); /* never a verdict (util.h) */
    if (st) cs[i] = NULL;
  }
  zo_activity_set("running the mutants");
  zo_engine *e = zo_engine_oracle_new();
  zo_run_options opt = {.check_invariants = 0};
  int survived = 0;
  printf("%-58s %s\n", "mutant", "killed by");
  for (int k = 0; k < n; k++) {
    zo_ruleset *orig = zo_mutant_apply(&ms[k]);
    const zo_ruleset *mut = zo_ruleset_at((size_t)ms[k].rs);
    const char *killer = NULL;
    for (int i = 0; i < nfiles && !killer; i++) {
      if (!cs[i]) continue;
      for (int r = 0; r < cs[i]->nrulesets && !killer; r++) {
        if (strcmp(cs[i]->rulesets[r], mut->id)) continue;
        zo_case_result res;
        zo_run_case(e, cs[i], mut, &opt, &res);
        if (res.status != RS_PASS && res.status != RS_SKIP) killer = cs[i]->id;
        zo_case_result_clear(&res);
      }
    }
    zo_mutant_restore(&ms[k], orig);
    printf("%-58s %s\n", ms[k].name, killer ? killer : "SURVIVED");
    survived += !killer;
  }
  printf("%d mutants, %d killed, %d survived\n", n, n - survived, survived);
  for (int i = 0; i < nfiles; i++) zo_case_free(cs[i]);
  free(cs);
  zo_engine_oracle_free(e);
  zo_paths_free(files, nfiles);
  free(ms);
  zo_cli_opts_free(&o);
  return survived ? ZO_EXIT_FAIL : ZO_EXIT_PASS;
}
