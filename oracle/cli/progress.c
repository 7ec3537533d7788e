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
 * --max-fail N stops the run after N failing results (zo_run_options);
 * the last line then says how many case files were not run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

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

static void print_result(zo_cli_progress *p, const zo_case_result *r) {
  int quiet = p->o->quiet;
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
  printf(" %s [%s]\n  %s\n", r->case_id, r->ruleset, r->message ? r->message : "");
  if (r->expected) printf("  expected: %s\n  observed: %s\n", r->expected, r->observed);
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
  double t = now_s();
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
  p->t0 = p->last_line = now_s();
  opt->progress = on_progress;
  opt->progress_ctx = p;
  opt->max_fail = o->max_fail;
}

void zo_cli_progress_finish(zo_cli_progress *p, const zo_run *run) {
  if (p->tty) clear_counter(p);
  if (run->not_run)
    printf("stopped after %d failing results (--max-fail %d): %d case files not run\n",
           failing(run) + run->ninvalid, p->o->max_fail, run->not_run);
  fflush(stdout);
}
