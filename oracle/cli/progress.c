/* progress.c: what run and gate print while the cases run (cli.h).
 *
 * Every result is printed as it finishes, not at the end, so a CI log fills
 * as the run goes: "PASS id [rule set]" (left out with --quiet) or the
 * status in capitals with the message, expected and observed; an invalid
 * case file's error goes to stderr. Where the lines go decides the rest:
 *
 *   a terminal: the statuses in colour (none when NO_COLOR is set to a
 *     non-empty value) and a live counter on the last line, rewritten
 *     after each result ("[37/506 files] 120 passed · 2 failing");
 *   a pipe or a file: plain lines, each flushed as it is written, and
 *     with --quiet a progress line at most once a second, so a quiet run
 *     still shows it is alive.
 *
 * A failing result also names the rules its case cites and its title,
 * and gives the one command that reruns it alone (zo_cli_rerun_prefix).
 * The engine's stderr lines a crash's message quotes are printed once:
 * a later failure leaves out the lines printed before (a banner the
 * engine prints at each restart) and says how many. The skips under rule
 * sets the engine does not declare are never printed one by one: finish
 * sums them up in one line.
 *
 * --max-fail N stops the run after N failing results (zo_run_options);
 * the last line then says how many case files were not run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "engine.h"
#include "report.h"
#include "util.h"
#include "cli.h"

/* ANSI colour of a status tag: red for what fails the run, green for a
 * pass, yellow for skips and known gaps. */
static const char *colour_of(zo_result_status s) {
  switch (s) {
  case RS_PASS: return "\033[32m";
  case RS_SKIP: case RS_XFAIL: return "\033[33m";
  default: return "\033[31m";
  }
}

static int failing(const zo_run *run) { return run->failed + run->errors + run->xpassed; }

static void counter(zo_cli_progress *p, const zo_run *run, int file, int nfiles) {
  fprintf(stdout, "\r\033[K[%d/%d files] %d passed · %d failing · %d skipped", file + 1, nfiles,
          run->passed, failing(run), run->skipped);
  if (run->xfailed) fprintf(stdout, " · %d known gaps", run->xfailed);
  fflush(stdout);
  p->counter_shown = 1;
}

static void clear_counter(zo_cli_progress *p) {
  if (!p->counter_shown) return;
  fputs("\r\033[K", stdout);
  p->counter_shown = 0;
}

/* Whether r is a skip under a rule set the engine does not declare:
 * counted for finish's one line, never printed. */
static int undeclared_skip(zo_cli_progress *p, const zo_case_result *r) {
  if (r->status != RS_SKIP || !p->engine || !p->engine->ops->has ||
      p->engine->ops->has(p->engine->self, r->ruleset, 1))
    return 0;
  json_t *n = json_object_get(p->undeclared, r->ruleset);
  json_object_set_new(p->undeclared, r->ruleset, json_integer(json_integer_value(n) + 1));
  return 1;
}

static void print_result(zo_cli_progress *p, const zo_case_result *r) {
  int quiet = p->o->quiet;
  if (undeclared_skip(p, r)) return;
  int brief = r->status == RS_PASS || (quiet && (r->status == RS_SKIP || r->status == RS_XFAIL));
  if (brief && quiet) return;
  if (p->tty) clear_counter(p);
  if (brief) {
    if (p->colour) printf("%sPASS\033[0m %s [%s]\n", colour_of(r->status), r->case_id, r->ruleset);
    else printf("PASS %s [%s]\n", r->case_id, r->ruleset);
    return;
  }
  char tag[16];
  snprintf(tag, sizeof tag, "%s", zo_result_status_name(r->status));
  for (char *t = tag; *t; t++) *t = (char)(*t - 32 * (*t >= 'a' && *t <= 'z'));
  if (p->colour) printf("%s%s\033[0m", colour_of(r->status), tag);
  else fputs(tag, stdout);
  /* the stderr lines a crash quotes: those printed before left out */
  char *msg = zo_report_message_dedup(r->message ? r->message : "", p->stderr_seen, 1, NULL);
  printf(" %s [%s]\n  %s\n", r->case_id, r->ruleset, msg);
  free(msg);
  if (r->expected) printf("  expected: %s\n  observed: %s\n", r->expected, r->observed);
  if (r->status == RS_SKIP || r->status == RS_XFAIL) return;
  /* what a developer acts on: the rules, the title, the command */
  fputs("  cites ", stdout);
  for (int k = 0; k < r->nrules; k++) printf("%s%s", k ? ", " : "", r->rules[k]);
  printf("%s%s\n", r->nrules ? ": " : "no rule: ", r->title ? r->title : "");
  if (p->rerun) {
    char *rs = zo_report_shell_word(r->ruleset), *file = zo_report_shell_word(r->file);
    printf("  rerun: %s --ruleset %s %s\n", p->rerun, rs, file);
    free(rs);
    free(file);
  }
}

/* zo_run_options.progress: print what is new in run since the last call. */
static void on_progress(const zo_run *run, int file, int nfiles, void *ctx) {
  zo_cli_progress *p = ctx;
  for (; p->invalid_done < run->ninvalid; p->invalid_done++) {
    if (p->tty) clear_counter(p);
    fflush(stdout);
    fprintf(stderr, "%s\n", run->invalid[p->invalid_done].message);
  }
  for (; p->results_done < run->n; p->results_done++) print_result(p, &run->results[p->results_done]);
  double t = zo_now();
  if (p->tty) { /* redrawn at most 20 times a second, and after each line */
    if (!p->counter_shown || t - p->last_line >= 0.05 || file + 1 == nfiles) {
      counter(p, run, file, nfiles);
      p->last_line = t;
    }
    return;
  }
  if (p->o->quiet && t - p->last_line >= 1.0) {
    printf("progress: %d of %d case files, %d passed, %d failing, %d skipped (%.0f s)\n", file + 1, nfiles,
           run->passed, failing(run), run->skipped, t - p->t0);
    p->last_line = t;
  }
  fflush(stdout);
}

void zo_cli_progress_attach(zo_cli_progress *p, const zo_cli_opts *o, zo_run_options *opt) {
  memset(p, 0, sizeof *p);
  p->o = o;
  p->tty = isatty(STDOUT_FILENO);
  const char *no_colour = getenv("NO_COLOR");
  p->colour = p->tty && !(no_colour && *no_colour);
  p->t0 = p->last_line = zo_now();
  opt->progress = on_progress;
  opt->progress_ctx = p;
  opt->max_fail = o->max_fail;
  p->rerun = zo_cli_rerun_prefix(o);
  p->undeclared = json_object();
  p->stderr_seen = json_object();
}

void zo_cli_progress_engine(zo_cli_progress *p, const zo_engine *e) { p->engine = e; }

void zo_cli_progress_finish(zo_cli_progress *p, const zo_run *run) {
  if (p->tty) clear_counter(p);
  if (run->not_run)
    printf("stopped after %d failing results (--max-fail %d): %d case files not run\n",
           failing(run) + run->ninvalid, p->o->max_fail, run->not_run);
  long long n = 0;
  const char *rs;
  json_t *v;
  json_object_foreach(p->undeclared, rs, v) n += json_integer_value(v);
  if (n) { /* one line for them all (counted in skipped) */
    size_t nrs = json_object_size(p->undeclared);
    printf("%lld cases under %zu rule set%s this engine doesn't declare:", n, nrs, nrs == 1 ? "" : "s");
    int k = 0;
    for (size_t i = 0; i < zo_ruleset_count(); i++) { /* the registry's order */
      const char *id = zo_ruleset_id(zo_ruleset_at(i));
      if ((v = json_object_get(p->undeclared, id))) printf("%s %s (%lld)", k++ ? "," : "", id, json_integer_value(v));
    }
    puts(" (skipped)");
  }
  fflush(stdout);
  json_decref(p->undeclared);
  json_decref(p->stderr_seen);
  free(p->rerun);
  p->undeclared = p->stderr_seen = NULL;
  p->rerun = NULL;
}

char *zo_cli_rerun_prefix(const zo_cli_opts *o) {
  size_t cap = 256, used = 0;
  char *out = zo_xmalloc(cap);
  out[0] = 0;
  /* appends one word (quoted when quote) */
#define WORD(w, quote)                                                                    \
  do {                                                                                    \
    char *q_ = (quote) ? zo_report_shell_word(w) : zo_xstrdup(w);                        \
    size_t n_ = strlen(q_) + 2;                                                           \
    while (used + n_ >= cap) out = zo_xrealloc(out, cap *= 2);                            \
    used += (size_t)snprintf(out + used, cap - used, "%s%s", used ? " " : "", q_);        \
    free(q_);                                                                             \
  } while (0)
  if (o->engine || o->plugin) {
    WORD("zoneoracle gate", 0);
    WORD(o->engine ? "--engine" : "--engine-plugin", 0);
    WORD(o->engine ? o->engine : o->plugin, 1);
  } else {
    WORD("zoneoracle run", 0);
  }
  if (o->strict) WORD("--strict", 0);
  if (o->invariants) WORD("--invariants", 0);
  if (o->given & ZO_OPT_TIMEOUT) {
    char t[64];
    snprintf(t, sizeof t, "--timeout %g", o->timeout);
    WORD(t, 0);
  }
  for (int i = 0; i < o->nruleset_files; i++) {
    WORD("--ruleset-file", 0);
    WORD(o->ruleset_files[i], 1);
  }
  for (int i = 0; i < o->nmutants; i++) {
    WORD("--mutant", 0);
    WORD(o->mutants[i], 1);
  }
#undef WORD
  return out;
}

int zo_cli_undeclared(const zo_cli_opts *o, const zo_engine *e, const char **ids) {
  int n = 0;
  if (!e || !e->ops->has) return 0;
  for (size_t i = 0; i < zo_ruleset_count(); i++) {
    const char *id = zo_ruleset_id(zo_ruleset_at(i));
    if ((!o->ruleset || !strcmp(o->ruleset, id)) && !e->ops->has(e->self, id, 1)) ids[n++] = id;
  }
  return n;
}
