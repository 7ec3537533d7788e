/* main.c: the zoneoracle command line: the command table with each
 * command's help, the dispatch, and the commands help and version.
 *
 * The commands live in cmd_run.c (run, check, rulesets, rules, mutants),
 * cmd_gate.c (gate), cmd_tools.c (replay, corpus, serve, diff), cmd_site.c
 * (site), cmd_table.c (table) and smoke.c (smoke), over the option parser of options.c
 * (getopt_long, one table of options, each command accepting its own).
 *
 * Exit codes: 0 pass, 1 conformance failures (or no case ran), 2 usage or
 * I/O (out of memory too), 3 invalid case files, 4 the engine under test
 * could not be started or driven. When a finished run has several, 3 wins
 * over 2 and 2 over 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#ifdef ZO_WITH_MIMALLOC
#include <mimalloc.h>
#endif

#include "util.h"
#include "cli.h"

static int cmd_help(const zo_cli_command *cmd, int argc, char **argv);
static int cmd_version(const zo_cli_command *cmd, int argc, char **argv);

/* What run, check, rules, mutants, corpus and gate share. */
#define COMMON_HELP                                                                       \
  "  --ruleset ID        only this rule set (zoneoracle rulesets lists them)\n"            \
  "  --filter GLOB       only case ids matching GLOB (fnmatch)\n"                          \
  "  --report-dir DIR    where reports go (default: reports)\n"                            \
  "  --quiet             print failures and the summary only\n"                            \
  "  --ruleset-file FILE load a rule set of your own (repeatable); its cases\n"         \
  "                      name its id\n"                                                    \
  "  --mutant NAME       the oracle plays one rule wrong (zoneoracle mutants\n"          \
  "                      --list; repeatable)\n"                                            \
  "  --invariants        check the zone invariants (INVARIANTS.md) on the engine's\n"  \
  "                      observations after the setup and every step; a\n"              \
  "                      violation fails the case\n"

#define PATHS_HELP                                                                    \
  "PATH: case files (taken whatever their extension) and directories (their *.yaml\n"  \
  "and *.yml files, recursively, in sorted order); without PATH, the case suite\n"     \
  "(installed, or the source tree's cases/; $ZO_DATA_DIR overrides).\n"

#define GATE_HELP                                                                           \
  "  --engine CMD        the engine: a command speaking zcp/1 on its stdin/stdout\n"          \
  "                      (PROTOCOL.md), run directly, or by /bin/sh when it needs\n"      \
  "                      a shell (quotes, $, pipes, redirections...)\n"                    \
  "  --engine-plugin LIB.so  the engine: a zo_engine_v1 shared object, run in a\n"         \
  "                      forked worker process (a crash or hang costs one case);\n"      \
  "                      @NAME: an engine the host process registered (the Python\n"      \
  "                      and npm packages' gate(engine)), in process\n"                   \
  "  --timeout S         limit per request, seconds > 0 (default 5, at most 86400)\n"         \
  "  --expect-failures FILE  YAML list of {id, reason[, ruleset]}: known gaps (xfail;\n"     \
  "                      one that passes is xpass and fails the gate); checked\n"              \
  "                      first (an invalid FILE exits 2); stale entries listed\n"              \
  "                      (zoneoracle help known-gaps)\n"                                       \
  "  --shard I/N         run every Nth case file, starting at the Ith (1 <= I <= N)\n"        \
  "  --validate          check every message of the run against the JSON Schemas\n"           \
  "                      beside PROTOCOL.md (python3-jsonschema); the transcript is\n"  \
  "                      REPORT_DIR/protocol.jsonl\n"                                          \
  "  --strict            also compare every observable property with the oracle\n"            \
  "                      after every step; report the first difference\n"                     \
  "  --fuzz SECONDS      differential fuzzing instead of the suite (no PATH):\n"             \
  "                      random games within the engine's rule sets and features,\n"          \
  "                      sent in batch (zcp/1 run), compared with the oracle after\n"        \
  "                      every step (unsupported: a skip); each new difference\n"            \
  "                      minimized into a YAML case, kept if it fails under gate\n"          \
  "                      too; --expect-failures FILE: known differences, a YAML\n"           \
  "                      list of {what, reason[, ruleset]}; exit 1 on a new one\n"           \
  "  --seed S            --fuzz: the games' generator seed, a whole number >= 0\n"            \
  "                      (default 1)\n"                                                        \
  "  --out DIR           --fuzz: where the cases go (default reports/fuzz-diff)\n"

/* run's and gate's verdict: the exit codes and which wins */
#define ALLOW_EMPTY_HELP                                                                  \
  "  --allow-empty       a run in which no case ran (every case skipped, or none\n"        \
  "                      matched) passes; without it such a run exits 1\n"
#define EXIT_RUN_HELP                                                                     \
  "exit: 0 pass, 1 conformance failures or no case ran, 2 usage or I/O (a report\n"        \
  "      that could not be written, out of memory), 3 invalid case files; when\n"         \
  "      several apply, 3 wins over 2 and 2 over 1\n"
#define EXIT_ENGINE_HELP                                                                  \
  EXIT_RUN_HELP "      4 the engine could not be started or failed the zcp/1 handshake\n"
/* --max-fail and what run and gate print as they go (progress.c) */
#define PROGRESS_HELP                                                                     \
  "  --max-fail N        stop after N failing results (failed, error, crash,\n"           \
  "                      timeout, xpass) or invalid case files; the reports name\n"       \
  "                      the case files not run\n"                                         \
  "  --baseline RUN.jsonl  an earlier run record: the reports list the cases\n"          \
  "                      failing now that did not there, and those fixed\n"

const zo_cli_command zo_cli_commands[] = {
    {"run", zo_cli_cmd_run, ZO_OPT_COMMON | ZO_OPT_ENGINE | ZO_OPT_ENGINE_PLUGIN | ZO_OPT_GATE_ONLY | ZO_OPT_ALLOW_EMPTY | ZO_OPT_MAX_FAIL | ZO_OPT_BASELINE, 0, -1,
     "run [OPTIONS] [PATH...]", "run case files against the built-in oracle, write reports",
     "Runs the cases against the built-in oracle (its invariants checked after every\n"
     "step) and writes REPORT_DIR/run.jsonl, junit.xml, summary.md and index.html.\n"
     "\n"
     "options:\n" COMMON_HELP
     "  --format F          text or json (accepted; run prints text)\n"
     "  --engine oracle     the default; --engine CMD or --engine-plugin LIB.so runs\n"
     "                      the cases against that engine: a gate run, taking gate's\n"
     "                      options too (zoneoracle help gate)\n"
     ALLOW_EMPTY_HELP PROGRESS_HELP
     "  -h, --help          this help\n"
     "\n" PATHS_HELP
     "\n"
     "Each result is printed as it finishes (on a terminal in colour, unless NO_COLOR\n"
     "is set, with a live counter; elsewhere plain lines, and with --quiet a progress\n"
     "line at most once a second).\n"
     "\n"
     "The report files of a run are replaced as one set: a run that is killed leaves\n"
     "the previous set whole; a second run on the same REPORT_DIR meanwhile exits 2.\n"
     "\n" EXIT_RUN_HELP
     "      (with an engine as gate: 4 the engine could not be started)\n"},
    {"gate", zo_cli_cmd_gate, ZO_OPT_COMMON | ZO_OPT_ENGINE | ZO_OPT_ENGINE_PLUGIN | ZO_OPT_GATE_ONLY | ZO_OPT_ALLOW_EMPTY | ZO_OPT_MAX_FAIL | ZO_OPT_BASELINE, 0, -1,
     "gate --engine CMD | --engine-plugin LIB.so [OPTIONS] [PATH...]",
     "the suite against an engine under test (zcp/1 or a plugin)",
     "Runs the cases against an engine that speaks zcp/1 (PROTOCOL.md); the same\n"
     "reports as run, plus REPORT_DIR/badge.json (a shields.io endpoint: \"412 passed ·\n"
     "6 known gaps · 2 failing\", green only when something passed and nothing failed,\n"
     "grey when no case ran: \"0 run · 867 skipped\"), all replaced as one set.\n"
     "\n"
     "options:\n" GATE_HELP COMMON_HELP
     "  --format F          text or json (accepted; gate prints text)\n"
     ALLOW_EMPTY_HELP PROGRESS_HELP
     "  -h, --help          this help\n"
     "\n" PATHS_HELP EXIT_ENGINE_HELP},
    {"check", zo_cli_cmd_check, ZO_OPT_COMMON, 0, -1, "check [OPTIONS] [PATH...]",
     "validate case files without running them",
     "Loads every case file (YAML, the case language, names checked against each\n"
     "other and the rule sets) and reports each error as file:line:column; two\n"
     "files with the same id are an error too. Prints \"N case files checked, M\n"
     "invalid\".\n"
     "\n"
     "options:\n"
     "  --ruleset-file FILE load a rule set of your own first (repeatable)\n"
     "  -h, --help          this help\n"
     "  (the other options of run are accepted and have no effect)\n"
     "\n" PATHS_HELP
     "exit: 0 all valid, 2 usage or I/O, 3 invalid case files\n"},
    {"rulesets", zo_cli_cmd_rulesets, ZO_OPT_RULESET_FILE, 0, 0, "rulesets [--ruleset-file FILE]",
     "list the rule sets (id and title)",
     "Lists the rule sets: the embedded ones, then those loaded with --ruleset-file.\n"
     "\n"
     "options:\n"
     "  --ruleset-file FILE load a rule set of your own (repeatable)\n"
     "  -h, --help          this help\n"
     "\n"
     "exit: 0, 2 usage or I/O, 3 an invalid rule set file\n"},
    {"rules", zo_cli_cmd_rules, ZO_OPT_COMMON, 0, -1, "rules [OPTIONS] [PATH...]",
     "rule coverage: every rule, the cases citing it, how often applied",
     "Every rule of every rule set, the cases citing it and how often the oracle\n"
     "applied it over the cases, and the count of era-difference scenarios\n"
     "(cases/mtg/eras).\n"
     "\n"
     "options:\n"
     "  --ruleset ID        only this rule set\n"
     "  --format F          text (default) or json\n"
     "  --ruleset-file FILE load a rule set of your own (repeatable)\n"
     "  -h, --help          this help\n"
     "  (--filter is ignored: coverage is over every case; the other options of run\n"
     "  are accepted)\n"
     "\n" PATHS_HELP
     "exit: 0, 1 a rule numbered in a seed text has no case, 2 usage or I/O,\n"
     "      3 invalid case files\n"},
    {"replay", zo_cli_cmd_replay, ZO_OPT_HARNESS | ZO_OPT_ID | ZO_OPT_ENGINE | ZO_OPT_ENGINE_PLUGIN, 1, 1,
     "replay --harness moves|diff [OPTIONS] FILE",
     "a fuzz input printed as a YAML case",
     "--harness moves: decodes a fuzz_moves input and prints it as a YAML case: its\n"
     "steps, each with the outcome the oracle gave, and the final zones; exit 1 and\n"
     "the invariant named when the input breaks one (the case stops at that step).\n"
     "--harness diff: a fuzz_diff input on the oracle and on the engine (--engine\n"
     "CMD, --engine-plugin LIB.so, default $ZO_DIFF_ENGINE as a plugin): the case up\n"
     "to the first difference, expecting the oracle's value; exit 1 on a difference.\n"
     "\n"
     "options:\n"
     "  --harness H         moves or diff\n"
     "  --id ID             the case's id (default regressions/replayed)\n"
     "  --engine CMD        diff: the engine, a zcp/1 command\n"
     "  --engine-plugin LIB.so  diff: the engine, a zo_engine_v1 shared object,\n"
     "                      loaded in process (a crash ends the replay)\n"
     "  -h, --help          this help\n"
     "\n"
     "exit: 0, 1 a broken invariant or a difference, 2 usage or I/O, 4 the engine\n"
     "      could not be started or failed the zcp/1 handshake\n"},
    {"corpus", zo_cli_cmd_corpus, ZO_OPT_COMMON | ZO_OPT_OUT, 0, -1, "corpus [--out DIR] [PATH...]",
     "write the fuzzers' seed corpora from the suite",
     "Writes seed corpora under DIR: the case files for fuzz_case_load, the rule set\n"
     "files for fuzz_ruleset_load, each case x rule set encoded as decoder input for\n"
     "fuzz_moves.\n"
     "\n"
     "options:\n"
     "  --out DIR           where (default: corpus)\n"
     "  --ruleset-file FILE load a rule set of your own (repeatable)\n"
     "  -h, --help          this help\n"
     "  (the other options of run are accepted and have no effect)\n"
     "\n" PATHS_HELP
     "exit: 0, 2 usage or I/O, 3 invalid case files (skipped)\n"},
    {"serve", zo_cli_cmd_serve, ZO_OPT_MUTANT | ZO_OPT_RULESET_FILE, 0, 0,
     "serve [--mutant NAME] [--ruleset-file FILE]",
     "the oracle as a zcp/1 engine on stdin/stdout",
     "The oracle as a zcp/1 engine: JSON Lines requests on stdin, responses on\n"
     "stdout (PROTOCOL.md).\n"
     "\n"
     "options:\n"
     "  --mutant NAME       the oracle plays one rule wrong (repeatable)\n"
     "  --ruleset-file FILE load a rule set of your own (repeatable): declared in\n"
     "                      hello beside the built-in ones, so that gate\n"
     "                      --ruleset-file FILE runs its cases against serve\n"
     "  -h, --help          this help\n"},
    {"smoke", zo_cli_cmd_smoke, ZO_OPT_ENGINE | ZO_OPT_ENGINE_PLUGIN | ZO_OPT_TIMEOUT | ZO_OPT_RULESET_FILE, 0, -1,
     "smoke --engine CMD | --engine-plugin LIB.so [--timeout S] [--ruleset-file FILE] [CASE...]",
     "check an adapter in seconds",
     "Checks a zcp/1 adapter in seconds: the handshake, one built-in case per\n"
     "declared feature, malformed requests, bye; one line per check.\n"
     "A game of your own: --ruleset-file FILE, and CASE files of that rule set,\n"
     "the first the engine can run being the core case (and the run checks').\n"
     "\n"
     "options:\n"
     "  --ruleset-file FILE load a rule set of your own (repeatable)\n"
     "  --engine CMD        the engine, a zcp/1 command\n"
     "  --engine-plugin LIB.so  the engine, a zo_engine_v1 shared object (in a forked\n"
     "                      worker process)\n"
     "  --timeout S         limit per request, seconds > 0 (default 5, at most 86400)\n"
     "  -h, --help          this help\n"
     "\n"
     "exit: 0 every check ok, 1 a check failed, 2 usage, 4 the engine could not be\n"
     "      started or failed the zcp/1 handshake\n"},
    {"steps", zo_cli_cmd_steps, ZO_OPT_FORMAT, 0, 0, "steps [--format text|json]",
     "the step language: every step kind, its feature and options",
     "Prints the step table the loader, the printer, the generator and the model\n"
     "follow: each step kind's word, the protocol feature it needs, the rule it\n"
     "carries out, whether it may be a then:/do: step, and its options with their\n"
     "types (required ones marked *). --format json gives the same as one object\n"
     "(an adapter's own checks, the JSON schema's sync, the docs' check read it).\n"
     "\n"
     "options:\n"
     "  --format F          text (default) or json\n"
     "  -h, --help          this help\n"
     "\n"
     "exit: 0, 2 usage\n"},
    {"mutants", zo_cli_cmd_mutants, ZO_OPT_COMMON | ZO_OPT_LIST, 0, -1, "mutants [--list] [PATH...]",
     "which case kills each mutant of the oracle",
     "Runs the cases against every mutant of the oracle (one switch or zone attribute\n"
     "changed) and prints which case kills it, or SURVIVED.\n"
     "\n"
     "options:\n"
     "  --list              only list the mutants' names\n"
     "  --ruleset-file FILE load a rule set of your own (repeatable)\n"
     "  -h, --help          this help\n"
     "  (the other options of run are accepted and have no effect)\n"
     "\n" PATHS_HELP
     "exit: 0 every mutant killed, 1 one survived, 2 usage or I/O\n"},
    {"diff", zo_cli_cmd_diff, 0, 2, 2, "diff A.jsonl B.jsonl",
     "what changed between two run records",
     "What changed from run record A to B: new failures, fixes, new skips, cases\n"
     "added and gone.\n"
     "\n"
     "options:\n"
     "  -h, --help          this help\n"
     "\n"
     "exit: 0, 1 a new failure, 2 usage or I/O (a file that is not a run record:\n"
     "      FILE:LINE: not a run record: why)\n"},
    {"site", zo_cli_cmd_site, ZO_OPT_OUT, 1, -1, "site [--out DIR] RUN.jsonl...",
     "a static results site comparing engines from run records",
     "Reads any number of run records (REPORT_DIR/run.jsonl of run and gate) and\n"
     "writes a static site to DIR, readable from disk (no script, no network):\n"
     "index.html, the conformance of each engine and version (its newest run, by\n"
     "the record's start time) overall and per rule set, a trend plot over every\n"
     "run, the cases where engines disagree; and a page per engine and version\n"
     "with its failing cases (file:line, expected vs observed, message).\n"
     "Conformance: (pass + xpass) / every case that ran (skips left out).\n"
     "\n"
     "options:\n"
     "  --out DIR           where (default: site); DIR is replaced whole, and may\n"
     "                      be absent, empty or a site written before\n"
     "  -h, --help          this help\n"
     "\n"
     "exit: 0, 2 usage or I/O (a file that is not a run record: FILE:LINE: error)\n"},
    {"known-gaps", zo_cli_cmd_known_gaps, ZO_OPT_UPDATE, 1, -1, "known-gaps [--update] FILE [RUN.jsonl...]",
     "check a known-gaps file, or write it from run records",
     "FILE is the list gate --expect-failures reads: '- {id: CASE_ID, reason: WHY}'\n"
     "entries, 'ruleset: ID' to name one rule set only. Alone, it is checked as\n"
     "gate checks it. With run records (run.jsonl of gate runs), it is compared with\n"
     "them: every case failing in a record needs an entry, and an entry whose case\n"
     "passes now or names no case of the records is stale (each listed on stderr).\n"
     "With --update, FILE is rewritten from them, whole or not at all, sorted by id\n"
     "then rule set: the entries that still apply (or whose cases were skipped)\n"
     "stay; a failing case x rule set no entry names gets one, with the reason of\n"
     "the stale entry it had, else \"TODO: why does it fail?\" for you to replace;\n"
     "comments are not kept. A file already up to date is left as it is.\n"
     "\n"
     "options:\n"
     "  --update            rewrite FILE from the run records\n"
     "  -h, --help          this help\n"
     "\n"
     "exit: 0 valid (and up to date, or written), 1 not up to date with the\n"
     "      records, 2 usage or I/O, an invalid FILE or a file that is not a run\n"
     "      record\n"},
    {"table", zo_cli_cmd_table, ZO_OPT_RULESET | ZO_OPT_RULESET_FILE | ZO_OPT_MUTANT, 0, 0,
     "table --ruleset ID [--format text|markdown|json]",
     "what a move does, per kind of object and pair of zones",
     "The transition table of a rule set: for each kind of object it knows (each card\n"
     "type its zones read, token, copy, ability, face-down, phased-out, macro,\n"
     "sub-card...) and each pair of zones (each position of an ordered zone), what a\n"
     "move by an effect does: outcome, new object or not, where it ends up, who may\n"
     "look at it, what it keeps, and the rules the model applied. Every cell is a\n"
     "game of the oracle, so the table is what the oracle does; identical cells are\n"
     "grouped. `zoneoracle run` puts the same tables in index.html.\n"
     "\n"
     "options:\n"
     "  --ruleset ID        the rule set (required; zoneoracle rulesets lists them)\n"
     "  --format F          text (default), markdown or json\n"
     "  --ruleset-file FILE load a rule set of your own first (repeatable)\n"
     "  --mutant NAME       the oracle plays one rule wrong (repeatable)\n"
     "  -h, --help          this help\n"
     "\n"
     "exit: 0, 2 usage (an unknown rule set) or I/O\n"},
    {"version", cmd_version, 0, 0, 0, "version", "print the version, the suite's commit and where it is",
     "Prints the version, the git commit of the source tree the case suite comes\n"
     "from, and where the suite is (or 'not found').\n"
     "\n"
     "options:\n"
     "  -h, --help          this help\n"},
    {"help", cmd_help, 0, 0, 1, "help [COMMAND]", "this help, or a command's",
     "Prints the usage of every command, or of COMMAND.\n"},
};
const size_t zo_cli_ncommands = sizeof zo_cli_commands / sizeof zo_cli_commands[0];

/* The command called name, or NULL (cli.h). */
const zo_cli_command *zo_cli_find_command(const char *name) {
  for (size_t i = 0; i < zo_cli_ncommands; i++)
    if (!strcmp(zo_cli_commands[i].name, name)) return &zo_cli_commands[i];
  return NULL;
}

/* The command list (for `zoneoracle` alone and unknown commands). */
static void print_short_usage(FILE *f) {
  fprintf(f, "usage: zoneoracle COMMAND [OPTIONS] [PATH...]\n\ncommands:\n");
  for (size_t i = 0; i < zo_cli_ncommands; i++)
    fprintf(f, "  %-10s %s\n", zo_cli_commands[i].name, zo_cli_commands[i].summary);
  fprintf(f, "\n'zoneoracle help' shows every option, 'zoneoracle COMMAND --help' one command's\n");
}

/* Every command's usage and help, then the exit codes. */
static void print_full_usage(FILE *f) {
  fprintf(f, "usage: zoneoracle COMMAND [OPTIONS] [PATH...]\n\ncommands:\n");
  for (size_t i = 0; i < zo_cli_ncommands; i++)
    fprintf(f, "  %-10s %s\n", zo_cli_commands[i].name, zo_cli_commands[i].summary);
  for (size_t i = 0; i < zo_cli_ncommands; i++)
    fprintf(f, "\nusage: zoneoracle %s\n%s", zo_cli_commands[i].synopsis, zo_cli_commands[i].help);
  zo_cli_print_docs(f, NULL);
  fputs("\nexit codes: 0 pass, 1 conformance failures (or no case ran, unless\n"
        "--allow-empty), 2 usage or I/O (out of memory too), 3 invalid case files, 4 the\n"
        "engine under test could not be started or driven; when a run has several of\n"
        "1-3, 3 wins over 2 and 2 over 1\n", f);
}

/* zoneoracle help [COMMAND]: the full usage, or COMMAND's, on stdout. */
static int cmd_help(const zo_cli_command *cmd, int argc, char **argv) {
  zo_cli_opts o;
  int rc = zo_cli_parse(cmd, argc, argv, &o);
  if (rc < 0) {
    if (!o.nargs) {
      print_full_usage(stdout);
      rc = ZO_EXIT_PASS;
    } else {
      const zo_cli_command *c = zo_cli_find_command(o.args[0]);
      if (c) {
        zo_cli_print_help(c, stdout);
        rc = ZO_EXIT_PASS;
      } else {
        rc = zo_cli_usage_error(cmd, "unknown command '%s'", o.args[0]);
      }
    }
  }
  zo_cli_opts_free(&o);
  return rc;
}

/* zoneoracle version: the version, the suite's commit, where the suite is. */
static int cmd_version(const zo_cli_command *cmd, int argc, char **argv) {
  zo_cli_opts o;
  int rc = zo_cli_parse(cmd, argc, argv, &o);
  zo_cli_opts_free(&o);
  if (rc >= 0) return rc;
  char cases[4096];
  int found = !zo_cli_data_path("cases", cases, sizeof cases);
  printf("zoneoracle %s\nsuite commit %s\ncases %s\n", zo_cli_version(), zo_cli_suite_commit(),
         found ? cases : "not found");
#ifdef ZO_WITH_MIMALLOC
  int mv = mi_version(); /* e.g. 209 for 2.0.9 */
  printf("allocator mimalloc %d.%d.%d\n", mv / 100, mv / 10 % 10, mv % 10);
#else
  printf("allocator the C library's malloc\n");
#endif
  return ZO_EXIT_PASS;
}

/* The command's out-of-memory handler (util.h): "zoneoracle: out of
 * memory while <activity>" on stderr, then exit 2 at once (_exit: no
 * stdio flushed, nothing half-written committed; an unfinished report set
 * is left for the next run to remove). Allocates nothing. */
static void cli_oom(const char *activity) {
  zo_oom_print(activity);
  _exit(ZO_EXIT_USAGE);
}

/* jansson's allocator: zo_xmalloc, so that out of memory inside jansson
 * is cli_oom too, never a NULL that drops a record. */
static void *json_alloc(size_t n) { return zo_xmalloc(n); }

/* zoneoracle COMMAND [ARGS...]: the command's exit code; 2 for no or an
 * unknown command, 0 for --help (the full usage on stdout) (cli.h). */
int zo_cli_main(int argc, char **argv) {
  zo_set_oom_handler(cli_oom);
  json_set_alloc_funcs(json_alloc, free);
  zo_activity_set("reading the command line");
  if (argc < 2) {
    fprintf(stderr, "zoneoracle: missing command\n");
    print_short_usage(stderr);
    return ZO_EXIT_USAGE;
  }
  const char *name = argv[1];
  if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
    print_full_usage(stdout);
    return ZO_EXIT_PASS;
  }
  if (!strcmp(name, "--version")) name = "version";
  const zo_cli_command *cmd = zo_cli_find_command(name);
  if (!cmd) {
    fprintf(stderr, "zoneoracle: unknown %s '%s'\n", name[0] == '-' ? "option" : "command", name);
    print_short_usage(stderr);
    return ZO_EXIT_USAGE;
  }
  /* the command sees its own name as argv[0] */
  return cmd->run(cmd, argc - 1, argv + 1);
}
