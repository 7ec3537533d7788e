/* diff.c: differential runs of decoded fuzz inputs (diff.h): one game on
 * the oracle and on an engine, compared after every step; a finding kept
 * as a game and minimized over its cards, steps and fields. */
#include "diff.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runner.h"
#include "util.h"

/* A game and the oracle's side of it: its outcomes, results and
 * observations after the setup (index 0) and after each step (1..n), and
 * where each step's bytes end in the input (ends[0]: the header). */
typedef struct {
  zo_fuzz f;
  zo_outcome outcomes[ZO_FUZZ_MAX_STEPS];
  zo_step_error errors[ZO_FUZZ_MAX_STEPS];
  size_t ends[ZO_FUZZ_MAX_STEPS + 1];
  zo_step_result rb[ZO_FUZZ_MAX_STEPS + 1];
  zo_observation ob[ZO_FUZZ_MAX_STEPS + 1];
  int nob;                 /* entries of ob and rb filled: 0..n+1 */
} played;

/* Step i (0-based) just applied on the oracle: keep its result and what
 * the oracle observes after it. */
static void keep(played *p, int i) {
  p->outcomes[i] = p->rb[i + 1].outcome;
  p->errors[i] = p->rb[i + 1].error;
  zo_game_observe(p->f.g, &p->ob[i + 1]);
  p->nob = i + 2;
}

/* Decode data within prof, playing each step on the oracle as it comes
 * (the decoder reads the game to choose what exists). */
static void decode_play(played *p, const zo_fuzz_profile *prof, const uint8_t *data, size_t size) {
  zo_fuzz_start_in(&p->f, prof, data, size);
  p->ends[0] = p->f.at;
  zo_game_observe(p->f.g, &p->ob[0]);
  p->nob = 1;
  const zo_step *s;
  uint64_t lacks = prof->all ? 0 : ~prof->features;
  while ((s = zo_fuzz_next(&p->f))) {
    int i = p->f.given - 1;
    zo_game_apply(p->f.g, s, &p->rb[i + 1]);
    if (zo_game_features_used(p->f.g) & lacks) {
      /* the step relied on a meaning the engine never declared (a
         move_together's member that stayed, a refused mark): the game
         ends before it */
      zo_step_result_free(&p->rb[i + 1]);
      memset(&p->rb[i + 1], 0, sizeof p->rb[i + 1]);
      zo_fuzz_truncate(&p->f, i);
      break;
    }
    keep(p, i);
    p->ends[i + 1] = p->f.at < size ? p->f.at : size;
  }
}

/* Play p->f's case again from the start (a changed copy). ZO_OK, or the
 * setup error: the model refuses the case. */
static zo_status replay_play(played *p) {
  zo_game_free(p->f.g);
  p->f.g = NULL;
  zo_status st = zo_game_new(p->f.rs, p->f.c, &p->f.g, NULL);
  if (st) return st;
  zo_game_observe(p->f.g, &p->ob[0]);
  p->nob = 1;
  for (int i = 0; i < p->f.c->nsteps; i++) {
    zo_game_apply(p->f.g, &p->f.c->steps[i], &p->rb[i + 1]);
    keep(p, i);
  }
  return ZO_OK;
}

/* Empty p for the next game (its storage kept). */
static void played_clear(played *p) {
  for (int i = 0; i < p->nob; i++) {
    zo_observation_free(&p->ob[i]);
    zo_step_result_free(&p->rb[i]);
  }
  p->nob = 0;
  zo_fuzz_free(&p->f);
}

static void played_free(played *p) {
  played_clear(p);
  free(p);
}

/* ---- one game on the engine --------------------------------------------- */

static zo_diff_status skip(zo_diff_result *out, int unsupported, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static zo_diff_status skip(zo_diff_result *out, int unsupported, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(out->message, sizeof out->message, fmt, ap);
  va_end(ap);
  out->status = ZO_DIFF_SKIP;
  out->unsupported = unsupported;
  return out->status;
}

/* "after step 3 (move)" or "after the setup" into buf. */
static const char *where(const zo_case *c, int step, char *buf, size_t cap) {
  if (step) snprintf(buf, cap, "after step %d (%s)", step, zo_step_kind_name(c->steps[step - 1].kind));
  else snprintf(buf, cap, "after the setup");
  return buf;
}

static zo_diff_status engine_failed(zo_diff_result *out, const zo_case *c, int step,
                                    const zo_error *err) {
  char w[96];
  out->status = ZO_DIFF_DIFFERS;
  out->step = step;
  snprintf(out->d.what, sizeof out->d.what, "engine");
  snprintf(out->d.engine, sizeof out->d.engine, "%.120s", err->message);
  snprintf(out->detail, sizeof out->detail, "engine %.32s: %.400s",
           err->context[0] ? err->context : "error", err->message);
  snprintf(out->message, sizeof out->message, "%s: %s", where(c, step, w, sizeof w), out->detail);
  return out->status;
}

/* Observe the engine after the setup and after each step, one request
 * each, into ea/ra; the steps it got through (0..n+1 observations) and, on
 * an error, the step (0 = setup) in *failed with the error in ferr. */
static int step_by_step(zo_engine *e, const zo_case *c, zo_observation *ea, zo_step_result *ra,
                        int *failed, zo_error *ferr) {
  if (e->ops->observe(e->self, &ea[0], ferr)) {
    *failed = 0;
    return 0;
  }
  for (int i = 0; i < c->nsteps; i++)
    if (e->ops->step(e->self, &c->steps[i], &ra[i + 1], ferr) ||
        e->ops->observe(e->self, &ea[i + 1], ferr)) {
      *failed = i + 1;
      return i + 1;
    }
  return c->nsteps + 1;
}

/* The engine's side of p (set up already), observations into ea/ra: all
 * n+1 of them, or fewer with the failing step in *failed. A batch that
 * fails is played again step by step, so an error names its step; when
 * the steps then all pass, the batch's own error is kept in *batch_err
 * (an engine that answers `run` unsupported is driven step by step from
 * then on: it lacks the operation, not a step). */
static int engine_play(zo_diff_engine *x, played *p, zo_observation *ea, zo_step_result *ra,
                       int *failed, zo_error *ferr, zo_error *batch_err) {
  zo_engine *e = x->e;
  const zo_case *c = p->f.c;
  int n = c->nsteps;
  if (!x->batch) return step_by_step(e, c, ea, ra, failed, ferr);
  zo_status st = zo_engine_process_run(e, c, ra, ea, batch_err);
  if (st == ZO_OK) return n + 1;
  for (int i = 0; i <= n; i++) {
    zo_observation_free(&ea[i]);
    zo_step_result_free(&ra[i]);
    memset(&ea[i], 0, sizeof ea[i]);
    memset(&ra[i], 0, sizeof ra[i]);
  }
  if (st == ZO_ERR_USAGE) { /* not a zcp/1 engine: nothing was sent */
    memset(batch_err, 0, sizeof *batch_err);
    x->batch = 0;
    return step_by_step(e, c, ea, ra, failed, ferr);
  }
  if (e->ops->setup(e->self, p->f.rs, c, ferr)) { /* again, from the start */
    *failed = 0;
    return 0;
  }
  int got = step_by_step(e, c, ea, ra, failed, ferr);
  if (got == n + 1 && batch_err->engine_fault == ZO_ENGINE_FAULT_UNSUPPORTED) x->batch = 0;
  return got;
}

/* The first difference between the engine's observations (got of them)
 * and the oracle's, into out; SAME when they agree. */
static zo_diff_status first_difference(const played *p, const zo_observation *ea,
                                       const zo_step_result *ra, int got, zo_diff_result *out) {
  const zo_case *c = p->f.c;
  for (int i = 0; i < got; i++) {
    if (!zo_observation_diff(c, &ea[i], &p->ob[i], i ? &ea[i - 1] : NULL, i ? &p->ob[i - 1] : NULL,
                             i ? &ra[i] : NULL, i ? &p->rb[i] : NULL, &out->d))
      continue;
    char w[96];
    out->status = ZO_DIFF_DIFFERS;
    out->step = i;
    zo_obs_difference_format(c, &out->d, out->detail, sizeof out->detail);
    snprintf(out->message, sizeof out->message, "%s: %s", where(c, i, w, sizeof w), out->detail);
    if (out->d.handle >= 0 && out->d.handle < c->nhandles)
      snprintf(out->handle, sizeof out->handle, "%s", c->handles[out->d.handle]);
    return out->status;
  }
  return ZO_DIFF_SAME;
}

/* The engine's side of a game of n steps freed (ea and ra, n+1 entries
 * each) and the engine torn down. */
static void engine_done(zo_engine *e, zo_observation *ea, zo_step_result *ra, int n) {
  for (int i = 0; i <= n; i++) {
    zo_observation_free(&ea[i]);
    zo_step_result_free(&ra[i]);
  }
  free(ea);
  free(ra);
  e->ops->teardown(e->self);
}

/* ---- setups the engine refused ---------------------------------------------- */

/* A digest of p's setup as the engine is sent it (rule set, players,
 * cards as JSON: FNV-1a), never 0. */
static uint64_t setup_digest(const played *p) {
  uint64_t h = 1469598103934665603ULL;
  const zo_case *c = p->f.c;
  for (const char *s = p->f.rs->id; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  h = (h ^ (uint64_t)c->nplayers) * 1099511628211ULL;
  for (const char *s = c->cards_json ? c->cards_json : ""; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h ? h : 1;
}

/* Whether x's engine refused a setup of digest h before. */
static int refused_before(const zo_diff_engine *x, uint64_t h) {
  for (size_t i = x->caprefused ? h & (x->caprefused - 1) : 0; x->caprefused; i = (i + 1) & (x->caprefused - 1)) {
    if (x->refused[i] == h) return 1;
    if (!x->refused[i]) return 0;
  }
  return 0;
}

/* Remember that x's engine refused a setup of digest h. */
static void refused_add(zo_diff_engine *x, uint64_t h) {
  if (refused_before(x, h)) return;
  if (2 * (x->nrefused + 1) > x->caprefused) { /* grow: at most half full */
    size_t cap = x->caprefused ? 2 * x->caprefused : 256;
    uint64_t *old = x->refused;
    size_t oldcap = x->caprefused;
    x->refused = zo_xcalloc(cap, sizeof *x->refused);
    x->caprefused = cap;
    x->nrefused = 0;
    for (size_t i = 0; i < oldcap; i++)
      if (old[i]) refused_add(x, old[i]);
    free(old);
  }
  size_t i = h & (x->caprefused - 1);
  while (x->refused[i]) i = (i + 1) & (x->caprefused - 1);
  x->refused[i] = h;
  x->nrefused++;
}

/* Forget the games sent ahead: the answers of their requests in flight
 * read and dropped, but for a setup answered unsupported, which is
 * remembered (never sent again). */
static void ahead_drop(zo_diff_engine *x) {
  for (int i = 0; i < x->nahead; i++) {
    zo_diff_ahead *a = &x->ahead[i];
    if (!a->sent) continue;
    played *g = a->game;
    int n = g->f.c->nsteps, refused = 0;
    zo_observation *ea = zo_xcalloc((size_t)n + 1, sizeof *ea);
    zo_step_result *ra = zo_xcalloc((size_t)n + 1, sizeof *ra);
    zo_error err = {0};
    if (zo_engine_process_read_game(x->e, g->f.c, ra, ea, &refused, &err) && refused) refused_add(x, a->digest);
    engine_done(x->e, ea, ra, n);
  }
  zo_engine_process_drain(x->e); /* anything left (an engine that failed has nothing) */
  for (int i = 0; i < x->nahead; i++) x->ahead[i].sent = 0;
  x->nahead = 0;
}

/* p (played on the oracle, its case with its JSON) on x's engine. */
static zo_diff_status compare(zo_diff_engine *x, played *p, zo_diff_result *out) {
  zo_engine *e = x->e;
  const zo_case *c = p->f.c;
  const zo_ruleset *rs = p->f.rs;
  if (e->ops->has && !e->ops->has(e->self, rs->id, 1))
    return skip(out, 0, "the engine does not declare rule set %s", rs->id);
  const char *missing = zo_case_missing_feature(e, c);
  if (missing) return skip(out, 0, "the engine does not declare feature %s", missing);
  if (!zo_fuzz_setup_fits(&p->f))
    return skip(out, 0, "the setup needs a zone the engine's game does not have");
  uint64_t digest = setup_digest(p);
  if (refused_before(x, digest)) return skip(out, 1, "unsupported at the setup (refused before)");
  zo_error err = {0};
  if (e->ops->setup(e->self, rs, c, &err)) {
    if (err.engine_fault == ZO_ENGINE_FAULT_UNSUPPORTED) {
      refused_add(x, digest);
      return skip(out, 1, "unsupported at the setup: %s", err.message);
    }
    return engine_failed(out, c, 0, &err);
  }
  int n = c->nsteps, failed = -1;
  zo_observation *ea = zo_xcalloc((size_t)n + 1, sizeof *ea);
  zo_step_result *ra = zo_xcalloc((size_t)n + 1, sizeof *ra);
  zo_error berr = {0};
  int got = engine_play(x, p, ea, ra, &failed, &err, &berr);
  out->status = first_difference(p, ea, ra, got, out);
  if (out->status == ZO_DIFF_SAME && failed >= 0) {
    if (err.engine_fault == ZO_ENGINE_FAULT_UNSUPPORTED) /* a skip, never a difference */
      skip(out, 1, "unsupported at step %d (%s): %s", failed,
           failed ? zo_step_kind_name(c->steps[failed - 1].kind) : "setup", err.message);
    else engine_failed(out, c, failed, &err);
  } else if (out->status == ZO_DIFF_SAME && berr.code != ZO_OK && x->batch) {
    /* the run failed, the same steps one at a time did not */
    zo_error e2;
    zo_error_set(&e2, berr.code, berr.file, berr.line, berr.column,
                 "%.400s (answering run; the steps one at a time agree)", berr.message);
    if (berr.context[0]) zo_error_note(&e2, "%s", berr.context);
    zo_error_fault(&e2, berr.engine_fault);
    engine_failed(out, c, 0, &e2);
  }
  engine_done(e, ea, ra, n);
  return out->status;
}

void zo_diff_engine_init(zo_diff_engine *x, zo_engine *e, int batch) {
  memset(x, 0, sizeof *x);
  x->e = e;
  x->batch = batch;
  zo_fuzz_profile_make(&x->prof, e->ops->has, e->self,
                       e->ops->features ? e->ops->features(e->self)
                                        : zo_features_declared(e->ops->has, e->self, 2),
                       e->ops->capabilities ? e->ops->capabilities(e->self) : NULL);
}

void zo_diff_engine_free(zo_diff_engine *x) {
  ahead_drop(x);
  free(x->refused);
  x->refused = NULL;
  x->nrefused = x->caprefused = 0;
  if (x->scratch) played_free(x->scratch);
  x->scratch = NULL;
  for (int i = 0; i < ZO_DIFF_AHEAD; i++) {
    if (x->ahead[i].game) played_free(x->ahead[i].game);
    free(x->ahead[i].data);
    memset(&x->ahead[i], 0, sizeof x->ahead[i]);
  }
}

static void result_init(zo_diff_result *out, const zo_fuzz_profile *prof) {
  memset(out, 0, sizeof *out);
  out->d.handle = -1;
  out->prof = *prof;
}

zo_diff_status zo_diff_run(zo_diff_engine *x, const uint8_t *data, size_t size, zo_diff_result *out) {
  ahead_drop(x);
  result_init(out, &x->prof);
  if (!x->scratch) x->scratch = zo_xcalloc(1, sizeof(played)); /* zeroed once: cleared after each game */
  played *p = x->scratch;
  decode_play(p, &x->prof, data, size);
  snprintf(out->ruleset, sizeof out->ruleset, "%s", p->f.rs->id);
  out->nsteps = p->f.c->nsteps;
  zo_fuzz_jsonify(&p->f, p->nob ? &p->ob[0] : NULL);
  compare(x, p, out);
  out->used = size;
  if (out->status == ZO_DIFF_DIFFERS) out->used = p->ends[out->step < out->nsteps ? out->step : out->nsteps];
  played_clear(p);
  return out->status;
}

/* Would compare() play p on x's engine (its rule set and features
 * declared)? The same tests compare() makes first, without a message. */
static int playable(zo_diff_engine *x, const played *p) {
  zo_engine *e = x->e;
  if (e->ops->has && !e->ops->has(e->self, p->f.rs->id, 1)) return 0;
  return zo_case_missing_feature(e, p->f.c) == NULL && zo_fuzz_setup_fits(&p->f) &&
         !refused_before(x, setup_digest(p));
}

/* p, decoded from data and played on the oracle, its requests written to
 * the engine when it is playable; 1 when they were. A game whose setup is
 * that of a game still in flight (digests inflight[0..n)) is held back:
 * should that one be refused, this one is never sent (its turn finds the
 * refusal; PROTOCOL.md 14, gate --fuzz). Its digest into *digest. */
static int decode_send(zo_diff_engine *x, played *p, const uint8_t *data, size_t size,
                       const uint64_t *inflight, int n, uint64_t *digest) {
  decode_play(p, &x->prof, data, size);
  zo_fuzz_jsonify(&p->f, p->nob ? &p->ob[0] : NULL);
  *digest = setup_digest(p);
  if (!playable(x, p)) return 0;
  for (int i = 0; i < n; i++)
    if (inflight[i] == *digest) return 0;
  zo_error err = {0};
  return zo_engine_process_send_game(x->e, p->f.rs, p->f.c, &err) == ZO_OK;
}

/* The answers of p's game, sent ahead, compared as compare() would: SAME
 * or DIFFERS into out; a skip into out, remembered, when the engine
 * answered its setup unsupported (the games after it stay in step: the
 * engine answered the game's other requests with errors and nothing
 * more); or -1 when another answer was an error or the engine failed
 * (compare() then plays the game again, to name the step). */
static int compare_sent(zo_diff_engine *x, played *p, zo_diff_result *out) {
  zo_engine *e = x->e;
  const zo_case *c = p->f.c;
  int n = c->nsteps;
  zo_observation *ea = zo_xcalloc((size_t)n + 1, sizeof *ea);
  zo_step_result *ra = zo_xcalloc((size_t)n + 1, sizeof *ra);
  zo_error err = {0};
  int st = -1, refused = 0;
  if (zo_engine_process_read_game(e, c, ra, ea, &refused, &err) == ZO_OK)
    st = out->status = first_difference(p, ea, ra, n + 1, out);
  else if (refused) {
    refused_add(x, setup_digest(p));
    st = skip(out, 1, "unsupported at the setup: %s", err.message);
  }
  engine_done(e, ea, ra, n);
  return st;
}

/* Does the game ahead at a hold input data (size bytes)? */
static int ahead_is(const zo_diff_ahead *a, const uint8_t *data, size_t size) {
  return a->size == size && !memcmp(a->data, data, size);
}

zo_diff_status zo_diff_run_ahead(zo_diff_engine *x, const uint8_t *data, size_t size,
                                 const uint8_t *const *next, const size_t *next_size, int nnext,
                                 zo_diff_result *out) {
  if (!x->batch || !zo_engine_process_can_send_ahead(x->e)) return zo_diff_run(x, data, size, out);
  result_init(out, &x->prof);
  if (!x->scratch) x->scratch = zo_xcalloc(1, sizeof(played));
  /* the games ahead must be this one and those after it, in order; else
     they are dropped (the caller went another way) */
  int keep = x->nahead > 0 && ahead_is(&x->ahead[0], data, size);
  for (int i = 1; keep && i < x->nahead; i++) keep = i - 1 < nnext && ahead_is(&x->ahead[i], next[i - 1], next_size[i - 1]);
  if (!keep) ahead_drop(x);
  played *p;
  int sent;
  if (x->nahead) { /* decoded, and sent when playable, in an earlier call */
    zo_diff_ahead head = x->ahead[0];
    p = head.game;
    head.game = x->scratch; /* the slot takes the storage this game leaves */
    x->scratch = p;
    sent = head.sent;
    head.sent = 0;
    memmove(&x->ahead[0], &x->ahead[1], (size_t)(x->nahead - 1) * sizeof x->ahead[0]);
    x->ahead[--x->nahead] = head;
  } else {
    p = x->scratch;
    uint64_t d;
    sent = decode_send(x, p, data, size, NULL, 0, &d);
  }
  /* a game the engine need not play (its rule set or a feature not
     declared) is a skip that sends nothing: the next may still go ahead */
  int skip = !sent && !playable(x, p);
  /* the games after it go ahead while this one is read, unless a request
     could not be sent (the engine stopped) */
  int ok = sent || skip;
  for (int i = x->nahead; ok && i < nnext && i < ZO_DIFF_AHEAD; i++) {
    zo_diff_ahead *a = &x->ahead[i];
    if (!a->game) a->game = zo_xcalloc(1, sizeof(played));
    else played_clear(a->game);
    if (next_size[i] > a->cap) {
      a->cap = next_size[i];
      a->data = zo_xrealloc(a->data, a->cap);
    }
    memcpy(a->data, next[i], next_size[i]);
    a->size = next_size[i];
    uint64_t inflight[ZO_DIFF_AHEAD + 1];
    int n = 0;
    if (sent) inflight[n++] = setup_digest(p);
    for (int j = 0; j < i; j++)
      if (x->ahead[j].sent) inflight[n++] = x->ahead[j].digest;
    a->sent = decode_send(x, a->game, next[i], next_size[i], inflight, n, &a->digest);
    x->nahead = i + 1;
    ok = a->sent || !playable(x, a->game);
  }
  snprintf(out->ruleset, sizeof out->ruleset, "%s", p->f.rs->id);
  out->nsteps = p->f.c->nsteps;
  if (skip) {
    compare(x, p, out); /* says why, and sends nothing */
  } else {
    int st = sent ? compare_sent(x, p, out) : -1;
    if (st != ZO_DIFF_SAME && st != ZO_DIFF_SKIP) {
      /* anything but agreement is decided the plain way, the engine alone
         with this game: a difference found ahead is kept as found */
      ahead_drop(x);
      if (st < 0) {
        result_init(out, &x->prof);
        snprintf(out->ruleset, sizeof out->ruleset, "%s", p->f.rs->id);
        out->nsteps = p->f.c->nsteps;
        compare(x, p, out);
      }
    }
  }
  out->used = size;
  if (out->status == ZO_DIFF_DIFFERS) out->used = p->ends[out->step < out->nsteps ? out->step : out->nsteps];
  played_clear(p);
  return out->status;
}

zo_diff_status zo_diff_input(zo_engine *e, const uint8_t *data, size_t size, int batch,
                             zo_diff_result *out) {
  zo_diff_engine x;
  zo_diff_engine_init(&x, e, batch);
  zo_diff_status st = zo_diff_run(&x, data, size, out);
  zo_diff_engine_free(&x);
  return st;
}

/* ---- findings ------------------------------------------------------------- */

/* Keep steps [0, n) of f. */
static void cut(zo_fuzz *f, int n) {
  while (f->c->nsteps > n && zo_fuzz_drop_step(f, f->c->nsteps - 1)) {
  }
}

void zo_diff_finding_init(zo_diff_finding *fd, const uint8_t *data, size_t size,
                          const zo_diff_result *res) {
  memset(fd, 0, sizeof *fd);
  fd->r = *res;
  zo_fuzz f;
  zo_fuzz_start_in(&f, &fd->r.prof, data, size);
  const zo_step *s;
  zo_step_result r = {0};
  while ((s = zo_fuzz_next(&f))) zo_game_apply_again(f.g, s, &r);
  zo_step_result_free(&r);
  zo_fuzz_copy(&fd->game, &f);
  zo_fuzz_free(&f);
  fd->game.prof = &fd->r.prof;
  if (res->status == ZO_DIFF_DIFFERS) cut(&fd->game, res->step);
}

void zo_diff_finding_free(zo_diff_finding *fd) { zo_fuzz_free(&fd->game); }

/* The same difference: the same property of the same object (by name). */
static int same_difference(const zo_diff_result *a, const zo_diff_result *b) {
  return b->status == ZO_DIFF_DIFFERS && !strcmp(a->d.what, b->d.what) &&
         !strcmp(a->handle, b->handle) && !strcmp(a->d.name, b->d.name);
}

enum { CUT_CARD, CUT_STEP, CUT_FIELD, CUT_CARD_FIELD };

/* Try one change of fd's game: -1 when there was nothing to change, 1
 * when the changed game still shows the same difference (and is kept,
 * cut after that step), else 0. */
static int attempt(zo_diff_engine *x, zo_diff_finding *fd, int how, int i, int k) {
  if (fd->deadline > 0 && zo_now() > fd->deadline) fd->cut_short = 1;
  if (fd->cut_short) return -1;
  played *p = zo_xcalloc(1, sizeof *p);
  zo_fuzz_copy(&p->f, &fd->game);
  int changed = how == CUT_CARD ? zo_fuzz_drop_card(&p->f, i)
                : how == CUT_STEP ? zo_fuzz_drop_step(&p->f, i)
                : how == CUT_FIELD ? zo_fuzz_drop_field(&p->f, i, k)
                                   : zo_fuzz_drop_card_field(&p->f, i, k);
  int kept = changed ? 0 : -1;
  if (changed && replay_play(p) == ZO_OK) {
    zo_diff_result r;
    result_init(&r, &fd->r.prof);
    snprintf(r.ruleset, sizeof r.ruleset, "%s", fd->r.ruleset);
    r.nsteps = p->f.c->nsteps;
    zo_fuzz_jsonify(&p->f, p->nob ? &p->ob[0] : NULL);
    compare(x, p, &r);
    fd->trials++;
    if (same_difference(&fd->r, &r)) {
      zo_fuzz_free(&fd->game);
      cut(&p->f, r.step);
      zo_fuzz_copy(&fd->game, &p->f);
      fd->game.prof = &fd->r.prof;
      r.used = 0; /* no longer a byte string */
      fd->r = r;
      kept = 1;
    }
  }
  played_free(p);
  return kept;
}

/* Every field of every step (how CUT_FIELD) or card (CUT_CARD_FIELD), last
 * first; 1 when one was dropped. */
static int drop_fields(zo_diff_engine *x, zo_diff_finding *fd, int how) {
  int any = 0;
  int n = how == CUT_FIELD ? fd->game.c->nsteps : fd->game.c->ncards;
  for (int i = n - 1; i >= 0; i--)
    for (int k = 0;;) {
      int limit = how == CUT_FIELD ? fd->game.c->nsteps : fd->game.c->ncards;
      if (i >= limit) break;
      int r = attempt(x, fd, how, i, k);
      if (r < 0) break;
      if (r) any = 1; /* the fields after it moved down: try the same k */
      else k++;
    }
  return any;
}

void zo_diff_minimize(zo_diff_engine *x, zo_diff_finding *fd, double seconds) {
  fd->deadline = seconds > 0 ? zo_now() + seconds : 0;
  for (int again = 1; again && !fd->cut_short;) {
    again = 0;
    for (int k = fd->game.c->ncards - 1; k >= 0; k--)
      if (k < fd->game.c->ncards && attempt(x, fd, CUT_CARD, k, 0) == 1) again = 1;
    for (int i = fd->game.c->nsteps - 1; i >= 0; i--)
      if (i < fd->game.c->nsteps && attempt(x, fd, CUT_STEP, i, 0) == 1) again = 1;
    again |= drop_fields(x, fd, CUT_FIELD);
    again |= drop_fields(x, fd, CUT_CARD_FIELD);
  }
}

int zo_diff_finding_print(zo_diff_finding *fd, const char *id, const char *note, int *lines,
                          FILE *out) {
  if (zo_fuzz_replay(&fd->game, fd->outcomes, fd->errors, NULL)) return -1;
  const zo_obs_difference *d = fd->r.status == ZO_DIFF_DIFFERS ? &fd->r.d : NULL;
  const char *rule = d ? zo_diff_rule(&fd->game, &fd->r) : NULL;
  return zo_fuzz_print_yaml_ex(&fd->game, fd->outcomes, fd->errors, id, rule, note, d, fd->r.step,
                               lines, out);
}

int zo_diff_print_yaml(const uint8_t *data, size_t size, const zo_diff_result *res,
                       const char *id, FILE *out) {
  zo_diff_finding fd;
  zo_diff_finding_init(&fd, data, size, res);
  char note[700];
  snprintf(note, sizeof note, "fuzz_diff finding (%s, %s): %s", res->ruleset, zo_diff_rule(&fd.game, res),
           res->message);
  for (char *p = note; *p; p++) /* the note goes between double quotes */
    if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20) *p = '\'';
  int rc = zo_diff_finding_print(&fd, id, res->status == ZO_DIFF_DIFFERS ? note : NULL, NULL, out);
  zo_diff_finding_free(&fd);
  return rc;
}

/* ---- what a finding cites ------------------------------------------------ */

/* The first rule of citation c, or NULL when the rule set is silent. */
static const char *cited(const zo_ruleset *rs, const zo_cited *c) {
  return c->nrules ? rs->rules[c->rules[0]].id : NULL;
}

/* The rule of the first of switches sw[0..n) that cites one, or NULL. */
static const char *first_switch(const zo_ruleset *rs, const zo_switch *sw, int n) {
  for (int i = 0; i < n; i++) {
    const char *r = cited(rs, &rs->sw[sw[i]]);
    if (r) return r;
  }
  return NULL;
}

/* The zone type of zone instance `zone` of the oracle's game, or NULL: its
 * name is PLAYER.TYPE, TYPE or either with ".N" (several instances). */
static const zo_zone_type *zone_type_of(const zo_fuzz *f, int zone) {
  if (zone < 0) return NULL;
  char name[160];
  zo_game_zone_name(f->g, zone, name, sizeof name);
  char *end = name + strlen(name), *dot = strrchr(name, '.');
  if (dot && dot + 1 < end && strspn(dot + 1, "0123456789") == (size_t)(end - dot - 1)) *dot = 0;
  dot = strrchr(name, '.');
  int t = zo_ruleset_zone(f->rs, dot ? dot + 1 : name);
  return t >= 0 ? &f->rs->zones[t] : NULL;
}

/* The switches behind what a step of kind k does, most specific first
 * (the rule an outcome or a zone after that step differs on). */
static int step_switches(zo_step_kind k, zo_switch *sw) {
  int n = 0;
  switch (k) {
  case ST_MOVE: case ST_MOVE_TOGETHER: case ST_DRAW: case ST_MILL:
    sw[n++] = SW_WRONG_OWNER, sw[n++] = SW_CANNOT_HOLD, sw[n++] = SW_SAME_ZONE;
    if (k == ST_DRAW) sw[n++] = SW_DRAW_EMPTY;
    break;
  case ST_CREATE: sw[n++] = SW_ARENA_DEFAULT, sw[n++] = SW_TOKEN_LEAVES; break;
  case ST_PHASE: case ST_UNTAP: sw[n++] = SW_PHASING, sw[n++] = SW_INDIRECT_PHASING; break;
  case ST_TURN_FACE: sw[n++] = SW_FLIP_STEP; break;
  case ST_REORDER: case ST_SHUFFLE: sw[n++] = SW_ORDER_CHOOSER; break;
  case ST_PUT_UNDER: sw[n++] = SW_SUB_CARDS; break;
  case ST_ZONE_CREATE: case ST_ZONE_REMOVE: sw[n++] = SW_ZONE_LIFECYCLE, sw[n++] = SW_CLEAR; break;
  case ST_STATE_CHECK:
    sw[n++] = SW_TOKEN_LEAVES, sw[n++] = SW_COPIES, sw[n++] = SW_AURA_UNATTACHED, sw[n++] = SW_DRAW_EMPTY;
    break;
  case ST_END_GAME: sw[n++] = SW_ANTE; break;
  case ST_WATCH: case ST_RESOLVE: sw[n++] = SW_TRIGGER_FINDS; break;
  case ST_REMEMBER: sw[n++] = SW_THEN_FINDS; break;
  case ST_REPLACE: case ST_CHOOSE_REPLACEMENT: case ST_REPLACE_DRAW:
    sw[n++] = SW_REPLACE_ORDER, sw[n++] = SW_REPLACE_CHOOSER;
    break;
  case ST_MARK: sw[n++] = SW_KEEPS; break;
  case ST_LOOK: sw[n++] = SW_LOOK, sw[n++] = SW_LOOK_FACE_DOWN; break;
  case ST_REVEAL: sw[n++] = SW_REVEALED_TOP_RENEWS; break;
  case ST_ATTACH: sw[n++] = SW_ATTACH; break;
  default: break;
  }
  return n;
}

/* The first of rule ids ids[0..n) the rule set lists, or NULL: where a
 * property's rule is a numbered rule of the text and no switch or zone
 * attribute cites it (the face of an object). Never a rule of another
 * game: only what the rule set itself lists. */
static const char *listed(const zo_ruleset *rs, const char *const *ids, int n) {
  for (int i = 0; i < n; i++)
    for (int k = 0; k < rs->nrules; k++)
      if (!strcmp(rs->rules[k].id, ids[i])) return rs->rules[k].id;
  return NULL;
}

const char *zo_diff_rule(const zo_fuzz *f, const zo_diff_result *r) {
  const zo_ruleset *rs = f->rs;
  const zo_case *c = f->c;
  const char *what = r->d.what, *rule = NULL;
  zo_step_kind k = r->step >= 1 && r->step <= c->nsteps ? c->steps[r->step - 1].kind : ST_COUNT;
  int h = r->d.handle;
  const zo_zone_type *zt = h >= 0 && f->g ? zone_type_of(f, zo_game_obj_zone(f->g, h)) : NULL;
  zo_switch sw[8];
  int n = 0;
  if (!strcmp(what, "outcome") || !strcmp(what, "error") || !strcmp(what, "engine") ||
      !strcmp(what, "zone")) {
    n = k < ST_COUNT ? step_switches(k, sw) : 0;
    if (!strcmp(what, "zone") && !n) sw[n++] = SW_WRONG_OWNER;
  } else if (!strcmp(what, "position")) {
    if (zt && zt->role == ZR_STACK) rule = cited(rs, &rs->sw[SW_STACK_ARRIVAL]);
    if (!rule && zt) rule = cited(rs, &zt->ordered);
    if (!rule && zt) rule = cited(rs, k == ST_REORDER ? &zt->effect_reorder : &zt->reorder);
    sw[n++] = SW_ORDER_CHOOSER;
  } else if (!strcmp(what, "layer")) {
    sw[n++] = SW_STACK_LAYERS;
  } else if (!strcmp(what, "visibility") || !strcmp(what, "visible")) {
    if (zt) rule = cited(rs, &zt->pub);
    sw[n++] = SW_VISIBILITY, sw[n++] = SW_LOOK;
  } else if (!strcmp(what, "face")) {
    static const char *const face[] = {"CR 708.8", "CR 708.2b", "CR 708.1", "FaB 3.0.4c"};
    rule = listed(rs, face, 4);
    if (!rule) rule = cited(rs, &rs->sw[SW_FLIP_STEP]);
    if (!rule && zt) rule = cited(rs, &zt->face_down_new);
    sw[n++] = SW_LOOK_FACE_DOWN, sw[n++] = SW_FACE_DOWN_PILES;
  } else if (!strcmp(what, "controller")) {
    static const char *const ctl[] = {"CR 110.2", "CR 110.2a", "FaB 1.2.1b"};
    rule = listed(rs, ctl, 3); /* who controls it (CR 110.2), before which zones give control */
    if (!rule && zt) rule = cited(rs, &zt->controller);
  } else if (!strcmp(what, "owner")) {
    sw[n++] = SW_WRONG_OWNER;
  } else if (!strcmp(what, "under")) {
    sw[n++] = SW_SUB_CARDS, sw[n++] = SW_ATTACH;
  } else if (!strcmp(what, "phased_out")) {
    sw[n++] = SW_PHASING, sw[n++] = SW_INDIRECT_PHASING;
  } else if (!strcmp(what, "came_from")) {
    sw[n++] = SW_HISTORY;
  } else if (!strcmp(what, "marks")) {
    sw[n++] = SW_NEW_OBJECT, sw[n++] = SW_KEEPS;
  } else if (!strcmp(what, "triggers")) {
    sw[n++] = SW_TRIGGER_FINDS;
  } else if (!strcmp(what, "refs")) {
    sw[n++] = SW_THEN_FINDS;
  } else if (!strcmp(what, "players")) {
    sw[n++] = SW_DRAW_EMPTY;
  }
  /* exists, new_object and anything else: the identity rule */
  if (!rule) rule = first_switch(rs, sw, n);
  if (!rule) rule = cited(rs, &rs->sw[SW_NEW_OBJECT]);
  return rule ? rule : c->rules[0];
}
