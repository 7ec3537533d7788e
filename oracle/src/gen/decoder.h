/* decoder.h: any byte string -> a valid game and a sequence of steps.
 *
 * Structure-aware by construction: leading bytes choose the rule set, the
 * players and the objects (kind, owner, zone, types); every later byte group
 * is one step of the case language whose card, zone and name indices are
 * taken modulo what exists at that moment, so no input is rejected and a
 * mutation changes the game rather than breaking it. No rand(), no time():
 * the same bytes always give the same game (the `deterministic` invariant).
 *
 * The byte layout is documented in fuzz/README.md; zo_fuzz_encode is its
 * inverse for a loaded case (seed corpora from the suite).
 */
#ifndef ZO_FUZZ_DECODER_H
#define ZO_FUZZ_DECODER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"

#define ZO_FUZZ_MAX_STEPS 48

#define ZO_FUZZ_MAX_CARDS 12
#define ZO_FUZZ_RESERVE 4

/* A decoded game in progress. Owns its game and step storage; the case
 * lives inside it and points at static names (no per-input copies). */
typedef struct zo_fuzz {
  zo_case kase;
  char *handles[ZO_FUZZ_MAX_CARDS + ZO_FUZZ_RESERVE];
  char *ztypes[ZO_MAX_ZONE_TYPES];
  char *rs_name[1], *rule[1];
  zo_card_setup cards[ZO_FUZZ_MAX_CARDS];
  zo_step steps[ZO_FUZZ_MAX_STEPS];
  const uint8_t *data;
  size_t size, at;        /* read cursor */
  zo_case *c;             /* the case being built (steps appended as decoded) */
  zo_game *g;             /* the game the steps run on */
  const zo_ruleset *rs;
  int created;            /* reserved handles used by create */
  int watches, refs, repls, marks;
} zo_fuzz;

/* Decode the starting position from data (never fails: an impossible
 * placement falls back to a zone that can always hold the object). The
 * bytes are borrowed until zo_fuzz_free. */
void zo_fuzz_start(zo_fuzz *f, const uint8_t *data, size_t size);

/* Decode the next step into f->c->steps (appended) and return it, or NULL
 * when the input is used up or ZO_FUZZ_MAX_STEPS is reached. The caller
 * applies it with zo_game_apply. */
const zo_step *zo_fuzz_next(zo_fuzz *f);

void zo_fuzz_free(zo_fuzz *f);

/* Print the decoded case as YAML (rule set, setup, steps; each step with the
 * outcome the oracle gave, and a final expect of every object's zone).
 * `outcomes` holds one outcome per step (may be NULL); `note` becomes the
 * case's source line. Returns 0, or -1 on a write error. */
int zo_fuzz_print_yaml(const zo_fuzz *f, const zo_outcome *outcomes,
                       const zo_step_error *errors, const char *id,
                       const char *rule, const char *note, FILE *out);

/* Print one decoded step in the case language (one line, no newline). */
void zo_fuzz_print_step(const zo_fuzz *f, const zo_step *s, FILE *out);

/* Encode a loaded case (under rule set index rs_index) as decoder input:
 * the inverse of the decoder for the steps it can express; others are
 * skipped. Returns a malloc'd buffer (caller frees) and its size. */
uint8_t *zo_fuzz_encode(const zo_case *c, int rs_index, size_t *size);

/* Replay fuzz_moves input data (size bytes) on the oracle and print it to
 * out as a YAML case named id: every step with the outcome the oracle
 * gave, the invariants (fuzz/INVARIANTS.md) checked after each step as
 * fuzz_moves checks them. Returns 1 when an invariant broke (the case stops
 * at that step and note, cap bytes, says which and where), else 0 (note
 * says so too). */
int zo_gen_replay_moves(const uint8_t *data, size_t size, const char *id, FILE *out,
                        char *note, size_t cap);

#endif
