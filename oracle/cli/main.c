/* main.c: the zoneoracle command line.
 *
 *   run [PATH...]     run cases against the built-in oracle, write reports/
 *   check [PATH...]   validate case files (no run)
 *   rulesets          list the rule sets
 *   rules             rule coverage: every rule, the cases citing it, hits
 *
 * Exit codes: 0 pass, 1 conformance failures, 2 usage or I/O, 3 invalid case
 * files, 4 engine could not be driven.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "../../fuzz/decoder.h"
#include "../../fuzz/diff.h"
#include "../src/engine.h"
#include "../src/mutants.h"
#include "../src/serve.h"
#include "../src/report.h"
#include "../src/runner.h"
#include "../src/util.h"
#include "../src/game.h"
#include "cli.h"

enum { EXIT_PASS = 0, EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_INVALID = 3, EXIT_ENGINE = 4 };

static const char usage[] =
    "usage: zoneoracle COMMAND [OPTIONS] [PATH...]\n"
    "\n"
    "commands:\n"
    "  run [PATH...]       run case files (default: cases/) against the oracle\n"
    "      --engine oracle the default; --engine CMD or --engine-plugin LIB.so\n"
    "                      runs them against that engine, as gate does\n"
    "      --ruleset ID    only this rule set\n"
    "      --filter GLOB   only case ids matching GLOB (fnmatch)\n"
    "      --report-dir D  where reports go (default: reports)\n"
    "      --quiet         print failures and the summary only\n"
    "      --ruleset-file F  load a rule set of your own (repeatable; also for\n"
    "                      check and rules); its cases name its id\n"
    "      --mutant NAME   the oracle plays one rule wrong (zoneoracle mutants\n"
    "                      --list); also for serve\n"
    "  gate --engine CMD | --engine-plugin LIB.so [PATH...]\n"
    "                      the suite against an engine that speaks zcp/1 on its\n"
    "                      stdin/stdout (PROTOCOL.md); same reports as run, plus\n"
    "                      badge.json; exit 0 pass, 1 failures, 2 the engine\n"
    "                      could not be started or spoke no zcp/1\n"
    "      --timeout S     limit per request (default 5 s)\n"
    "      --expect-failures FILE  YAML list of {id, reason}: known gaps\n"
    "      --shard I/N     run every Nth case file, starting at the Ith\n"
    "      --validate      check every message of the run against the JSON\n"
    "                      Schemas (ci/protocol; python3-jsonschema); the\n"
    "                      transcript is REPORT_DIR/protocol.jsonl\n"
    "      --strict        also compare every observable property with the\n"
    "                      oracle after every step; report the first difference\n"
    "      --invariants    check INVARIANTS.md on the engine's observations after\n"
    "                      the setup and every step; a violation fails the case\n"
    "                      ('invariant ID'); also for run (the oracle's)\n"
    "      --fuzz SECONDS  differential fuzzing instead of the suite: decoded\n"
    "                      random games sent in batch (zcp/1 run), compared\n"
    "                      with the oracle after every step; each difference\n"
    "                      minimized into a YAML case; exit 1 on a difference\n"
    "      --seed S        the games' generator seed (default 1)\n"
    "      --out DIR       where the cases go (default reports/fuzz-diff)\n"
    "  check [PATH...]     validate case files without running them\n"
    "  rulesets            list the rule sets (id and title)\n"
    "  rules [PATH...]     every rule of every rule set, the cases citing it and\n"
    "      --ruleset ID    how often the oracle applied it, and the count of\n"
    "      --format F      era-difference scenarios (cases/mtg/eras); text or\n"
    "                      json; exits 1 when a seed rule has no case\n"
    "  replay --harness moves FILE [--id ID]\n"
    "                      decode a fuzz input and print it as a YAML case: its\n"
    "                      steps, each with the outcome the oracle gave, and the\n"
    "                      final zones; exits 1 and names the invariant when the\n"
    "                      input breaks one (the case stops at that step)\n"
    "  replay --harness diff FILE [--engine CMD | --engine-plugin LIB.so]\n"
    "                      a fuzz_diff input on the oracle and the engine\n"
    "                      (default $ZO_DIFF_ENGINE); the case up to the first\n"
    "                      difference, expecting the oracle's value; exit 1\n"
    "  corpus [PATH...] [--out DIR]\n"
    "                      write seed corpora (default DIR: corpus): the suite's\n"
    "                      case files for fuzz_case_load, the rule set files for\n"
    "                      fuzz_ruleset_load, each case x rule set encoded as\n"
    "                      decoder input for fuzz_moves\n"
    "  serve [--mutant NAME]\n"
    "                      the oracle as a zcp/1 engine: JSON Lines requests on\n"
    "                      stdin, responses on stdout (PROTOCOL.md)\n"
    "  smoke --engine CMD | --engine-plugin LIB.so [--timeout S]\n"
    "                      check an adapter in seconds: handshake, one built-in\n"
    "                      case per declared feature, malformed requests, bye;\n"
    "                      exit 0 all ok, 1 a check failed\n"
    "  diff A.jsonl B.jsonl what changed between two run records: new failures,\n"
    "                      fixes, new skips; exit 1 on a new failure\n"
    "  mutants [--list] [PATH...]\n"
    "                      run the suite against every mutant of the oracle (one\n"
    "                      switch or zone attribute changed) and print which case\n"
    "                      kills it, or SURVIVED; exit 1 if any survives\n"
    "  version             print the version\n"
    "\n"
    "exit codes: 0 pass, 1 conformance failures, 2 usage or I/O,\n"
    "            3 invalid case files, 4 engine could not be driven\n";

static int bad_usage(const char *msg) {
  fprintf(stderr, "zoneoracle: %s\n%s", msg, usage);
  return EXIT_USAGE;
}

typedef struct {
  const char *paths[256];
  int npaths;
  const char *ruleset, *filter, *report_dir, *format;
  int quiet;
  int invariants; /* --invariants (run, gate): INVARIANTS.md on observations */
} args;

/* --mutant NAME: the oracle plays one rule wrong (mutants.h) for the rest
   of the run. -1, or the exit code of a bad name. */
static int use_mutant(const char *name) {
  zo_error err;
  if (zo_mutant_apply_named(name, &err)) {
    fprintf(stderr, "zoneoracle: %s\n", err.message);
    return EXIT_USAGE;
  }
  return -1;
}

static int parse_args(int argc, char **argv, args *a) {
  memset(a, 0, sizeof *a);
  a->report_dir = "reports";
  a->format = "text";
  for (int i = 2; i < argc; i++) {
    const char *s = argv[i];
    if (!strcmp(s, "--ruleset") || !strcmp(s, "--filter") || !strcmp(s, "--report-dir") ||
        !strcmp(s, "--ruleset-file") || !strcmp(s, "--format") || !strcmp(s, "--mutant")) {
      if (i + 1 >= argc) return bad_usage("option needs a value");
      const char *v = argv[++i];
      if (!strcmp(s, "--mutant")) {
        int rc = use_mutant(v);
        if (rc >= 0) return rc;
      } else if (!strcmp(s, "--ruleset")) a->ruleset = v;
      else if (!strcmp(s, "--filter")) a->filter = v;
      else if (!strcmp(s, "--format")) a->format = v;
      else if (!strcmp(s, "--ruleset-file")) {
        /* a user's rule set: validated like a case file, then findable */
        zo_ruleset *rs;
        zo_error err = {0};
        if (zo_ruleset_load_file(v, &rs, &err) || zo_ruleset_register(rs, &err)) {
          char buf[2048];
          zo_format_error(&err, buf, sizeof buf);
          fprintf(stderr, "%s\n", buf);
          return err.code == ZO_ERR_IO ? EXIT_USAGE : EXIT_INVALID;
        }
      } else a->report_dir = v;
    } else if (!strcmp(s, "--quiet")) {
      a->quiet = 1;
    } else if (!strcmp(s, "--invariants")) {
      a->invariants = 1;
    } else if (s[0] == '-') {
      char m[300];
      snprintf(m, sizeof m, "unknown option '%s'", s);
      return bad_usage(m);
    } else if (a->npaths < 256) {
      a->paths[a->npaths++] = s;
    }
  }
  if (!a->npaths) a->paths[a->npaths++] = "cases";
  if (strcmp(a->format, "text") && strcmp(a->format, "json"))
    return bad_usage("--format takes text or json");
  if (a->ruleset && !zo_ruleset_find(a->ruleset)) {
    fprintf(stderr, "zoneoracle: unknown rule set '%s' (zoneoracle rulesets lists them)\n", a->ruleset);
    return EXIT_USAGE;
  }
  return -1;
}

/* The case files named by a (directories walked); reports a bad path. */
static int collect(const args *a, char ***files, int *nfiles) {
  zo_error err = {0};
  if (zo_collect_cases(a->paths, a->npaths, files, nfiles, &err)) {
    fprintf(stderr, "zoneoracle: %s: %s\n", err.file, err.message);
    return -1;
  }
  return 0;
}

static void suite_commit(char *buf, size_t cap) {
  snprintf(buf, cap, "unknown");
  FILE *p = popen("git rev-parse HEAD 2>/dev/null", "r");
  if (!p) return;
  char line[128];
  if (fgets(line, sizeof line, p)) {
    line[strcspn(line, "\r\n")] = 0;
    if (line[0]) snprintf(buf, cap, "%s", line);
  }
  pclose(p);
}

int zo_cli_mkdirs(const char *dir) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", dir);
  for (char *p = buf + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      if (mkdir(buf, 0777) && errno != EEXIST) return -1;
      *p = '/';
    }
  return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

/* Collect the case files named by a and run them on the oracle. Returns -1
 * on success (run filled; free with finish_suite), else an exit code. */
typedef struct {
  char **files;
  int nfiles;
  zo_engine *engine;
  zo_run run;
} suite;

static int run_suite(const args *a, int check_invariants, suite *s) {
  memset(s, 0, sizeof *s);
  zo_error err = {0};
  if (zo_collect_cases(a->paths, a->npaths, &s->files, &s->nfiles, &err)) {
    fprintf(stderr, "zoneoracle: %s: %s\n", err.file, err.message);
    return EXIT_USAGE;
  }
  s->engine = zo_engine_oracle_new();
  zo_run_options opt = {.ruleset = a->ruleset, .filter = a->filter,
                        .check_invariants = check_invariants,
                        .obs_invariants = a->invariants};
  zo_run_files(s->engine, s->files, s->nfiles, &opt, &s->run);
  return -1;
}

static void finish_suite(suite *s) {
  zo_run_free(&s->run);
  zo_engine_oracle_free(s->engine);
  zo_paths_free(s->files, s->nfiles);
}

static int write_reports(const args *a, const zo_run *run, const zo_engine *e);

static void print_results(const args *a, const zo_run *run) {
  for (int i = 0; i < run->ninvalid; i++) fprintf(stderr, "%s\n", run->invalid[i].message);
  for (int i = 0; i < run->n; i++) {
    const zo_case_result *r = &run->results[i];
    if (r->status == RS_PASS || (a->quiet && (r->status == RS_SKIP || r->status == RS_XFAIL))) {
      if (!a->quiet) printf("PASS %s [%s]\n", r->case_id, r->ruleset);
      continue;
    }
    char tag[16];
    snprintf(tag, sizeof tag, "%s", zo_result_status_name(r->status));
    for (char *t = tag; *t; t++) *t = (char)(*t - 32 * (*t >= 'a' && *t <= 'z'));
    printf("%s %s [%s]\n  %s\n", tag, r->case_id, r->ruleset, r->message ? r->message : "");
    if (r->expected) printf("  expected: %s\n  observed: %s\n", r->expected, r->observed);
  }
}

static int cmd_gate(int argc, char **argv);

/* run [--engine oracle]: the built-in oracle (the default engine); any
   other --engine CMD or --engine-plugin PATH makes it a gate run. */
static int cmd_run(int argc, char **argv) {
  char *rest[256];
  int nrest = 0;
  for (int k = 0; k < argc && nrest < 256; k++) {
    if (k >= 2 && !strcmp(argv[k], "--engine") && k + 1 < argc && !strcmp(argv[k + 1], "oracle")) {
      k++; /* the default */
      continue;
    }
    if (k >= 2 && (!strcmp(argv[k], "--engine") || !strcmp(argv[k], "--engine-plugin")))
      return cmd_gate(argc, argv);
    rest[nrest++] = argv[k];
  }
  argc = nrest;
  argv = rest;
  args a;
  int rc = parse_args(argc, argv, &a);
  if (rc >= 0) return rc;
  suite s;
  if ((rc = run_suite(&a, 1, &s)) >= 0) return rc;
  zo_run run = s.run;
  zo_engine *e = s.engine;
  print_results(&a, &run);
  int io_bad = write_reports(&a, &run, e);
  int not_passed = run.failed + run.errors;
  printf("%d cases x rule sets in %.0f ms; %d invalid case files\n", run.n, run.ms, run.ninvalid);
  printf("%d passed, %d failed, %d skipped\n", run.passed, not_passed, run.skipped);
  rc = run.ninvalid ? EXIT_INVALID : not_passed ? EXIT_FAIL : io_bad ? EXIT_USAGE : EXIT_PASS;
  finish_suite(&s);
  return rc;
}

/* Write the run record and what is rendered from it into a->report_dir;
 * returns 1 on an I/O failure (reported on stderr). */
static int write_reports(const args *aa, const zo_run *runp, const zo_engine *e) {
  const args a = *aa;
  const zo_run run = *runp;
  zo_error err = {0};
  const char *ids[64];
  int nids = 0;
  for (size_t i = 0; i < zo_ruleset_count() && nids < 64; i++) {
    const char *id = zo_ruleset_id(zo_ruleset_at(i));
    if (!a.ruleset || !strcmp(a.ruleset, id)) ids[nids++] = id;
  }
  char commit[128];
  suite_commit(commit, sizeof commit);
  zo_run_header h = {.suite_commit = commit, .engine = e->ops->name,
                     .engine_version = e->ops->version, .rulesets = ids, .nrulesets = nids};
  int io_bad = 0;
  if (zo_cli_mkdirs(a.report_dir)) {
    fprintf(stderr, "zoneoracle: cannot create %s: %s\n", a.report_dir, strerror(errno));
    io_bad = 1;
  } else {
    char p1[4096], p2[4096], p3[4096], p4[4096];
    snprintf(p1, sizeof p1, "%s/run.jsonl", a.report_dir);
    snprintf(p2, sizeof p2, "%s/junit.xml", a.report_dir);
    snprintf(p3, sizeof p3, "%s/summary.md", a.report_dir);
    snprintf(p4, sizeof p4, "%s/index.html", a.report_dir);
    if (zo_report_write_jsonl(&run, &h, p1, &err) || zo_report_render_junit(p1, p2, &err) ||
        zo_report_render_markdown(p1, p3, &err) || zo_report_render_html(p1, p4, &err)) {
      fprintf(stderr, "zoneoracle: %s: %s\n", err.file, err.message);
      io_bad = 1;
    } else if (!a.quiet) {
      printf("reports: %s %s %s %s\n", p1, p2, p3, p4);
    }
  }
  return io_bad;
}

static int cmd_check(int argc, char **argv) {
  args a;
  int rc = parse_args(argc, argv, &a);
  if (rc >= 0) return rc;
  char **files;
  int nfiles;
  zo_error err = {0};
  if (collect(&a, &files, &nfiles)) return EXIT_USAGE;
  int bad = 0;
  char **ids = zo_xcalloc((size_t)nfiles + 1, sizeof *ids);
  char **idfiles = zo_xcalloc((size_t)nfiles + 1, sizeof *idfiles);
  int nids = 0;
  for (int i = 0; i < nfiles; i++) {
    zo_case *c;
    if (zo_case_load_file(files[i], &c, &err)) {
      char buf[2048];
      zo_format_error(&err, buf, sizeof buf);
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
  return bad ? EXIT_INVALID : EXIT_PASS;
}

static int cmd_rulesets(void) {
  for (size_t i = 0; i < zo_ruleset_count(); i++)
    printf("%-12s %s\n", zo_ruleset_id(zo_ruleset_at(i)), zo_ruleset_title(zo_ruleset_at(i)));
  return EXIT_PASS;
}

/* ---- mutants ------------------------------------------------------- */

/* zoneoracle mutants [--list]: how strong the suite is. */
static int cmd_mutants(int argc, char **argv) {
  int list_only = 0;
  char *rest[256];
  int nrest = 0;
  rest[nrest++] = argv[0];
  rest[nrest++] = argv[1];
  for (int k = 2; k < argc; k++) {
    if (!strcmp(argv[k], "--list")) list_only = 1;
    else if (nrest < 256) rest[nrest++] = argv[k];
  }
  args a;
  int rc = parse_args(nrest, rest, &a);
  if (rc >= 0) return rc;
  zo_mutant *ms;
  int n = zo_mutants_list(&ms);
  if (list_only) {
    for (int i = 0; i < n; i++) puts(ms[i].name);
    printf("%d mutants\n", n);
    free(ms);
    return EXIT_PASS;
  }
  char **files;
  int nfiles;
  zo_error err = {0};
  if (zo_collect_cases(a.paths, a.npaths, &files, &nfiles, &err)) {
    fprintf(stderr, "zoneoracle: %s: %s\n", err.file, err.message);
    free(ms);
    return EXIT_USAGE;
  }
  /* load the cases once */
  zo_case **cs = zo_xcalloc((size_t)nfiles + 1, sizeof *cs);
  for (int i = 0; i < nfiles; i++)
    if (zo_case_load_file(files[i], &cs[i], &err)) cs[i] = NULL;
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
        /* free the result's strings */
        free(res.case_id); free(res.title); free(res.file); free(res.ruleset); free(res.what);
        free(res.expected); free(res.observed); free(res.message);
        for (int q = 0; q < res.nrules; q++) free(res.rules[q]);
        free(res.rules);
        for (int q = 0; q < res.nhits; q++) free(res.hits[q].id);
        free(res.hits);
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
  return survived ? EXIT_FAIL : EXIT_PASS;
}

/* ---- diff: what changed between two run records -------------------- */

/* (id [rule set]) -> status of every case line of a run record. */
static json_t *statuses(const char *path) {
  zo_error err = {0};
  json_t *cases = zo_report_read_cases(path, &err);
  if (!cases) {
    fprintf(stderr, "%s:%d:%d: error: %s\n", err.file, err.line, err.column, err.message);
    return NULL;
  }
  json_t *m = json_object();
  size_t i;
  json_t *o;
  json_array_foreach(cases, i, o) {
    const char *id = json_string_value(json_object_get(o, "id"));
    const char *rs = json_string_value(json_object_get(o, "ruleset"));
    char key[600];
    snprintf(key, sizeof key, "%s [%s]", id ? id : "?", rs ? rs : "?");
    json_object_set(m, key, json_object_get(o, "status"));
  }
  json_decref(cases);
  return m;
}

static int bad_status(const char *s) {
  return s && (!strcmp(s, "fail") || !strcmp(s, "error") || !strcmp(s, "crash") ||
               !strcmp(s, "timeout") || !strcmp(s, "xpass"));
}

/* zoneoracle diff A.jsonl B.jsonl: new failures, fixes, new skips. */
static int cmd_diff(int argc, char **argv) {
  if (argc != 4) return bad_usage("diff takes two run records: diff A.jsonl B.jsonl");
  json_t *a = statuses(argv[2]), *b = a ? statuses(argv[3]) : NULL;
  if (!a || !b) {
    json_decref(a);
    return EXIT_USAGE;
  }
  int nnew = 0, nfix = 0, nskip = 0, ngone = 0, nadded = 0;
  const char *key;
  json_t *v;
  json_object_foreach(b, key, v) {
    const char *sb = json_string_value(v), *sa = json_string_value(json_object_get(a, key));
    if (!sa) {
      printf("added      %s: %s\n", key, sb);
      nadded++;
      if (bad_status(sb)) nnew++;
    } else if (bad_status(sb) && !bad_status(sa)) {
      printf("NEW FAIL   %s: %s -> %s\n", key, sa, sb);
      nnew++;
    } else if (!bad_status(sb) && bad_status(sa)) {
      printf("fixed      %s: %s -> %s\n", key, sa, sb);
      nfix++;
    } else if (!strcmp(sb, "skip") && strcmp(sa, "skip")) {
      printf("new skip   %s: %s -> skip\n", key, sa);
      nskip++;
    }
  }
  json_object_foreach(a, key, v) if (!json_object_get(b, key)) {
    printf("gone       %s (was %s)\n", key, json_string_value(v));
    ngone++;
  }
  printf("%d new failures, %d fixed, %d new skips, %d added, %d gone\n", nnew, nfix, nskip, nadded, ngone);
  json_decref(a);
  json_decref(b);
  return nnew ? EXIT_FAIL : EXIT_PASS;
}

/* Expected failures: a YAML list of {id, reason}. */
static int load_xfail(const char *path, zo_run_options *opt) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "zoneoracle: %s: %s\n", path, strerror(errno));
    return EXIT_USAGE;
  }
  static char text[1 << 20];
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = 0;
  /* read with the same YAML rules as cases: a list of maps with id */
  zo_case_result dummy;
  (void)dummy;
  char *line = text, *next;
  for (; line && *line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = 0;
    char *idp = strstr(line, "id:");
    if (!idp || (idp > line && idp[-1] != ' ' && idp[-1] != '{' && idp[-1] != '-')) continue;
    idp += 3;
    while (*idp == ' ' || *idp == '"') idp++;
    size_t len = strcspn(idp, "\",} ");
    if (!len) continue;
    opt->xfail = zo_xrealloc(opt->xfail, (size_t)(opt->nxfail + 1) * sizeof *opt->xfail);
    opt->xfail[opt->nxfail] = zo_xmalloc(len + 1);
    memcpy(opt->xfail[opt->nxfail], idp, len);
    opt->xfail[opt->nxfail++][len] = 0;
  }
  return -1;
}

/* zoneoracle gate --engine CMD: the suite against an engine under test. */
static int cmd_gate(int argc, char **argv) {
  const char *engine = NULL, *plugin = NULL, *xfail = NULL, *shard = NULL;
  const char *fuzz = NULL, *seed = "1", *fuzz_out = "reports/fuzz-diff";
  int strict = 0, validate = 0;
  double timeout = 5;
  char *rest[256];
  int nrest = 0;
  rest[nrest++] = argv[0];
  rest[nrest++] = argv[1];
  for (int k = 2; k < argc; k++) {
    if (!strcmp(argv[k], "--engine") && k + 1 < argc) engine = argv[++k];
    else if (!strcmp(argv[k], "--engine-plugin") && k + 1 < argc) plugin = argv[++k];
    else if (!strcmp(argv[k], "--timeout") && k + 1 < argc) timeout = atof(argv[++k]);
    else if (!strcmp(argv[k], "--expect-failures") && k + 1 < argc) xfail = argv[++k];
    else if (!strcmp(argv[k], "--shard") && k + 1 < argc) shard = argv[++k];
    else if (!strcmp(argv[k], "--strict")) strict = 1;
    else if (!strcmp(argv[k], "--validate")) validate = 1;
    else if (!strcmp(argv[k], "--fuzz") && k + 1 < argc) fuzz = argv[++k];
    else if (!strcmp(argv[k], "--seed") && k + 1 < argc) seed = argv[++k];
    else if (!strcmp(argv[k], "--out") && k + 1 < argc) fuzz_out = argv[++k];
    else if (nrest < 256) rest[nrest++] = argv[k];
  }
  if (!engine == !plugin) return bad_usage("gate needs --engine CMD or --engine-plugin PATH");
  args a;
  int rc = parse_args(nrest, rest, &a);
  if (rc >= 0) return rc;
  zo_run_options opt = {.ruleset = a.ruleset, .filter = a.filter, .check_invariants = 0,
                        .obs_invariants = a.invariants};
  if (shard) {
    int i = 0, n = 0;
    if (sscanf(shard, "%d/%d", &i, &n) != 2 || n < 1 || i < 1 || i > n)
      return bad_usage("--shard takes I/N with 1 <= I <= N");
    opt.shard = i - 1;
    opt.nshards = n;
  }
  if (xfail && (rc = load_xfail(xfail, &opt)) >= 0) return rc;
  zo_error err = {0};
  /* --validate: every message into REPORT_DIR/protocol.jsonl (cli.h) */
  zo_protocol_check pc = {0};
  if (validate && (rc = zo_protocol_check_start(&pc, argv[0], a.report_dir)) >= 0) return rc;
  zo_engine_process_options eo = {.timeout = timeout, .tap = pc.tap};
  zo_engine *e = plugin ? zo_engine_plugin_open(plugin, &eo, &err) : zo_engine_process_open(engine, &eo, &err);
  if (!e) {
    zo_protocol_check_abandon(&pc);
    fprintf(stderr, "zoneoracle: engine '%s' could not be driven: %s\n", plugin ? plugin : engine, err.message);
    return EXIT_USAGE; /* 2: the engine could not be started or spoke no zcp */
  }
  if (fuzz) { /* differential fuzzing instead of the suite */
    char *end, *send;
    double secs = strtod(fuzz, &end);
    unsigned long long sd = strtoull(seed, &send, 10);
    if (*end || secs <= 0) rc = bad_usage("--fuzz takes a number of seconds");
    else if (*send || !*seed || *seed == '-') rc = bad_usage("--seed takes a whole number >= 0");
    else rc = zo_cli_gate_fuzz(e, plugin ? plugin : engine, secs, (uint64_t)sd, fuzz_out, a.quiet);
    zo_engine_process_free(e);
    zo_protocol_check_abandon(&pc);
    return rc;
  }
  char **files;
  int nfiles;
  if (zo_collect_cases(a.paths, a.npaths, &files, &nfiles, &err)) {
    fprintf(stderr, "zoneoracle: %s: %s\n", err.file, err.message);
    zo_engine_process_free(e);
    zo_protocol_check_abandon(&pc);
    return EXIT_USAGE;
  }
  zo_run run = {0};
  if (strict) opt.strict = zo_engine_oracle_new();
  zo_run_files(e, files, nfiles, &opt, &run);
  zo_engine_oracle_free(opt.strict);
  print_results(&a, &run);
  int io_bad = write_reports(&a, &run, e);
  char protocol[200] = "";
  int invalid = 0;
  if (validate) { /* bye belongs to the transcript too */
    int checked = 0;
    zo_engine_process_bye(e, NULL);
    invalid = zo_protocol_check_finish(&pc, &checked);
    if (invalid > 0) snprintf(protocol, sizeof protocol, "; %d of %d protocol messages invalid", invalid, checked);
    else if (!invalid) snprintf(protocol, sizeof protocol, "; %d protocol messages valid", checked);
    else snprintf(protocol, sizeof protocol, "; protocol messages not checked");
    io_bad |= invalid < 0;
  }
  /* the shields.io endpoint badge */
  char path[4096];
  snprintf(path, sizeof path, "%s/badge.json", a.report_dir);
  int bad = run.failed + run.errors + run.xpassed + (invalid > 0);
  char msg[96];
  snprintf(msg, sizeof msg, "%d/%d passed", run.passed + run.xfailed, run.n - run.skipped);
  json_t *badge = json_pack("{s:i, s:s, s:s, s:s}", "schemaVersion", 1, "label", "zone rules",
                            "message", msg, "color", bad ? "red" : "brightgreen");
  char tmp[4200];
  FILE *bf = zo_report_open(path, tmp, sizeof tmp);
  zo_error berr = {0};
  if (!bf || json_dumpf(badge, bf, JSON_COMPACT) || zo_report_commit(bf, tmp, path, &berr)) {
    if (bf) fprintf(stderr, "zoneoracle: %s: %s\n", berr.file, berr.message);
    else fprintf(stderr, "zoneoracle: %s: %s\n", tmp, strerror(errno));
    io_bad = 1;
  }
  json_decref(badge);
  printf("%s %s: %d cases x rule sets; %d xfail, %d xpass (take them off the list)\n",
         e->ops->name, e->ops->version, run.n, run.xfailed, run.xpassed);
  printf("%d passed, %d failed, %d skipped%s\n", run.passed, run.failed + run.errors + run.xpassed,
         run.skipped, protocol);
  rc = run.ninvalid ? EXIT_INVALID : bad ? EXIT_FAIL : io_bad ? EXIT_USAGE : EXIT_PASS;
  zo_run_free(&run);
  zo_engine_process_free(e);
  zo_paths_free(files, nfiles);
  for (int i = 0; i < opt.nxfail; i++) free(opt.xfail[i]);
  free(opt.xfail);
  return rc;
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

/* Rule coverage: every rule, the cases citing it, oracle hits over the
 * suite; exits 1 when a rule numbered in a seed text has no case. */
static int cmd_rules(int argc, char **argv) {
  args a;
  int rc = parse_args(argc, argv, &a);
  if (rc >= 0) return rc;
  a.filter = NULL;
  suite s;
  if ((rc = run_suite(&a, 0, &s)) >= 0) return rc;
  const zo_run run = s.run;
  int json = !strcmp(a.format, "json");
  json_t *jall = json_array();
  int gaps = 0, seeds = 0;
  for (size_t r = 0; r < zo_ruleset_count(); r++) {
    const zo_ruleset *rs = zo_ruleset_at(r);
    if (a.ruleset && strcmp(a.ruleset, zo_ruleset_id(rs))) continue;
    if (!json) printf("%s: %s\n", zo_ruleset_id(rs), zo_ruleset_title(rs));
    json_t *jrules = json_array();
    int covered = 0, nseed = 0;
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
      nseed += seed;
      if (seed && cases) covered++;
      if (seed && !cases) gaps++;
      if (json)
        json_array_append_new(jrules, json_pack("{s:s, s:s, s:b, s:o, s:i}", "id", id, "text",
                                                zo_ruleset_rule_text(rs, i), "seed", seed,
                                                "cases", jcases, "hits", hits));
      else {
        printf("  %-18s %s cases %3d  hits %5d  %s\n", id, seed ? "seed" : "    ", cases, hits,
               seed && !cases ? "NO CASE" : "");
        json_decref(jcases);
      }
    }
    seeds += nseed;
    if (json)
      json_array_append_new(jall, json_pack("{s:s, s:s, s:o, s:i, s:i}", "id", zo_ruleset_id(rs),
                                            "title", zo_ruleset_title(rs), "rules", jrules,
                                            "seed_rules", nseed, "seed_rules_covered", covered));
    else {
      printf("  seed rules covered: %d/%d\n", covered, nseed);
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
  rc = run.ninvalid ? EXIT_INVALID : gaps ? EXIT_FAIL : EXIT_PASS;
  finish_suite(&s);
  return rc;
}

extern const size_t zo_embedded_count;
extern const char *const zo_embedded_names[];
extern const char *const zo_embedded_texts[];
extern const size_t zo_embedded_lens[];

static int write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "zoneoracle: %s: %s\n", path, strerror(errno));
    return -1;
  }
  size_t w = fwrite(data, 1, n, f);
  int bad = fclose(f) || w != n;
  if (bad) fprintf(stderr, "zoneoracle: %s: write failed\n", path);
  return bad ? -1 : 0;
}

/* A case id as a file name: "mtg/400.8-x" -> "mtg_400.8-x". */
static void id_file(const char *id, char *out, size_t cap) {
  snprintf(out, cap, "%s", id);
  for (char *p = out; *p; p++)
    if (*p == '/') *p = '_';
}

/* zoneoracle corpus: seed corpora for every harness from the suite. */
static int cmd_corpus(int argc, char **argv) {
  const char *out = "corpus";
  int k = 2;
  char *rest[256];
  int nrest = 0;
  rest[nrest++] = argv[0];
  rest[nrest++] = argv[1];
  for (; k < argc; k++) {
    if (!strcmp(argv[k], "--out") && k + 1 < argc) out = argv[++k];
    else if (nrest < 256) rest[nrest++] = argv[k];
  }
  args a;
  int rc = parse_args(nrest, rest, &a);
  if (rc >= 0) return rc;
  char **files;
  int nfiles;
  zo_error err = {0};
  if (collect(&a, &files, &nfiles)) return EXIT_USAGE;
  char dir[3][4096];
  const char *names[3] = {"fuzz_case_load", "fuzz_ruleset_load", "fuzz_moves"};
  for (int i = 0; i < 3; i++) {
    snprintf(dir[i], sizeof dir[i], "%s/%s", out, names[i]);
    if (zo_cli_mkdirs(dir[i])) {
      fprintf(stderr, "zoneoracle: cannot create %s: %s\n", dir[i], strerror(errno));
      zo_paths_free(files, nfiles);
      return EXIT_USAGE;
    }
  }
  int ncase = 0, nmoves = 0, bad = 0;
  for (int i = 0; i < nfiles; i++) {
    zo_case *c;
    if (zo_case_load_file(files[i], &c, &err)) {
      bad++;
      continue;
    }
    char stem[600], path[5000];
    id_file(zo_case_id(c), stem, sizeof stem);
    FILE *in = fopen(files[i], "rb");
    if (in) {
      static char text[1 << 20];
      size_t n = fread(text, 1, sizeof text, in);
      fclose(in);
      snprintf(path, sizeof path, "%s/%s.yaml", dir[0], stem);
      if (!write_file(path, text, n)) ncase++;
    }
    for (int r = 0; r < c->nrulesets; r++) {
      int rs_index = -1;
      for (size_t j = 0; j < zo_ruleset_count(); j++)
        if (!strcmp(zo_ruleset_id(zo_ruleset_at(j)), c->rulesets[r])) rs_index = (int)j;
      if (rs_index < 0) continue;
      size_t n;
      uint8_t *enc = zo_fuzz_encode(c, rs_index, &n);
      snprintf(path, sizeof path, "%s/%s.%s.bin", dir[2], stem, c->rulesets[r]);
      if (!write_file(path, enc, n)) nmoves++;
      free(enc);
    }
    zo_case_free(c);
  }
  for (size_t i = 0; i < zo_embedded_count; i++) {
    char path[5000];
    snprintf(path, sizeof path, "%s/%s", dir[1], zo_embedded_names[i]);
    write_file(path, zo_embedded_texts[i], zo_embedded_lens[i]);
  }
  printf("%d loader seeds, %zu rule set seeds, %d decoder seeds in %s (%d case files skipped: invalid)\n",
         ncase, zo_embedded_count, nmoves, out, bad);
  zo_paths_free(files, nfiles);
  return bad ? EXIT_INVALID : EXIT_PASS;
}

/* zoneoracle replay --harness moves FILE: a fuzz input as a YAML case. */
static uint8_t *read_input(const char *file, size_t *size) {
  FILE *f = fopen(file, "rb");
  if (!f) {
    fprintf(stderr, "zoneoracle: %s: %s\n", file, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, n = 0, r;
  uint8_t *buf = zo_xmalloc(cap);
  while ((r = fread(buf + n, 1, cap - n, f)) > 0)
    if ((n += r) == cap) buf = zo_xrealloc(buf, cap *= 2);
  fclose(f);
  *size = n;
  return buf;
}

/* replay --harness diff: a fuzz_diff input on the oracle and on an engine;
   the YAML case up to the first difference, expecting the oracle's view. */
static int replay_diff(const char *file, const char *id, const char *engine, const char *plugin) {
  if (engine) plugin = NULL;
  if (!engine && !(plugin && *plugin))
    return bad_usage("replay --harness diff needs --engine CMD or --engine-plugin PATH "
                     "(or ZO_DIFF_ENGINE)");
  size_t n;
  uint8_t *buf = read_input(file, &n);
  if (!buf) return EXIT_USAGE;
  zo_error err = {0};
  zo_engine *e = plugin ? zo_engine_plugin_new(plugin, &err) : zo_engine_process_new(engine, 5, &err);
  if (!e) {
    fprintf(stderr, "zoneoracle: engine '%s' could not be driven: %s\n", plugin ? plugin : engine,
            err.message);
    free(buf);
    return EXIT_USAGE;
  }
  zo_diff_result r;
  zo_diff_status st = zo_diff_input(e, buf, n, 1, &r);
  if (st == ZO_DIFF_DIFFERS) fprintf(stderr, "zoneoracle: fuzz_diff finding (%s): %s\n", r.ruleset, r.message);
  else if (st == ZO_DIFF_SKIP) fprintf(stderr, "zoneoracle: skipped: %s\n", r.message);
  else fprintf(stderr, "zoneoracle: the engine agrees with the oracle after every step\n");
  int bad = zo_diff_print_yaml(buf, st == ZO_DIFF_DIFFERS ? r.used : n, &r, id, stdout);
  zo_engine_process_free(e);
  free(buf);
  if (bad) return EXIT_USAGE;
  return st == ZO_DIFF_DIFFERS ? EXIT_FAIL : EXIT_PASS;
}

static int cmd_replay(int argc, char **argv) {
  const char *harness = NULL, *file = NULL, *id = "regressions/replayed";
  const char *engine = NULL, *plugin = getenv("ZO_DIFF_ENGINE");
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--harness") && i + 1 < argc) harness = argv[++i];
    else if (!strcmp(argv[i], "--id") && i + 1 < argc) id = argv[++i];
    else if (!strcmp(argv[i], "--engine") && i + 1 < argc) engine = argv[++i];
    else if (!strcmp(argv[i], "--engine-plugin") && i + 1 < argc) plugin = argv[++i];
    else if (argv[i][0] == '-')
      return bad_usage("replay takes --harness moves|diff, --id ID, for diff --engine CMD or "
                       "--engine-plugin PATH (default $ZO_DIFF_ENGINE), and one FILE");
    else file = argv[i];
  }
  if (!harness || !file) return bad_usage("replay needs --harness moves|diff and a FILE");
  if (!strcmp(harness, "diff")) return replay_diff(file, id, engine, plugin);
  if (strcmp(harness, "moves"))
    return bad_usage("replay prints games: --harness moves or diff (loader inputs are YAML already)");
  size_t n;
  uint8_t *buf = read_input(file, &n);
  if (!buf) return EXIT_USAGE;
  zo_fuzz fz;
  zo_fuzz_start(&fz, buf, n);
  zo_outcome outcomes[ZO_FUZZ_MAX_STEPS];
  zo_step_error errors[ZO_FUZZ_MAX_STEPS];
  char note[600] = "zoneoracle replay of a fuzz_moves input: no invariant broken";
  char rule[64] = "";
  int broken = 0;
  zo_violation v;
  int fab = fz.rs->sw[SW_TOKEN_LEAVES].value == ZS_IMMEDIATELY;
  if (zo_game_check(fz.g, 0, &v)) broken = 1;
  const zo_step *s;
  while (!broken && (s = zo_fuzz_next(&fz))) {
    zo_step_result res;
    zo_game_apply(fz.g, s, &res);
    outcomes[fz.c->nsteps - 1] = res.outcome;
    errors[fz.c->nsteps - 1] = res.error;
    zo_step_result_free(&res);
    if (zo_game_check(fz.g, s->kind == ST_STATE_CHECK || fab, &v)) broken = 1;
  }
  if (broken) {
    snprintf(note, sizeof note, "fuzz_moves finding: invariant %s (%s) broken at step %d: %s",
             v.invariant, v.rule, fz.c->nsteps, v.detail);
    /* cite the first of the invariant's rules that the rule set lists
       ("CR 704.5d; FaB 8.1.8a" under fab: FaB 8.1.8a) */
    char rules[128];
    snprintf(rules, sizeof rules, "%s", v.rule);
    for (char *part = strtok(rules, ";"); part && !rule[0]; part = strtok(NULL, ";")) {
      while (*part == ' ') part++;
      if (zo_ruleset_rule(fz.rs, part) >= 0) snprintf(rule, sizeof rule, "%s", part);
    }
    fprintf(stderr, "zoneoracle: %s\n", note);
  }
  zo_fuzz_print_yaml(&fz, outcomes, errors, id, rule[0] ? rule : NULL, note, stdout);
  zo_fuzz_free(&fz);
  free(buf);
  return broken ? EXIT_FAIL : EXIT_PASS;
}

int main(int argc, char **argv) {
  if (argc < 2) return bad_usage("missing command");
  const char *cmd = argv[1];
  if (!strcmp(cmd, "run")) return cmd_run(argc, argv);
  if (!strcmp(cmd, "check")) return cmd_check(argc, argv);
  if (!strcmp(cmd, "rulesets")) return cmd_rulesets();
  if (!strcmp(cmd, "rules")) return cmd_rules(argc, argv);
  if (!strcmp(cmd, "replay")) return cmd_replay(argc, argv);
  if (!strcmp(cmd, "corpus")) return cmd_corpus(argc, argv);
  if (!strcmp(cmd, "serve")) {
    for (int i = 2; i < argc; i++) {
      if (!strcmp(argv[i], "--mutant") && i + 1 < argc) {
        int rc = use_mutant(argv[++i]);
        if (rc >= 0) return rc;
      } else return bad_usage("serve takes only --mutant NAME");
    }
    return zo_serve(stdin, stdout);
  }
  if (!strcmp(cmd, "smoke")) return zo_cli_smoke(argc, argv);
  if (!strcmp(cmd, "gate")) return cmd_gate(argc, argv);
  if (!strcmp(cmd, "mutants")) return cmd_mutants(argc, argv);
  if (!strcmp(cmd, "diff")) return cmd_diff(argc, argv);
  if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
    printf("zoneoracle %s\n", ZO_VERSION);
    return EXIT_PASS;
  }
  if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
    fputs(usage, stdout);
    return EXIT_PASS;
  }
  char m[300];
  snprintf(m, sizeof m, "unknown command '%s'", cmd);
  return bad_usage(m);
}
