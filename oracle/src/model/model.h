/* model.h: the reference model's interface for the layers above it
 * (engines, run, gen): build a game from a case and a rule set, apply steps,
 * observe. zo_game is opaque here; its state is model_int.h's. A game
 * borrows its case and rule set: both must outlive it. */
#ifndef ZO_MODEL_H
#define ZO_MODEL_H

#include "observation.h"

#define ZO_ZONE_OUTSIDE (-2) /* outside the game (CR 400.10): not a zone */

/* Like zo_game_new, but a starting card the rule set forbids is moved to a
 * zone that always holds its kind (graveyard, battlefield/arena, stack) and
 * the case's card is changed to say so: the fuzz decoder's set-up, where no
 * input may be rejected. Only position errors can still fail. */
zo_status zo_game_new_lenient(const zo_ruleset *rs, zo_case *c, zo_game **out);

/* Apply one step; r is zeroed first and owned by the caller
 * (zo_step_result_free). Never fails: a step the rule set does not allow
 * has an outcome (rejected, failed...). */
void zo_game_apply(zo_game *g, const zo_step *s, zo_step_result *r);
/* Like zo_game_apply, but r's events buffer from an earlier call is reused
 * (the fuzzers' inner loop: no allocation per step). */
void zo_game_apply_again(zo_game *g, const zo_step *s, zo_step_result *r);
/* Apply s to object obj (a then:/do: step), or to its own card when -1. */
void zo_game_apply_to(zo_game *g, const zo_step *s, int obj, zo_step_result *r);
/* Fill an observation (caller frees with zo_observation_free). */
void zo_game_observe(const zo_game *g, zo_observation *ob);
/* Full observed name of a zone instance ("alice.weapon.2", "outside"). */
void zo_game_zone_name(const zo_game *g, int zone, char *buf, size_t cap);
int zo_game_obj_public(const zo_game *g, int obj);
int zo_game_sees(const zo_game *g, int player, int obj);
void zo_game_shuffle_zone(zo_game *g, int zone, uint64_t seed);
/* A move's shuffle: {shuffle: [order]}: zone put in s's order (top first)
 * when it names every object of the zone once; 1 then, else 0 and the
 * zone stays as the move left it (PROTOCOL.md, Choices). */
int zo_game_order_zone(zo_game *g, int zone, const zo_step *s);
int zo_game_add_zone(zo_game *g, int type, int player, int index);
/* Rule hits so far, indexed like the rule set's rules (owned by g). */
const int *zo_game_hits(const zo_game *g);
/* The protocol features (bits 1 << zo_feature) whose meaning the steps
 * applied so far relied on beyond what their options show: a member of a
 * move_together that did not move while others arrived in the ordered
 * zone it is in, or arrivals on the stack the rule set sorted by
 * controller (together_order: CR 400.5, 401.4, 405.3); a mark the rules
 * refused (marks.refused: 400.11c, 702.26b); a token created under another
 * player's control made theirs (created_owner: 111.2). The runner adds
 * them to what
 * a case's steps need (PROTOCOL.md, Features), so that an engine that
 * never declared them is never judged on them. Reads only. */
uint64_t zo_game_features_used(const zo_game *g);
 
/* ---- reading a game (query.c) ---- */

/* The case g plays (borrowed: it outlives g). */
const zo_case *zo_game_case(const zo_game *g);
/* Whether handle h names an object that exists now (0 for a handle out of
 * range); its zone instance (ZO_ZONE_OUTSIDE, -1 none or out of range); its
 * identity (0 before it was ever created). */
int zo_game_obj_exists(const zo_game *g, int h);
int zo_game_obj_zone(const zo_game *g, int h);
/* The (k mod L)-th of the L handles below n whose objects exist now, or -1
 * when none does: the generator's pick of an object to act on, in one
 * call (it runs for most generated steps). */
int zo_game_live_handle(const zo_game *g, int n, unsigned k);
uint64_t zo_game_obj_identity(const zo_game *g, int h);
/* The first existing instance of case zone type `type` that belongs to
 * `player` or is shared, or -1. */
int zo_game_zone_find(const zo_game *g, int type, int player);
/* The objects listed in zone instance `zone`, top first: their count, and
 * *objs pointed at g's storage (valid until the next step), or 0 and NULL
 * for a zone that doesn't exist. */
int zo_game_zone_contents(const zo_game *g, int zone, const int **objs);

#endif
