/* diff.h: differential runs of decoded fuzz inputs (fuzz_diff, `zoneoracle
 * replay --harness diff`, `zoneoracle gate --fuzz`).
 *
 * An input is decoded within the engine's profile (decoder.h: only the
 * rule sets and features the engine declares) straight into the case the
 * engine is sent (zo_fuzz_jsonify: no YAML printed and loaded back), played
 * on the oracle as it is decoded, and run on the engine under test, which
 * sees exactly the messages the case runner would send for that case. The
 * observations are compared after the setup and after every step
 * (obs_diff.h); the first difference is the finding. An `unsupported`
 * answer, to the setup or to a step, makes the game a skip, never a
 * difference.
 */
#ifndef ZO_FUZZ_DIFF_H
#define ZO_FUZZ_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"
#include "obs_diff.h"
#include "decoder.h"

typedef enum {
  ZO_DIFF_SAME = 0,     /* the engine agreed after every step */
  ZO_DIFF_DIFFERS = 1,  /* a difference (or the engine failed): see the result */
  ZO_DIFF_SKIP = 2      /* the engine lacks the rule set or a feature the game needs,
                           or answered unsupported */
} zo_diff_status;

typedef struct {
  zo_diff_status status;
  int step;                /* 1-based step after which it showed; 0 = the setup */
  size_t used;             /* bytes of the input that decode up to that step */
  int nsteps;              /* steps the input decodes into */
  zo_obs_difference d;     /* the difference (d.what "engine" for an engine error) */
  char ruleset[32];
  char handle[48];         /* d.handle's name, or "" */
  char message[600];       /* one line for people ("after step 3 (move): ..."); the
                              skip's reason for a skip */
  char detail[480];        /* a difference without where it showed ("c1.zone: engine
                              alice.hand, oracle alice.graveyard"; "crash: ...") */
  int unsupported;         /* a skip: 1 when the engine answered unsupported, 0
                              when the game needed what it does not declare */
  zo_fuzz_profile prof;    /* the profile the input was decoded in */
} zo_diff_result;

/* How many games zo_diff_run_ahead keeps sent ahead of the one it reads.
 * One keeps both processes working; a second absorbs the difference in
 * length between games, so neither waits for the other (ci/bench, part 4). */
#define ZO_DIFF_AHEAD 2

/* One game sent ahead: decoded, played on the oracle, and its requests
 * written to the engine when it is playable. */
typedef struct {
  void *game;              /* its storage (owned), or NULL before first use */
  uint8_t *data;           /* its input (owned), size bytes */
  size_t size, cap;
  int sent;                /* its requests are in flight to the engine */
  uint64_t digest;         /* its setup's digest (diff.c, setup_digest) */
} zo_diff_ahead;

/* An engine to compare with the oracle, and what its games may use: the
 * caller's storage (zo_diff_engine_free); the engine stays the caller's. */
typedef struct {
  zo_engine *e;            /* borrowed */
  int batch;               /* send each game as one zcp/1 `run` when e is a
                              process or plugin (the fast path); otherwise
                              one step and one observe per step */
  zo_fuzz_profile prof;    /* e's rule sets and features (zo_fuzz_profile_make) */
  void *scratch;           /* one game's storage, reused from input to input */
  zo_diff_ahead ahead[ZO_DIFF_AHEAD]; /* games sent ahead, oldest first */
  int nahead;              /* how many of them hold a game */
  /* the setups the engine answered unsupported, never sent again: digests
     (rule set, players, cards as sent; never 0) in an open-addressing
     table of caprefused slots (a power of two, or 0), nrefused used */
  uint64_t *refused;
  size_t nrefused, caprefused;
} zo_diff_engine;

/* Fill x for engine e (its profile read once from e's `has`). */
void zo_diff_engine_init(zo_diff_engine *x, zo_engine *e, int batch);
/* Free what x holds (not its engine); x may be initialized again. */
void zo_diff_engine_free(zo_diff_engine *x);

/* Run input data on the oracle and on x's engine. Never fails: an engine
 * error is a ZO_DIFF_DIFFERS result naming it, at the step that caused it
 * (a batch that fails is played again step by step to find it). out is
 * owned by the caller. */
zo_diff_status zo_diff_run(zo_diff_engine *x, const uint8_t *data, size_t size, zo_diff_result *out);

/* zo_diff_run for data, with the inputs that follow it already known
 * (next[i], of next_size[i] bytes, i < nnext; the first ZO_DIFF_AHEAD are
 * used): over a pipe those games are decoded, played on the oracle and
 * sent to the engine before this one's answers are read, so the engine
 * works while the runner reads and compares (zo_engine_process_send_game).
 * The result is zo_diff_run's for data, whatever was sent ahead: games
 * sent ahead whose turn never comes, or that follow a game that differed
 * or failed, have their answers dropped and are played again when they
 * are run. Falls back to zo_diff_run for an engine that can't take games
 * ahead (in process, or a transcript). */
zo_diff_status zo_diff_run_ahead(zo_diff_engine *x, const uint8_t *data, size_t size,
                                 const uint8_t *const *next, const size_t *next_size, int nnext,
                                 zo_diff_result *out);

/* zo_diff_engine_init and zo_diff_run in one call (replay, tests). */
zo_diff_status zo_diff_input(zo_engine *e, const uint8_t *data, size_t size, int batch,
                             zo_diff_result *out);

/* A finding as a game: the decoded case (owned), the difference it shows,
 * and what the oracle answered to each step (for the printed case). */
typedef struct {
  zo_fuzz game;                         /* owned: zo_diff_finding_free */
  zo_diff_result r;
  zo_outcome outcomes[ZO_FUZZ_MAX_STEPS];
  zo_step_error errors[ZO_FUZZ_MAX_STEPS];
  int trials;                           /* games played while minimizing */
  int cut_short;                        /* minimizing stopped at its time limit */
  double deadline;                      /* monotonic seconds, 0 none (zo_diff_minimize) */
} zo_diff_finding;

/* Decode input data (as zo_diff_run did, in res->prof) into fd, cut after
 * the step res describes. res is copied. */
void zo_diff_finding_init(zo_diff_finding *fd, const uint8_t *data, size_t size,
                          const zo_diff_result *res);

/* Minimize fd in place against x's engine until nothing more can be
 * removed: drop a setup card and the steps acting on it, drop a step (and
 * the steps depending on it), set an optional field of a step or a card to
 * its default; a change is kept when the game still shows the same
 * difference (same property, same object by name; the oracle plays each
 * candidate again for the expectations). fd->r is updated; fd->trials
 * counts the games played. seconds > 0 bounds the time it takes (against
 * a slow engine): fd->cut_short says it stopped there. */
void zo_diff_minimize(zo_diff_engine *x, zo_diff_finding *fd, double seconds);

/* Print fd as a YAML case (id, note for its title and source): the game up
 * to the step that differs, each step expecting the oracle's outcome, that
 * step also expecting the oracle's value of the property that differed,
 * and a final expect of every object's zone. lines (may be NULL;
 * ZO_FUZZ_MAX_STEPS + 1 entries) receives each step's line in the file.
 * The case passes on the oracle and fails on the engine. Returns 0, or -1
 * on a write error (or when the oracle refuses the game's setup). */
int zo_diff_finding_print(zo_diff_finding *fd, const char *id, const char *note, int *lines,
                          FILE *out);

void zo_diff_finding_free(zo_diff_finding *fd);

/* The rule a finding cites: the rule of f's rule set behind the property
 * that differed in r, as the rule set's data cites it (its switches and
 * zone attributes): a zone or an outcome by the step's kind (where a
 * moved object goes: CR 400.3, FaB 3.0.11; a state check: the token
 * rule...), a position by the ordered zone (CR 400.5, 405.3 on the
 * stack), visibility by the zone's (CR 400.2), a controller (CR 110.2,
 * FaB 1.2.1b), a face (CR 708), phasing (CR 702.26), a trigger or a
 * reference (CR 400.7e, 400.7j), identity, marks and anything else by
 * the rule set's identity rule (CR 400.7, FaB 3.0.9). A number the rule
 * set does not list is never cited. f->g is the oracle's game after
 * r->step. Storage of the rule set. */
const char *zo_diff_rule(const zo_fuzz *f, const zo_diff_result *r);

/* Print a differing input as a YAML case (zo_diff_finding_print of the
 * input decoded in res->prof, cut at res->step, not minimized), its note
 * naming the difference. Returns 0, or -1 on a write error. */
int zo_diff_print_yaml(const uint8_t *data, size_t size, const zo_diff_result *res,
                       const char *id, FILE *out);

#endif
