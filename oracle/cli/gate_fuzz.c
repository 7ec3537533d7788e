/* gate_fuzz.c: `zoneoracle gate --engine CMD --fuzz SECONDS --seed S`:
 * differential fuzzing of an engine that is a process (or a plugin), over
 * the protocol in batch mode. Random byte strings from a seeded generator
 * are decoded into games within the rule sets and features the engine
 * declares (oracle/src/gen/decoder.h), each game is set up on the engine
 * and sent as one `run` request, and the engine's observation after every
 * step is compared with the oracle's (oracle/src/gen/diff.h); an
 * `unsupported` answer is a skip. Each new difference (one per rule set
 * and property) is minimized over the game's cards, steps and fields,
 * written as a YAML case, and run under plain `gate` before it is kept:
 * only a case that fails there with the same difference is written. A
 * known-differences file (--expect-failures) names differences to count
 * but not write. The same seed gives the same games in the same order;
 * how many run depends on the time given. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "diff.h"
#include "error.h"
#include "report.h"
#include "util.h"
#include "ydoc.h"
#include "cli.h"

/* splitmix64: a seeded stream of bytes, the same on every machine. */
static uint64_t next_u64(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* ---- the known-differences file --------------------------------------- */

/* One entry: a difference of this property (zo_obs_difference.what:
 * zone, came_from, outcome, engine...) under this rule set (NULL: any) is
 * known. Strings borrowed from the parsed file. */
typedef struct {
  const char *ruleset, *what, *reason;
  int line, seen;
} known_diff;

typedef struct {
  yd_doc doc;
  int parsed;
  known_diff *v;
  int n;
} known_diffs;

/* The text of scalar v of key k, non-empty, or NULL with err filled. */
static const char *entry_text(const yd_doc *doc, const char *k, const yd_node *v, zo_error *err) {
  if (v->kind != YD_SCALAR || yd_is_null(v) || !v->str[strspn(v->str, " \t")]) {
    zo_error_set(err, ZO_ERR_SCHEMA, doc->file, v->line, v->col, "'%s' must be non-empty text", k);
    return NULL;
  }
  return v->str;
}

/* Entry m of the list into d. */
static zo_status known_entry(const yd_doc *doc, const yd_node *m, known_diff *d, zo_error *err) {
  static const char *const keys[] = {"what", "reason", "ruleset"};
  memset(d, 0, sizeof *d);
  d->line = m->line;
  if (m->kind != YD_MAP)
    return zo_error_set(err, ZO_ERR_SCHEMA, doc->file, m->line, m->col,
                        "a known difference is a map {what: PROPERTY, reason: WHY, ruleset: ID}");
  for (size_t i = 0; i < m->n; i++) {
    const yd_node *k = YD_KEY(m, i), *v = YD_VAL(m, i);
    const char **slot = !strcmp(k->str, "what") ? &d->what : !strcmp(k->str, "reason") ? &d->reason
                        : !strcmp(k->str, "ruleset") ? &d->ruleset : NULL;
    if (!slot) {
      const char *near = zo_nearest(k->str, keys, 3);
      return zo_error_set(err, ZO_ERR_SCHEMA, doc->file, k->line, k->col,
                          "unknown key '%s' in a known difference (%s%s%sexpected what, reason, ruleset)",
                          k->str, near ? "did you mean '" : "", near ? near : "", near ? "'? " : "");
    }
    if (!(*slot = entry_text(doc, k->str, v, err))) return err->code;
    if (slot == &d->ruleset && !zo_ruleset_find(d->ruleset))
      return zo_error_set(err, ZO_ERR_SCHEMA, doc->file, v->line, v->col, "unknown rule set '%s'", d->ruleset);
  }
  if (!d->what || !d->reason)
    return zo_error_set(err, ZO_ERR_SCHEMA, doc->file, m->line, m->col, "a known difference needs %s",
                        !d->what ? "what: (the property, as a finding names it)" : "reason: (why)");
  return ZO_OK;
}

/* Load path into kd (a list; a file of only comments is an empty one).
 * -1, or ZO_EXIT_USAGE after "FILE:LINE:COL: error: ..." on stderr. */
static int known_load(const char *path, known_diffs *kd) {
  memset(kd, 0, sizeof *kd);
  size_t n;
  char *text = zo_cli_read_file(path, 1, &n);
  if (!text) return ZO_EXIT_USAGE;
  zo_error err = {0};
  zo_status st = ZO_OK;
  size_t blank = 0;
  for (int comment = 0; blank < n; blank++) { /* only comments and blanks: no entries */
    char ch = text[blank];
    if (ch == '\n') comment = 0;
    else if (ch == '#') comment = 1;
    else if (!comment && ch != ' ' && ch != '\t' && ch != '\r') break;
  }
  if (blank < n) {
    st = yd_parse(path, text, n, &kd->doc, &err);
    kd->parsed = st == ZO_OK;
    const yd_node *root = kd->parsed ? kd->doc.root : NULL;
    if (root && root->kind != YD_SEQ)
      st = zo_error_set(&err, ZO_ERR_SCHEMA, path, root->line, root->col,
                        "expected a list of known differences ('- {what: PROPERTY, reason: WHY}' each)");
    if (!st) kd->v = zo_xcalloc(root->n ? root->n : 1, sizeof *kd->v);
    for (size_t i = 0; !st && i < root->n; i++) st = known_entry(&kd->doc, root->kids[i], &kd->v[kd->n++], &err);
  }
  free(text);
  if (!st) return -1;
  char buf[2048];
  zo_error_format(&err, buf, sizeof buf);
  fprintf(stderr, "%s\n", buf);
  return ZO_EXIT_USAGE;
}

static void known_free(known_diffs *kd) {
  if (kd->parsed) yd_free(&kd->doc);
  free(kd->v);
}

/* The entry that names difference r, or NULL. */
static known_diff *known_match(known_diffs *kd, const zo_diff_result *r) {
  for (int i = 0; i < kd->n; i++)
    if ((!kd->v[i].ruleset || !strcmp(kd->v[i].ruleset, r->ruleset)) && !strcmp(kd->v[i].what, r->d.what))
      return &kd->v[i];
  return NULL;
}

/* ---- a finding: replayed under gate, then written ----------------------- */

/* Does result res of plain gate fail with fd's difference: the same step
 * and the same property (the runner names it "c1.zone", "outcome",
 * "triggers.w1.found", "engine")? */
static int same_in_gate(const zo_case_result *res, const zo_diff_finding *fd) {
  const zo_diff_result *r = &fd->r;
  int engine = !strcmp(r->d.what, "engine");
  if (res->status == RS_PASS || res->status == RS_SKIP || res->status == RS_XFAIL || !res->what) return 0;
  if (res->step != r->step && !(res->step == 0 && r->step == fd->game.c->nsteps)) return 0;
  if (engine) return !strcmp(res->what, "engine");
  char want[128];
  int exact = 0;
  if (!strcmp(r->d.what, "triggers") || !strcmp(r->d.what, "refs") || !strcmp(r->d.what, "players"))
    snprintf(want, sizeof want, "%s.%s.", r->d.what, r->d.name);
  else if (r->handle[0] && strcmp(r->d.what, "visible"))
    snprintf(want, sizeof want, "%s.%s", r->handle, r->d.what), exact = 1;
  else snprintf(want, sizeof want, "%s", r->d.what);
  return res->status == RS_FAIL &&
         (exact ? !strcmp(res->what, want) : !strncmp(res->what, want, strlen(want)));
}

/* Run the case at path (plain gate's runner, the case's one rule set) and
 * say whether it fails with fd's difference; why (cap bytes) when not. */
static int reproduces(zo_engine *e, const char *path, const zo_diff_finding *fd, char *why, size_t cap) {
  char *files[] = {(char *)path};
  zo_run_options opt = {.ruleset = fd->r.ruleset};
  zo_run run = {0};
  zo_run_files(e, files, 1, &opt, &run);
  int ok = run.n == 1 && same_in_gate(&run.results[0], fd);
  if (!ok && run.ninvalid) snprintf(why, cap, "the case does not load: %s", run.invalid[0].message);
  else if (!ok && run.n)
    snprintf(why, cap, "under gate it is %s%s%s", zo_result_status_name(run.results[0].status),
             run.results[0].message ? ": " : "", run.results[0].message ? run.results[0].message : "");
  else if (!ok) snprintf(why, cap, "under gate it did not run");
  zo_run_clear(&run);
  return ok;
}

/* How a run went, for the progress and the summary. */
typedef struct {
  const zo_cli_opts *o;
  const char *out_dir;
  double t0, last_shown;
  int tty, shown;
  long games, skipped, unsupported, steps, differing, known, repeats, unreproduced;
  int written;
} fuzz_run;

/* Write fd as DIR/diff-<rule set>-<n>.yaml, n the first number free,
 * whole or not at all, and only if it reproduces under gate: written to a
 * temporary file in DIR, replayed, then linked to its name (never over
 * another case) and the temporary name removed. Everything is relative to
 * dfd, DIR's descriptor, so the cases land in that directory even if it is
 * moved meanwhile (report.h's exchange of a report directory holding it).
 * path (cap bytes) receives DIR/name. 1 written, 0 not reproduced (why in
 * why), -1 after an I/O error message. */
static int write_finding(zo_engine *e, int dfd, const char *dir, zo_diff_finding *fd, const char *when,
                         char *path, size_t cap, char *why, size_t whycap) {
  char id[160], name[200], tmp[240], tmppath[4400];
  int n = 1;
  for (;; n++) {
    snprintf(name, sizeof name, "diff-%s-%d.yaml", fd->r.ruleset, n);
    struct stat st;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) break;
  }
  snprintf(id, sizeof id, "regressions/diff-%s-%d", fd->r.ruleset, n);
  if (snprintf(path, cap, "%s/%s", dir, name) >= (int)cap) {
    fprintf(stderr, "zoneoracle: %s: path too long\n", dir);
    return -1;
  }
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", name, (long)getpid());
  snprintf(tmppath, sizeof tmppath, "%s/%s", dir, tmp);
  /* the lines of the steps first: the note names the line of its step */
  int lines[ZO_FUZZ_MAX_STEPS + 1] = {0};
  FILE *null = fopen("/dev/null", "w");
  if (null) zo_diff_finding_print(fd, id, NULL, lines, null), fclose(null);
  char note[1400], at[96] = "after the setup";
  if (fd->r.step)
    snprintf(at, sizeof at, "after step %d (%s, line %d)", fd->r.step,
             zo_step_kind_name(fd->game.c->steps[fd->r.step - 1].kind), lines[fd->r.step - 1]);
  snprintf(note, sizeof note, "gate --fuzz finding (%s, %s), %s: %s: %s", fd->r.ruleset,
           zo_diff_rule(&fd->game, &fd->r), when, at, fd->r.detail);
  for (char *p = note; *p; p++) /* the note goes between double quotes */
    if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20) *p = '\'';
  unlinkat(dfd, tmp, 0); /* one a dead process of the same pid left */
  int fd_ = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  FILE *f = fd_ < 0 ? NULL : fdopen(fd_, "w");
  if (!f) {
    fprintf(stderr, "zoneoracle: %s: %s\n", tmppath, strerror(errno));
    if (fd_ >= 0) close(fd_);
    unlinkat(dfd, tmp, 0);
    return -1;
  }
  int bad = zo_diff_finding_print(fd, id, note, NULL, f) || ferror(f);
  if (fclose(f) || bad) {
    fprintf(stderr, "zoneoracle: %s: write failed: %s\n", path, strerror(errno ? errno : EIO));
    unlinkat(dfd, tmp, 0);
    return -1;
  }
  if (!reproduces(e, tmppath, fd, why, whycap)) {
    unlinkat(dfd, tmp, 0);
    return 0;
  }
  snprintf(why, whycap, "%s: %s", at, fd->r.detail);
  /* linkat never replaces an existing case; without hard links the
     lock (zo_report_dir_lock) keeps other runs away from the name */
  int rc = linkat(dfd, tmp, dfd, name, 0);
  if (rc && errno != EEXIST) rc = renameat(dfd, tmp, dfd, name);
  if (rc) fprintf(stderr, "zoneoracle: %s: %s\n", path, strerror(errno));
  unlinkat(dfd, tmp, 0);
  return rc ? -1 : 1;
}

/* ---- progress ------------------------------------------------------------ */

static void counts(const fuzz_run *fr, double t, FILE *out) {
  long run = fr->games - fr->skipped;
  fprintf(out, "%.0f s of %.0f: %ld games (%.1f%% run), %ld steps (%.0f steps/s); %ld differed", t - fr->t0,
          fr->o->fuzz, fr->games, fr->games ? 100.0 * (double)run / (double)fr->games : 0.0, fr->steps,
          (double)fr->steps / (t - fr->t0 > 0 ? t - fr->t0 : 1e-9), fr->differing);
  if (fr->written || fr->known) fprintf(out, " (%d new, %ld known)", fr->written, fr->known);
}

/* A live line on a terminal (five times a second), a plain line every 5 s
 * in a log; nothing with --quiet. */
static void progress(fuzz_run *fr, double t) {
  if (fr->o->quiet || t - fr->last_shown < (fr->tty ? 0.2 : 5)) return;
  fr->last_shown = t;
  fputs(fr->tty ? "\r\033[K[gate --fuzz] " : "gate --fuzz: ", stdout);
  counts(fr, t, stdout);
  if (!fr->tty) fputc('\n', stdout);
  fflush(stdout);
  fr->shown = fr->tty;
}

/* Before a line of its own: end the live line. */
static void clear_line(fuzz_run *fr) {
  if (fr->shown) fputs("\r\033[K", stdout);
  fr->shown = 0;
}

/* ---- the loop ---------------------------------------------------------------- */

/* The most a finding's minimization takes (a crashing engine restarts
 * for every game tried). */
#define MINIMIZE_SECONDS 60

/* A difference already met: "rule set:property", whether its case was
 * written, and how many of its cases did not reproduce under gate. */
typedef struct {
  char *key;
  int written, tries;
} met;

/* One differing game (bytes buf, len; found at t, game index fr->games):
 * counted as known, a repeat of a difference already written (or tried
 * three times), or minimized and written when it reproduces under gate.
 * 0, or -1 after an I/O error. */
static int finding(fuzz_run *fr, zo_diff_engine *x, int dfd, known_diffs *kd, met **seen, int *nseen,
                   const uint8_t *buf, size_t len, const zo_diff_result *r, double t) {
  known_diff *k = known_match(kd, r);
  if (k) {
    fr->known++;
    k->seen++;
    return 0;
  }
  char *key = zo_cli_strf("%s:%s", r->ruleset, r->d.what);
  met *m = NULL;
  for (int i = 0; i < *nseen && !m; i++)
    if (!strcmp((*seen)[i].key, key)) m = &(*seen)[i];
  if (m) free(key);
  else {
    *seen = zo_xrealloc(*seen, (size_t)(*nseen + 1) * sizeof **seen);
    m = &(*seen)[(*nseen)++];
    *m = (met){.key = key};
  }
  if (m->written || m->tries >= 3) {
    fr->repeats++;
    return 0;
  }
  zo_diff_finding fd;
  zo_diff_finding_init(&fd, buf, len, r);
  int cards0 = fd.game.c->ncards, steps0 = fd.game.c->nsteps;
  zo_diff_minimize(x, &fd, MINIMIZE_SECONDS);
  char when[160], path[4096], why[1200];
  snprintf(when, sizeof when, "game %ld at %.1f s, seed %llu", fr->games, t - fr->t0,
           (unsigned long long)fr->o->seed);
  int w = write_finding(x->e, dfd, fr->out_dir, &fd, when, path, sizeof path, why, sizeof why);
  if (w == 1) {
    fr->written++;
    m->written = 1;
    if (!fr->o->quiet) {
      clear_line(fr);
      printf("difference %d (%s, %s, %s): %s\n  %s\n  minimized from %d cards, %d steps to %d, %d (%d games%s)\n",
             fr->written, r->ruleset, zo_diff_rule(&fd.game, &fd.r), when, path, why, cards0, steps0, fd.game.c->ncards, fd.game.c->nsteps,
             fd.trials, fd.cut_short ? "; stopped at its time limit" : "");
      fflush(stdout); /* a log shows it now, not at the next progress line */
    }
  } else if (w == 0) {
    fr->unreproduced++;
    m->tries++;
    if (!fr->o->quiet) {
      clear_line(fr);
      printf("not written (%s, %s): %s; %s\n", r->ruleset, when, r->message, why);
      fflush(stdout);
    }
  }
  zo_diff_finding_free(&fd);
  return w < 0 ? -1 : 0;
}

/* Open out_dir (made if need be) and its lock; -1, or the exit code after
 * a message. */
static int open_out(const char *out_dir, int *lockfd, int *dfd) {
  if (zo_cli_mkdirs(out_dir)) {
    fprintf(stderr, "zoneoracle: cannot create %s: %s\n", out_dir, strerror(errno));
    return ZO_EXIT_USAGE;
  }
  /* one run at a time in out_dir; what interrupted ones left removed */
  zo_error lerr = {0};
  if (zo_report_dir_lock(out_dir, lockfd, &lerr)) {
    if (lerr.file[0]) fprintf(stderr, "zoneoracle: %s: %s\n", lerr.file, lerr.message);
    else fprintf(stderr, "zoneoracle: %s\n", lerr.message);
    return ZO_EXIT_USAGE;
  }
  *dfd = open(out_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (*dfd < 0) {
    fprintf(stderr, "zoneoracle: %s: %s\n", out_dir, strerror(errno));
    zo_report_dir_unlock(*lockfd);
    return ZO_EXIT_USAGE;
  }
  return -1;
}

/* One game's input from the generator's state: 8 to 127 bytes into buf
 * (160 bytes at least); its length. */
static size_t game_bytes(uint64_t *state, uint8_t *buf) {
  size_t len = 8 + (size_t)(next_u64(state) % 120);
  for (size_t i = 0; i < len; i += 8) {
    uint64_t v = next_u64(state);
    for (size_t k = 0; k < 8 && i + k < len; k++) buf[i + k] = (uint8_t)(v >> (8 * k));
  }
  return len;
}

int zo_cli_gate_fuzz(zo_engine *e, const char *engine_name, const zo_cli_opts *o) {
  const char *out_dir = o->out ? o->out : "reports/fuzz-diff";
  known_diffs kd = {0};
  int rc;
  if (o->expect_failures && (rc = known_load(o->expect_failures, &kd)) >= 0) {
    known_free(&kd); /* what a bad file left parsed */
    return rc;
  }
  int lockfd = -1, dfd = -1;
  if ((rc = open_out(out_dir, &lockfd, &dfd)) >= 0) {
    known_free(&kd);
    return rc;
  }
  zo_activity_set("fuzzing the engine");
  zo_diff_engine x;
  zo_diff_engine_init(&x, e, 1);
  if (o->ruleset && zo_fuzz_profile_only(&x.prof, o->ruleset)) {
    fprintf(stderr, "zoneoracle gate: --fuzz --ruleset %s: the engine does not declare that rule set\n",
            o->ruleset);
    zo_diff_engine_free(&x);
    known_free(&kd);
    close(dfd);
    zo_report_dir_unlock(lockfd);
    return ZO_EXIT_USAGE;
  }
  fuzz_run fr = {.o = o, .out_dir = out_dir, .tty = isatty(STDOUT_FILENO)};
  uint64_t state = o->seed;
  met *seen = NULL;
  int nseen = 0, io_bad = 0;
  double t = fr.t0 = fr.last_shown = zo_now();
  /* each game's bytes, and those of the games after it, so that they can
     go to the engine before this one's answers are read
     (zo_diff_run_ahead): a ring of games, ring[at] this one */
  enum { RING = ZO_DIFF_AHEAD + 1 };
  uint8_t ring[RING][160];
  size_t lens[RING];
  for (int k = 0; k < RING; k++) lens[k] = game_bytes(&state, ring[k]);
  int at = 0;
  while ((t = zo_now()) - fr.t0 < o->fuzz) {
    const uint8_t *next[ZO_DIFF_AHEAD];
    size_t next_len[ZO_DIFF_AHEAD];
    for (int k = 0; k < ZO_DIFF_AHEAD; k++) {
      next[k] = ring[(at + 1 + k) % RING];
      next_len[k] = lens[(at + 1 + k) % RING];
    }
    uint8_t *buf = ring[at];
    size_t len = lens[at];
    zo_diff_result r;
    zo_diff_status st = zo_diff_run_ahead(&x, buf, len, next, next_len, ZO_DIFF_AHEAD, &r);
    fr.games++;
    progress(&fr, t);
    if (st == ZO_DIFF_SKIP) {
      fr.skipped++;
      fr.unsupported += r.unsupported;
    } else {
      fr.steps += st == ZO_DIFF_DIFFERS ? r.step : r.nsteps;
      if (st == ZO_DIFF_DIFFERS) {
        fr.differing++;
        if (finding(&fr, &x, dfd, &kd, &seen, &nseen, buf, len, &r, t)) io_bad = 1;
      }
    }
    lens[at] = game_bytes(&state, buf); /* the game after the last one known */
    at = (at + 1) % RING;
  }
  clear_line(&fr);
  double secs = t - fr.t0 > 0 ? t - fr.t0 : 1e-9;
  long run = fr.games - fr.skipped;
  printf("gate --fuzz %s, seed %llu: %ld games in %.1f s (%.0f games/s); %ld skipped (%ld rule set "
         "or feature not declared, %ld unsupported); %ld run (%.1f%%), %ld steps compared (%.0f "
         "steps/s); %ld differed: %d new written to %s, %ld known, %ld repeats, %ld not reproduced "
         "under gate\n",
         engine_name, (unsigned long long)o->seed, fr.games, secs, (double)fr.games / secs, fr.skipped,
         fr.skipped - fr.unsupported, fr.unsupported, run,
         fr.games ? 100.0 * (double)run / (double)fr.games : 0.0, fr.steps, (double)fr.steps / secs,
         fr.differing, fr.written, out_dir, fr.known, fr.repeats, fr.unreproduced);
  zo_diff_engine_free(&x);
  for (int k = 0; k < nseen; k++) free(seen[k].key);
  free(seen);
  known_free(&kd);
  close(dfd);
  zo_report_dir_unlock(lockfd);
  if (io_bad) return ZO_EXIT_USAGE;
  return fr.written ? ZO_EXIT_FAIL : ZO_EXIT_PASS;
}
