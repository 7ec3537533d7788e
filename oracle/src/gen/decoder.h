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
#include "obs_diff.h" /* zo_obs_difference, for zo_fuzz_print_yaml_ex */

#define ZO_FUZZ_MAX_STEPS 48

#define ZO_FUZZ_MAX_CARDS 12
#define ZO_FUZZ_RESERVE 4
#define ZO_FUZZ_MAX_RULESETS 64
#define ZO_FUZZ_MAX_OPS 64

/* What the decoder may choose from: the rule sets and protocol features an
 * engine declares (gate --fuzz, fuzz_diff), so that every game it makes is
 * one the engine can play. Filled by zo_fuzz_profile_all or
 * zo_fuzz_profile_make; plain data, no ownership. */
typedef struct zo_fuzz_profile {
  int nrulesets;                         /* >= 1 */
  int rulesets[ZO_FUZZ_MAX_RULESETS];    /* registry indices (zo_ruleset_at), in order */
  uint64_t features;                     /* bit 1 << FT_x: the feature may be used */
  /* what the engine's game holds (hello's capabilities, zcp/2): */
  int nplayer_counts;                    /* >= 1 */
  uint8_t player_counts[3];              /* numbers of players a game may have (2-4) */
  uint32_t zones[ZO_FUZZ_MAX_RULESETS];  /* per entry of rulesets: bit z, the rule set's
                                            zone type z may be used */
  uint32_t face_down[ZO_FUZZ_MAX_RULESETS]; /* likewise: zone type z may hold
                                            objects face down */
  int outside;                           /* objects may be outside the game */
  unsigned kinds;                        /* bit zo_kind: a kind of object that may be made */
  int nops;                              /* opcodes whose steps fit (>= 1: move needs none) */
  uint8_t ops[ZO_FUZZ_MAX_OPS];
  int all;                               /* every rule set and feature: decodes as ever */
} zo_fuzz_profile;

/* The profile of everything (fuzz_moves, replay): the byte layout of
 * fuzz/README.md unchanged. */
void zo_fuzz_profile_all(zo_fuzz_profile *p);

/* The profile of an engine: has(self, name, 1) says whether it declares a
 * rule set (engine.h's `has`; NULL: every one), `features` the features it
 * declares (bits 1 << FT_x, parts by its protocol version included:
 * zo_features_declared), cap what its game holds (NULL: anything). With no
 * declared rule set the profile keeps every one (the caller skips the
 * games); with no player count the decoder can make (2-4), every count.
 * cap is read during the call only. */
void zo_fuzz_profile_make(zo_fuzz_profile *p, int (*has)(void *self, const char *what, int ruleset),
                          void *self, uint64_t features, const zo_capabilities *cap);

/* Keep only rule set `id` in profile p (gate --fuzz --ruleset ID). 0, or
 * -1 when p has no such rule set (the engine does not declare it), p
 * unchanged. */
int zo_fuzz_profile_only(zo_fuzz_profile *p, const char *id);
/* The features (bits 1 << FT_x) step s needs, its then:/do: step,
 * move_together's moves and a cast's costs included (a face: down anywhere
 * needs face_down). */
uint64_t zo_fuzz_step_features(const zo_step *s);

/* A decoded game in progress. Owns its game and step storage; the case
 * lives inside it and points at static names (no per-input copies) except
 * for the JSON text zo_fuzz_jsonify adds (owned, freed by zo_fuzz_free). */
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
  const zo_fuzz_profile *prof; /* borrowed; never NULL after zo_fuzz_start */
  int prof_rs;            /* the rule set's entry in prof->rulesets (and zones) */
  int given;              /* steps returned by zo_fuzz_next so far (<= c->nsteps) */
} zo_fuzz;

/* Decode the starting position from data (never fails: an impossible
 * placement falls back to a zone that can always hold the object). The
 * bytes are borrowed until zo_fuzz_free. Every rule set and feature. */
void zo_fuzz_start(zo_fuzz *f, const uint8_t *data, size_t size);

/* zo_fuzz_start within profile p (borrowed until zo_fuzz_free): the rule
 * set byte chooses among p's rule sets, each opcode byte among the
 * opcodes whose steps need only p's features, a face-down card or step
 * only with face_down; a step that still needs more is dropped (its bytes
 * are used up). With zo_fuzz_profile_all it decodes as zo_fuzz_start. */
void zo_fuzz_start_in(zo_fuzz *f, const zo_fuzz_profile *p, const uint8_t *data, size_t size);

/* Decode the next step into f->c->steps (appended) and return it, or NULL
 * when the input is used up or ZO_FUZZ_MAX_STEPS is reached. The caller
 * applies it with zo_game_apply before asking for the next. A sequence
 * opcode (watch, move, resolve on one object; a replacement, then a move
 * it applies to) decodes several steps at once, planned on the state
 * before the first; the later ones are returned by the next calls
 * without reading bytes. */
const zo_step *zo_fuzz_next(zo_fuzz *f);

/* Free what f owns (its game, the steps' lists and JSON text); f may be
 * started again. */
void zo_fuzz_free(zo_fuzz *f);
/* Whether f's game, as set up, fits its profile's capabilities: every
 * setup card in a zone the profile allows (a card the rule set forbids
 * where the decoder put it falls back to a zone that may not be). */
int zo_fuzz_setup_fits(const zo_fuzz *f);
/* Keep only steps [0, n) of f's case and decode no more (f->g has played
 * what it played: the caller stops applying steps). For a game whose step
 * n relied on a feature the profile lacks (zo_game_features_used). */
void zo_fuzz_truncate(zo_fuzz *f, int n);

/* dst := a copy of src's case (cards, steps, names, deep), without a game
 * (dst->g NULL: zo_fuzz_replay makes one) and without input bytes. dst
 * owns its copy (zo_fuzz_free). */
void zo_fuzz_copy(zo_fuzz *dst, const zo_fuzz *src);

/* Play f's case from the start on a new game (f->g replaced; strict
 * placement, as a loaded case is placed): the outcome and error of each
 * step into outcomes/errors (may be NULL; ZO_FUZZ_MAX_STEPS entries).
 * ZO_OK, or the game's setup error (err may be NULL). */
zo_status zo_fuzz_replay(zo_fuzz *f, zo_outcome *outcomes, zo_step_error *errors, zo_error *err);

/* Give f's case the JSON text an engine is sent (zcp/1 setup cards and
 * each step, as a loaded case carries them: c->cards_json, steps[i].json),
 * written by the same printer as the YAML case, so what an engine plays
 * and what a finding's case says agree. start (may be NULL): the oracle's
 * observation of the setup, whose positions in ordered zones the cards
 * then carry, as the runner would add them to a loaded case's
 * (PROTOCOL.md 7.2: positions always given; c->cards_json_placed).
 * Replaces text set before. */
void zo_fuzz_jsonify(zo_fuzz *f, const zo_observation *start);

/* Shrinking a decoded game (shrink.c), for minimizing a finding. Each
 * keeps the case consistent and returns 1 when it changed something, 0
 * when there was nothing to remove; f->g is stale afterwards
 * (zo_fuzz_replay). */
/* Drop setup card `card` (0-based), every step acting on it, and renumber
 * the handles after it. */
int zo_fuzz_drop_card(zo_fuzz *f, int card);
/* Drop step i (0-based) and the steps that depend on it (a resolve of its
 * watch, uses of the token it creates...). */
int zo_fuzz_drop_step(zo_fuzz *f, int i);
/* Set the k-th optional field of step i (0-based; a then:/do:, a face,
 * a position, a cause, a member of move_together...) back to its default.
 * 0 when step i has fewer than k+1 fields that are not at their default. */
int zo_fuzz_drop_field(zo_fuzz *f, int i, int k);
/* The same for setup card `card` (0-based): its types, its face down. */
int zo_fuzz_drop_card_field(zo_fuzz *f, int card, int k);

/* Print the decoded case as YAML (rule set, setup, steps; each step with the
 * outcome the oracle gave, and a final expect of every object's zone).
 * `outcomes` holds one outcome per step (may be NULL); `note` becomes the
 * case's source line. Returns 0, or -1 on a write error. */
int zo_fuzz_print_yaml(const zo_fuzz *f, const zo_outcome *outcomes,
                       const zo_step_error *errors, const char *id,
                       const char *rule, const char *note, FILE *out);

/* zo_fuzz_print_yaml with one more expectation: d's
 * reference value at step dstep (1-based; 0 = the final expect). d may be
 * NULL; lines, when not NULL (ZO_FUZZ_MAX_STEPS + 1 entries), receives
 * each step's line in the printed case (diff.h, zo_diff_finding_print). f->g must be the game after
 * the last step. Returns 0, or -1 on a write error. */
int zo_fuzz_print_yaml_ex(const zo_fuzz *f, const zo_outcome *outcomes,
                          const zo_step_error *errors, const char *id, const char *rule,
                          const char *note, const zo_obs_difference *d, int dstep,
                          int *lines, FILE *out);

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
