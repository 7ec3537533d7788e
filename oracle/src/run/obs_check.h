/* obs_check.h: fuzz/INVARIANTS.md decided from what an engine shows (internal).
 *
 * zo_game_check (model/check.c) checks the oracle's own state; an engine under
 * test is seen only through its observations (model.h zo_observation) and
 * its step results (zo_step_result: outcome and per-object events). This
 * checker decides every invariant that those, the case (each handle's kind
 * and types, the steps) and the rule set (zone types and switches) allow,
 * after the setup and after every step of one case, keeping what it needs
 * across steps (identities seen, the previous observation, what each
 * reference remembered, the number of cards).
 *
 * Checked (ids of fuzz/INVARIANTS.md):
 *   in-a-zone        an existing object names a zone the rule set has (or,
 *                    only for a card, "outside"); CR 400.1, 400.10; FaB 3.0.7
 *   one-zone         no object identity is shown on two existing handles
 *                    (the same object in two places); FaB 3.0.1a
 *   tokens-in-arena  at rest, a token is in an arena zone, or (FaB) a
 *                    sub-card; CR 111.7, 704.5d; FaB 8.1.8a, 3.0.12a
 *   copies-on-stack  an ability is always on the stack; at rest, where the
 *                    rule set makes copies cease off the stack, a copy is on
 *                    the stack or battlefield; CR 704.5e; Z.9.6
 *   cards-conserved  the number of existing cards (handles of kind card,
 *                    outside the game included) is that of the setup
 *   owner-zones      an owner-only per-player zone holds only its player's
 *                    objects (until an end_game step: ante); CR 400.3
 *   capacity         no zone instance lists more objects than its capacity;
 *                    FaB 3.2.2-3.16.2
 *   can-hold         what a zone holds (holds: deck-cards, cards,
 *                    permanents, hero, equip, no instants) against the
 *                    object's kind and types; CR 400.4a; FaB 3.0.11
 *   fresh-ids        an identity that left its handle (the object became
 *                    new or ceased) never shows again, on any handle; CR 400.7
 *   identity-rule    an identity changes, or an object starts or stops
 *                    existing, only with a step event for its handle saying
 *                    so; and where one event says how it moved, the identity
 *                    changes exactly as the rule set's new_object switch
 *                    says (every move, CR 400.7; FaB 3.0.9: leaving the
 *                    arena and stack, or public to private); CR 400.7, 400.8
 *   stale-refs       a reference finds only the object its remember step
 *                    saw (same handle, same identity); CR 400.7d; Z.1.Ruling.3
 *   wrong-owner      nothing is redirected into a zone whose type's
 *                    wrong_owner: refuses another player's (issue 31)
 *   follows-control  an object whose controller the step changed is in its
 *                    controller's zone where its zone type follows control
 *                    (follows_control:, issue 31)
 *   stack-layers     the positions of an ordered zone are 0..N-1 with no
 *                    gap or repeat; on a layered stack, layer = N - position
 *                    (1 = bottom); FaB 3.15.4-6; CR 400.5
 *   no-controller    an object outside the zones with controllers (Magic:
 *                    battlefield and stack), a sub-card, or outside the game
 *                    has no controller; CR 109.4; FaB 1.2.1b
 *   sub-cards        a sub-card's top-card exists, is no sub-card itself and
 *                    is in the same zone, the sub-card has no position, and
 *                    the rule set has sub-cards; FaB 3.0.14
 *   deck-hidden      no object in a library/deck is public or seen by any
 *                    player, but for what an accepted look (that player)
 *                    or reveal (everyone) step shows while the object is
 *                    the identity in the zone it was (issue 12); CR 401.2;
 *                    Z.6.2; FaB 3.7.4; CR 701.20a, 400.7
 *   order-kept       in an ordered zone, the objects a step has no event for
 *                    keep their relative order (not after reorder, shuffle,
 *                    a move with shuffle, or, in a case with a shuffling
 *                    replacement, a step with events); CR 400.5; Z.3.4
 *
 * Not decidable from observations (left to zo_game_check on the oracle):
 *   - one-zone for a FaB 2H weapon equipped to two weapon zones (8.2.2,
 *     8.2.15): an observation names one zone per object, so the second
 *     zone it occupies is invisible (capacity is checked on what is listed,
 *     a lower bound);
 *   - in-a-zone for a zone that ceased (zone_remove, FaB 3.0.10b): which
 *     instance ceased is the engine's choice (3.0.10c), so an observation
 *     can't tell a ceased zone from a live one with the same name;
 *   - identity-rule where a step has several events for one object (a
 *     `then:` chain), for phasing (the object stays the same, Z.7.2) and
 *     for a FaB move from outside the game: only the first half (a change
 *     needs an event) is checked there;
 *   - deterministic: a property of two runs, not of one observation.
 */
#ifndef ZO_OBS_CHECK_H
#define ZO_OBS_CHECK_H

#include "model.h"

/* The first invariant an observation breaks. Strings are static storage;
 * the struct is plain storage owned by the caller. */
typedef struct zo_obs_violation {
  const char *invariant; /* fuzz/INVARIANTS.md id, e.g. "tokens-in-arena" */
  const char *rule;      /* the rule(s) it comes from, e.g. "CR 704.5d; FaB 8.1.8a" */
  int handle;            /* the object's case handle; -1 for a count (cards-conserved) */
  char detail[256];      /* one line for people: "handle: what is wrong, where" */
} zo_obs_violation;

/* What one case under one rule set needs across its steps. */
typedef struct zo_obs_checker zo_obs_checker;

/* A checker for case c under rule set rs (both borrowed: they must outlive
 * the checker). Start it before the case's setup is observed. Never fails
 * (aborts on memory exhaustion, like the rest of the library). Free with
 * zo_obs_checker_free. */
zo_obs_checker *zo_obs_checker_new(const zo_ruleset *rs, const zo_case *c);
void zo_obs_checker_free(zo_obs_checker *k);

/* Check observation ob of an engine running k's case: after the setup
 * (s = NULL, r = NULL), then after each step s in order, with the step's
 * result r as the engine answered it. The invariants above (fuzz/INVARIANTS.md)
 * are checked; "at rest" is after a state_check step (Magic, CR 704) and
 * always in a rule set whose tokens leave at once (FaB 8.1.8a). Returns 0
 * when ob is sound and remembers it for the next call; returns 1 and fills
 * v (when not NULL) with the first violation, leaving k as it was after
 * the last sound observation. ob and r are borrowed for the call only.
 * Cost: linear in the handles and the step's events (identities and zone
 * names through hash maps, each zone's members from one grouping pass),
 * plus O(m log m) for a zone of m objects whose positions are out of order. */
int zo_observation_check(zo_obs_checker *k, const zo_step *s, const zo_step_result *r,
                         const zo_observation *ob, zo_obs_violation *v);

#endif
