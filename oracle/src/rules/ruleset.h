/* ruleset.h: rule sets (internal): the zone types of one game and era,
 * its policy switches, each value citing its rule, and the type words that
 * objects carry as bits. The rules layer knows no case and no game; cases
 * (case/case.h) and the model (model/) are built over it.
 *
 *   base/   util, ydoc (YAML events), errors  <- no domain knowledge
 *   rules/  rule set files -> zo_ruleset       <- this header
 *   case/   case files -> zo_case (parse only)
 *   model/  zo_ruleset + zo_case -> zo_game (the reference model)
 *   engines/ the oracle, zcp/1 processes and plug-ins, the zcp/1 server
 *   run/    cases x rule sets x engine -> results; invariants; mutants
 *   report/ results -> run record, JUnit, Markdown, HTML, badge
 *   gen/    fuzz inputs -> games; differential runs
 */
#ifndef ZO_RULESET_H
#define ZO_RULESET_H

#include <stdint.h>

#include "zo.h"

#define ZO_MAX_PLAYERS 8
#define ZO_NAME 32
/* The longest observed zone name, in bytes: PLAYER.TYPE or PLAYER.TYPE.N
 * ("alice.weapon.2"). An observation holds it in place (zo_obj_obs), so a
 * case whose player names would make a longer one is refused at load. */
#define ZO_ZONE_NAME_MAX 47
/* Digits kept for a zone instance's index in that check (zone_create
 * numbers instances from 1 up). */
#define ZO_ZONE_INDEX_DIGITS 5

/* ------------------------------------------------------------------ */
/* Rule sets                                                           */

/* An enum's member from a table row whose first column is its id. */
#define ZO_ROW_ID(id, ...) id,

/* ZO_ZONE_ROLES(X): X(id, name): what a zone type is for (`role:`); the
 * model looks zones up by role. */
#define ZO_ZONE_ROLES(X)                                                               \
  X(ZR_NONE, "none")                                                                   \
  X(ZR_LIBRARY, "library") /* draw / mill source: MTG library, FaB deck */             \
  X(ZR_HAND, "hand")                                                                   \
  X(ZR_GRAVEYARD, "graveyard") /* where a clear sends a card (FaB 3.0.12) */           \
  X(ZR_BATTLEFIELD, "battlefield") /* MTG battlefield / in play; FaB permanent zone */ \
  X(ZR_STACK, "stack")                                                                 \
  X(ZR_EXILE, "exile")                                                                 \
  X(ZR_COMMAND, "command")                                                             \
  X(ZR_ANTE, "ante")                                                                   \
  X(ZR_OTHER, "other")                                                                 \
  X(ZR_PHASED_OUT, "phased_out") /* where phasing puts permanents in old rule sets */

typedef enum { ZO_ZONE_ROLES(ZO_ROW_ID) ZR_COUNT } zo_zone_role;

/* ZO_HOLDS(X): X(id, name): what a zone may hold beyond owner and capacity
 * (`holds:`), one bit each: id = 1 << its row. */
#define ZO_HOLDS(X)                                                          \
  X(ZH_DECK_CARDS, "deck_cards") /* FaB deck-cards only (1.3.2c) */          \
  X(ZH_CARDS, "cards")           /* cards only (no macro, no ability) */     \
  X(ZH_PERMANENTS, "permanents") /* FaB permanents only (1.3.3, 3.13.2) */   \
  X(ZH_PROXIES, "proxies")       /* also attack-proxies (3.6.2) */           \
  X(ZH_HERO, "hero")             /* one hero card (3.11.2) */                \
  X(ZH_EQUIP, "equip")           /* equipment / weapon zone: subtype test */ \
  X(ZH_NO_INSTANTS, "no_instants") /* MTG 400.4a: instants/sorceries stay */

#define ZO_HOLDS_INDEX(id, name) id##_INDEX,
enum { ZO_HOLDS(ZO_HOLDS_INDEX) ZH_COUNT };
#undef ZO_HOLDS_INDEX
#define ZO_HOLDS_BIT(id, name) id = 1u << id##_INDEX,
enum { ZO_HOLDS(ZO_HOLDS_BIT) };
#undef ZO_HOLDS_BIT
/* Set in holds.value by the attribute `holds_types:` (not a word of
 * `holds:`): the zone holds only objects with one of its type words
 * (zo_zone_type.only_types), any game's "holds only these types". */
#define ZH_TYPES (1u << ZH_COUNT)

/* ZO_MARK_KINDS(X): X(id, name): what a `mark` step attaches (cases/README.md,
 * mark), and what a zone type's `clears:` names (issue 31). Here, below the
 * case layer, so that a rule set file can name them. */
#define ZO_MARK_KINDS(X)                 \
  X(MK_COUNTER, "counter")               \
  X(MK_EFFECT, "effect")                 \
  X(MK_CHARACTERISTIC, "characteristic") \
  X(MK_PREVENTION, "prevention")         \
  X(MK_STICKER, "sticker")               \
  X(MK_PERMISSION, "permission")         \
  X(MK_SPELL_INFO, "spell_info")

/* A cited value: every zone attribute and switch carries its rule. */
typedef struct {
  int value;
  int rules[6]; /* indices into zo_ruleset.rules */
  int nrules;   /* 0 = unspecified (the text is silent) */
  int slot;     /* this citation's hit counter in a game (zo_ruleset.nslots) */
} zo_cited;

/* How a cited zone attribute's value is written (RULESETS.md, Zones). */
typedef enum {
  AV_BOOL,       /* true or false */
  AV_INT,        /* a whole number 0..64 */
  AV_VISIBILITY, /* public, hidden or private: the value is 1 for public */
  AV_HOLDS,      /* a list of holds words: ZH_* bits */
  AV_EQUIP,      /* a list of type words: equip_types */
  AV_KEEPS,      /* a list of type words: keep_types; the value is whether any */
  AV_TYPES,      /* a list of type words: only_types; the value is whether any */
  AV_LIMITS,     /* a list of {types, count, among} maps: limit[]; the value
                    is how many (issue 31) */
  AV_ZONE,       /* a zone type of the rule set, by name: the value is its
                    index + 1, 0 for none (issue 31) */
  AV_INSTEAD,    /* a list of {types, from, to, face} maps: inst[]; the
                    value is how many (issue 31) */
  AV_GROUP,      /* a word naming a group of zone types: group_name; the
                    value is 1 + the first zone type of the group, 0 none */
  AV_MARKS,      /* a list of mark kinds (ZO_MARK_KINDS): the value has a
                    bit per kind, by its row (issue 31) */
  AV_WRONG_OWNER, /* redirect or cannot_hold (a value of the switch
                    wrong_owner): the value is ZS_REDIRECT or
                    ZS_CANNOT_HOLD, 0 (null) for the switch's (issue 31) */
  AV_FOLLOW,     /* a zone type of the rule set, by name, or null: the
                    value is its index + 1, 0 for none (follows_control,
                    issue 31) */
  AV_AT_INDEX,   /* a list of {types, index} maps: at[]; the value is how
                    many (issue 31) */
  AV_FACE_UP,    /* a list of type words: face_up_types; the value is
                    whether any (issue 31) */
  AV_SEATS       /* a list of seats 1..8: seat_bits; the value is whether
                    any (issue 31) */
} zo_attr_value;

/* ZO_ZONE_ATTRS(X): X(id, field, key, value, mutant): every cited attribute
 * of a zone type (zo_zone_type.field, written `key:` in a rule set file, its
 * value read as `value`), in the order "expected one of" lists the keys
 * after `role` (which cites no rule) and citations are numbered
 * (zo_cited.slot). mutant: 0 when `zoneoracle mutants` never flips it,
 * else its place in each zone's list of mutants (the value is flipped to
 * 0 or 1: issue 31's limits, displace, instead and group are turned off;
 * wrong_owner, whose values are words, is set to the other word). */
#define ZO_ZONE_ATTRS(X)                                                              \
  X(ZA_PER_PLAYER, per_player, "per_player", AV_BOOL, 0) /* each player has one */    \
  X(ZA_ZONE_COUNT, count, "count", AV_INT, 0)        /* per player (FaB weapon: 2) */ \
  X(ZA_VISIBILITY, pub, "visibility", AV_VISIBILITY, 1) /* default public */          \
  X(ZA_ORDERED, ordered, "ordered", AV_BOOL, 2)                                       \
  X(ZA_ARENA, arena, "arena", AV_BOOL, 3) /* battlefield / in play / FaB arena */     \
  X(ZA_CONTROLLER, controller, "controller", AV_BOOL, 4) /* objects have one */       \
  X(ZA_CAPACITY, capacity, "capacity", AV_INT, 9) /* 0 = unlimited */                 \
  X(ZA_OWNER_ONLY, owner_only, "owner_only", AV_BOOL, 5) /* its owner's only */       \
  X(ZA_HOLDS, holds, "holds", AV_HOLDS, 0)                                            \
  X(ZA_EQUIP, equip, "equip", AV_EQUIP, 0)                                            \
  X(ZA_REORDER, reorder, "reorder", AV_BOOL, 6) /* owner may rearrange */             \
  X(ZA_SAME_ZONE_NEW, same_zone_new, "same_zone_new", AV_BOOL, 7) /* 400.8 */         \
  X(ZA_KEEPS, keeps, "keeps", AV_KEEPS, 0) /* 400.4b: some cards can't leave */       \
  X(ZA_FACE_DOWN_NEW, face_down_new, "face_down_new", AV_BOOL, 8) /* 400.9 */         \
  X(ZA_EFFECT_REORDER, effect_reorder, "effect_reorder", AV_BOOL, 10) /* 400.5 */       \
  /* issue 12, G3: who performs a step */                                             \
  X(ZA_OWNER_PUTS, owner_puts, "owner_puts", AV_BOOL, 11) /* 217.9d, 407.4: ante */   \
  X(ZA_PUTTER_ORDERS, putter_orders, "putter_orders", AV_BOOL, 12) /* 217.2.Ruling.1 */ \
  /* issue 31: "holds only these types", in any game */                               \
  X(ZA_HOLDS_TYPES, holds_types, "holds_types", AV_TYPES, 0)                        \
  /* issue 31: other card games' zones: a limit per kind of card in a zone or \
     among what is attached to one object (one Pokemon Tool per Pokemon);     \
     a move into a full zone displacing the object there (a new Stadium)   */ \
  X(ZA_LIMITS, limits, "limits", AV_LIMITS, 13)                                        \
  X(ZA_DISPLACE, displace, "displace", AV_ZONE, 14)                                    \
  /* issue 31: the game's own replacements of a move into this zone (a     \
     Pendulum monster bound for the Graveyard from the field goes face up   \
     to the Extra Deck) */                                                  \
  X(ZA_INSTEAD, instead, "instead", AV_INSTEAD, 15)                                    \
  /* issue 31: zone types that count as one zone for "new object" (a        \
     duel game's monster zones, positions of one zone) */                    \
  X(ZA_GROUP, group, "group", AV_GROUP, 16)                                            \
  /* issue 31: marks an object loses as it arrives in a zone of this type   \
     while staying the same object (a Pokemon going to the Bench recovers   \
     from its Special Conditions) */                                        \
  X(ZA_CLEARS, clears, "clears", AV_MARKS, 17)                                          \
  /* issue 31: a zone zone_create made ceases once its last object has left \
     (an Android: Netrunner remote server) */                                \
  X(ZA_CEASES_EMPTY, ceases_empty, "ceases_empty", AV_BOOL, 18)                      \
  /* issue 31: the switch wrong_owner for one zone type (a Pokemon sent to  \
     the opponent's Bench is refused, not redirected) */                     \
  X(ZA_WRONG_OWNER, wrong_owner, "wrong_owner", AV_WRONG_OWNER, 19)                   \
  /* issue 31: an object that changes controller here moves to the new      \
     controller's zone of this type (a Yu-Gi-Oh! monster taken over) */      \
  X(ZA_FOLLOWS_CONTROL, follows_control, "follows_control", AV_FOLLOW, 20)            \
  /* issue 31: kinds of card that only some zones of the type, by index,    \
     hold (Yu-Gi-Oh! Pendulum Zones: Spell & Trap Zones 1 and 5) */          \
  X(ZA_AT_INDEX, at_index, "at_index", AV_AT_INDEX, 21)                               \
  /* issue 31: kinds of card that are never face down in the zone (a       \
     Yu-Gi-Oh! Token can't be Set) */                                        \
  X(ZA_FACE_UP_ONLY, face_up_only, "face_up_only", AV_FACE_UP, 22)                    \
  /* issue 31: a zone type only some players have, by seat (Netrunner's    \
     Corp has HQ, R&D, Archives; the Runner a grip, stack, heap) */         \
  X(ZA_SEATS, seats, "seats", AV_SEATS, 23)

/* The cited zone attributes (ZO_ZONE_ATTRS). */
typedef enum { ZO_ZONE_ATTRS(ZO_ROW_ID) ZA_COUNT } zo_zone_attr;

/* The most limits one zone type may list (`limits:`). */
#define ZO_MAX_LIMITS 4

/* One entry of `limits:` (RULESETS.md, Zones): at most `count` objects
 * with one of `types` (rule set bits) in one zone of the type (among
 * ZL_ZONE), attached to one object in it (ZL_ATTACHED), or sub-cards
 * under one object in it (ZL_UNDER: one Pokemon Tool per Pokemon, PTCG
 * rulebook p. 10, where a Tool is a sub-card of its Pokemon). */
typedef enum { ZL_ZONE, ZL_ATTACHED, ZL_UNDER } zo_limit_among;
typedef struct {
  uint64_t types;
  int count;             /* 0..64 */
  zo_limit_among among;
} zo_zone_limit;

/* The most entries one zone type's `at_index:` may list. */
#define ZO_MAX_AT_INDEX 4

/* One entry of `at_index:` (RULESETS.md, Zones; issue 31): an object with
 * one of `types` (rule set bits) may be only in a zone of this type whose
 * 1-based index is in `index` (bit i - 1 for index i; a zone without an
 * index counts as 1). */
typedef struct {
  uint64_t types;
  uint64_t index;
} zo_zone_at_index;

/* The most entries one zone type's `instead:` may list. */
#define ZO_MAX_INSTEAD 4

/* One entry of `instead:` (RULESETS.md, Zones): an object with one of
 * `types` (rule set bits; 0: any object) that would move into a zone of
 * this type from a zone of a type in `from` (bits by zone type index; 0:
 * from anywhere, outside the game included) goes to its owner's zone of
 * type `to` - 1 instead (0: this zone), face up (face 0) or down (1) where
 * face >= 0. */
typedef struct {
  uint64_t types;
  uint32_t from;
  int to;
  int face;
} zo_zone_instead;

typedef struct {
  char name[ZO_NAME];
  zo_zone_role role;
  zo_cited per_player;  /* 1 = each player has one (or `count`) */
  zo_cited count;       /* zones of this type per player (FaB weapon: 2) */
  zo_cited pub;         /* default visibility public */
  zo_cited ordered;
  zo_cited arena;       /* battlefield / in play / FaB arena */
  zo_cited controller;  /* objects here have a controller */
  zo_cited capacity;    /* 0 = unlimited */
  zo_cited owner_only;  /* only its owner's objects */
  zo_cited holds;       /* ZH_* bits */
  zo_cited reorder;     /* 1 = owner may rearrange */
  zo_cited same_zone_new; /* same-zone move makes a new object (400.8) */
  zo_cited keeps;       /* 400.4b: some cards can't leave it */
  zo_cited face_down_new; /* 400.9: turning face down = new object */
  zo_cited effect_reorder; /* 400.5: an effect may rearrange it (players
                              may only where `reorder` says) */
  /* issue 12, G3 (a step's performing player, `player:`) */
  zo_cited owner_puts;  /* only an object's owner may put it here (ante:
                           CR 217.9d, 407.4) */
  zo_cited putter_orders; /* cards one player puts together into another
                             player's zone of this type are ordered by the
                             player who puts them (217.2.Ruling.1) */
  zo_cited equip;       /* the citation of `equip:` (its value is equip_types) */
  uint64_t equip_types; /* ZH_EQUIP: types/subtypes that may be equipped
                           (rule set bits: vocabulary and zo_ruleset.xtypes) */
  uint64_t keep_types;  /* `keeps`: types that can't leave (rule set bits) */
  zo_cited holds_types; /* the citation of `holds_types:` (its value: any) */
  uint64_t only_types;  /* `holds_types`: the zone holds only objects with one
                           of these types (rule set bits; ZH_TYPES in holds) */
  /* issue 31 */
  zo_cited limits;      /* its value: how many of limit[] are in force */
  zo_zone_limit limit[ZO_MAX_LIMITS];
  zo_cited displace;    /* a move into a full zone of this type first puts an
                           object there into its owner's zone of type
                           value - 1 (0: the move is refused, `capacity`) */
  zo_cited instead;     /* its value: how many of inst[] are in force */
  zo_zone_instead inst[ZO_MAX_INSTEAD];
  zo_cited group;       /* zone types of one group (the same value, not 0)
                           count as one zone: a move between two zones of
                           the group keeps the object (value: 1 + the first
                           zone type with the word) */
  char group_name[ZO_NAME]; /* the group's word, "" for none */
  zo_cited clears;      /* mark kinds (a bit per ZO_MARK_KINDS row) an object
                           arriving here loses when the move keeps it the
                           same object (issue 31); 0 none */
  zo_cited ceases_empty; /* a zone of this type that zone_create made ceases
                            after the step that takes its last object out
                            (issue 31; needs switch zone_lifecycle: yes) */
  /* issue 31: zone rules of one zone type that other card games need */
  zo_cited wrong_owner; /* the switch wrong_owner for this zone type:
                           ZS_REDIRECT or ZS_CANNOT_HOLD; 0: the switch's
                           value (zo_zone_wrong_owner) */
  zo_cited follows_control; /* an object here that changes controller
                               (a `control` step) moves to the new
                               controller's zone of type value - 1 (0:
                               it stays), the step failing (capacity)
                               when none of them can hold it */
  zo_cited at_index;    /* its value: how many of at[] are in force */
  zo_zone_at_index at[ZO_MAX_AT_INDEX];
  zo_cited face_up_only; /* the citation of `face_up_only:` (its value: any) */
  uint64_t face_up_types; /* objects with one of these types (rule set
                             bits; `token`: every token) can't be face
                             down in a zone of this type */
  zo_cited seats;       /* the citation of `seats:` (its value: any) */
  uint32_t seat_bits;   /* per-player zones of this type exist only for the
                           players in these seats (bit i: the case's
                           player i + 1, in turn order) */
} zo_zone_type;

/* The keys of the cited zone attributes, by zo_zone_attr; static storage. */
extern const char *const zo_zone_attr_keys[ZA_COUNT];
/* How each is written, by zo_zone_attr. */
extern const zo_attr_value zo_zone_attr_values[ZA_COUNT];
/* Cited attribute a of zone type t (ZO_ZONE_ATTRS' field). */
zo_cited *zo_zone_cited(zo_zone_type *t, zo_zone_attr a);
/* Whether attribute a is one of the zone rules other card games need
 * (issue 31: limits, displace, instead, group, clears, ceases_empty,
 * wrong_owner, follows_control, at_index, face_up_only, seats), which an
 * engine is told of only under the protocol feature zone_rules. */
int zo_zone_attr_is_zone_rule(zo_zone_attr a);
/* Whether some zone type of rs has a zone rule (zo_zone_attr_is_zone_rule)
 * with a value. */
int zo_ruleset_has_zone_rules(const zo_ruleset *rs);

/* ZO_SWITCH_VALUES(X): X(id, name): every value a switch may take, as a
 * rule set file writes it; ZS_NONE is the value of a switch left out. */
#define ZO_SWITCH_VALUES(X)                            \
  X(ZS_NONE, "none")                                   \
  X(ZS_YES, "yes")                                     \
  X(ZS_EVERY_MOVE, "every_move")                       \
  X(ZS_LEAVE_ARENA, "leave_arena")                     \
  X(ZS_NO_MOVE, "no_move")                             \
  X(ZS_REDIRECT, "redirect")                           \
  X(ZS_CANNOT_HOLD, "cannot_hold")                     \
  X(ZS_STAYS, "stays")                                 \
  X(ZS_FAIL_OR_CLEAR, "fail_or_clear")                 \
  X(ZS_PUBLIC_ZONE, "public_zone")                     \
  X(ZS_PUBLIC_OBJECT, "public_object")                 \
  X(ZS_AT_STATE_CHECK, "at_state_check")               \
  X(ZS_IMMEDIATELY, "immediately")                     \
  X(ZS_NOT_BATTLEFIELD, "not_battlefield")             \
  X(ZS_STATUS, "status")                               \
  X(ZS_CEASE, "cease")                                 \
  X(ZS_SURVIVE, "survive")                             \
  X(ZS_SPELL_TO_PERMANENT, "spell_to_permanent")       \
  X(ZS_KEPT, "kept")                                   \
  X(ZS_PER_ZONE, "per_zone")                           \
  X(ZS_PER_OBJECT, "per_object")                       \
  X(ZS_OWNER_GRAVEYARD, "owner_graveyard")             \
  X(ZS_OWNER, "owner")                                 \
  X(ZS_ZONE_CONTROLLER, "zone_controller")             \
  X(ZS_CONTROLLER_OR_OWNER, "controller_or_owner")     \
  X(ZS_TURN_PLAYER, "turn_player")                     \
  X(ZS_LOSE_AT_STATE_CHECK, "lose_at_state_check")     \
  X(ZS_FAILS, "fails")                                 \
  X(ZS_CEASE_OFF_STACK, "cease_off_stack")             \
  X(ZS_STACK_ONLY, "stack_only")                       \
  X(ZS_WINNER_OWNS, "winner_owns")                     \
  X(ZS_LEAVE_ARENA_REMOVED, "leave_arena_removed")     \
  X(ZS_PERMANENT_ZONE, "permanent_zone")               \
  X(ZS_HAND_OWNER, "hand_owner")                       \
  X(ZS_OWNER_NOT_DECK, "owner_not_deck")               \
  X(ZS_NOT_A_ZONE, "not_a_zone")                       \
  X(ZS_MOVED_TO, "moved_to")                           \
  X(ZS_ZONE, "zone")                                   \
  X(ZS_SPELL_CHARACTERISTICS, "spell_characteristics") \
  X(ZS_CANNOT_MOVE, "cannot_move")                     \
  X(ZS_REMOVED_IS_OUTSIDE, "removed_is_outside")       \
  X(ZS_LISTED, "listed")                               \
  X(ZS_APNAP, "apnap")                                 \
  X(ZS_SELF_FIRST, "self_first")                                                   \
  X(ZS_LIMITED_LOST, "limited_lost") /* G4 (issue 12) */                           \
  X(ZS_UNTIL_LEAVES, "until_leaves") /* 406.3 of today */                         \
  X(ZS_CONTROLLER, "controller") /* created_owner: 110.5a, 111.2 of 2011 */        \
  X(ZS_CAST, "cast") /* keeps_permissions: 400.7f of 2011 */

/* ZO_SWITCHES(X): X(id, name, values): the policy switches
 * (oracle/rulesets/RULESETS.md, Switches; the same lists as
 * oracle/rulesets/schema.json), each with the values a file may write for
 * it (at most four); left out, a switch is ZS_NONE, which for some reads as
 * one of its values. */
#define ZO_SWITCHES(X)                                                                           \
  X(SW_NEW_OBJECT, "new_object", (ZS_EVERY_MOVE, ZS_LEAVE_ARENA)) /* FaB 3.0.9 */                \
  X(SW_SAME_ZONE, "same_zone", (ZS_NO_MOVE))                                                     \
  X(SW_WRONG_OWNER, "wrong_owner", (ZS_REDIRECT, ZS_CANNOT_HOLD))                                \
  X(SW_CANNOT_HOLD, "cannot_hold", (ZS_STAYS, ZS_FAIL_OR_CLEAR))                                 \
  X(SW_TRIGGER_FINDS, "trigger_finds", (ZS_NONE, ZS_MOVED_TO, ZS_PUBLIC_ZONE, ZS_PUBLIC_OBJECT)) \
  X(SW_THEN_FINDS, "then_finds", (ZS_NONE, ZS_MOVED_TO, ZS_PUBLIC_ZONE, ZS_PUBLIC_OBJECT))       \
  X(SW_TOKEN_LEAVES, "token_leaves", (ZS_NONE, ZS_AT_STATE_CHECK, ZS_IMMEDIATELY))               \
  X(SW_TOKEN_RETURN, "token_return", (ZS_NONE, ZS_NOT_BATTLEFIELD, ZS_CANNOT_MOVE))              \
    /* 110.5g; 111.8 */                                                                          \
  X(SW_EXILED_NONCARDS, "exiled_noncards", (ZS_NONE, ZS_STAYS)) /* 217.7a of 2004 */              \
  X(SW_PHASING, "phasing", (ZS_NONE, ZS_STATUS, ZS_ZONE)) /* 217.8a */                           \
  X(SW_PHASED_TOKENS, "phased_tokens", (ZS_NONE, ZS_CEASE, ZS_SURVIVE))                          \
  X(SW_KEEPS, "keeps", (ZS_NONE, ZS_SPELL_CHARACTERISTICS, ZS_SPELL_TO_PERMANENT))               \
  X(SW_HISTORY, "history", (ZS_NONE, ZS_KEPT)) /* FaB 3.0.9c */                                  \
  X(SW_VISIBILITY, "visibility", (ZS_PER_ZONE, ZS_PER_OBJECT))                                   \
  X(SW_FLIP_STEP, "flip_step", (ZS_NONE, ZS_YES)) /* FaB 3.0.8, 3.0.8a */                        \
  X(SW_NO_PROPERTIES, "no_properties", (ZS_NONE, ZS_YES)) /* FaB 3.0.7a */                       \
  X(SW_SUB_CARDS, "sub_cards", (ZS_NONE, ZS_YES)) /* FaB 3.0.14 */                               \
  X(SW_ZONE_LIFECYCLE, "zone_lifecycle", (ZS_NONE, ZS_YES)) /* FaB 3.0.10 */                     \
  X(SW_CLEAR, "clear", (ZS_NONE, ZS_OWNER_GRAVEYARD)) /* FaB 3.0.12 */                           \
  X(SW_ORDER_CHOOSER, "order_chooser", (ZS_OWNER, ZS_ZONE_CONTROLLER))                           \
  X(SW_REPLACE_CHOOSER, "replace_chooser", (ZS_CONTROLLER_OR_OWNER, ZS_TURN_PLAYER))             \
  X(SW_DRAW_EMPTY, "draw_empty", (ZS_LOSE_AT_STATE_CHECK, ZS_FAILS))                             \
  X(SW_COPIES, "copies", (ZS_NONE, ZS_CEASE_OFF_STACK)) /* 704.5e */                             \
  X(SW_COPY_BECOMES_TOKEN, "copy_becomes_token", (ZS_NONE, ZS_YES)) /* 110.5 (2011); 111.13 */     \
  X(SW_ABILITIES, "abilities", (ZS_STACK_ONLY))                                                  \
  X(SW_ANTE, "ante", (ZS_NONE, ZS_WINNER_OWNS))                                                  \
  X(SW_STACK_LAYERS, "stack_layers", (ZS_NONE, ZS_YES)) /* FaB 3.15.4-6 */                       \
  X(SW_MACROS, "macros", (ZS_NONE, ZS_LEAVE_ARENA_REMOVED)) /* FaB 1.5.3 */                      \
  X(SW_ARENA_DEFAULT, "arena_default", (ZS_NONE, ZS_PERMANENT_ZONE)) /* FaB 3.0.5a */            \
  X(SW_LOOK, "look", (ZS_HAND_OWNER, ZS_OWNER_NOT_DECK)) /* 400.2; FaB 3.0.3a */                 \
  X(SW_OUTSIDE, "outside", (ZS_NOT_A_ZONE, ZS_REMOVED_IS_OUTSIDE)) /* 400.10; 217.1e */         \
  X(SW_STACK_ARRIVAL, "stack_arrival", (ZS_LISTED, ZS_APNAP)) /* 405.3 */                      \
  X(SW_REPLACE_ORDER, "replace_order", (ZS_NONE, ZS_SELF_FIRST)) /* 616.1a; 419.6d; FaB 6.5 */ \
  /* issue 12, G5: an instruction may let a player look at a face-down */                        \
  /* object in a public zone (217.7b, 406.3); none: nobody (Z.7.3, Z.8.4); */                    \
  /* until_leaves: the look outlasts a new object in the same zone (406.3 today) */            \
  X(SW_LOOK_FACE_DOWN, "look_face_down", (ZS_NONE, ZS_YES, ZS_UNTIL_LEAVES))                   \
  /* the order of face-down piles outside the library, graveyard and */                        \
  /* stack is fixed as theirs is (400.5 since 2009); none: arranged freely */                   \
  X(SW_FACE_DOWN_PILES, "face_down_piles", (ZS_NONE, ZS_YES))                                    \
  X(SW_ATTACH, "attach", (ZS_NONE, ZS_YES)) /* 303.4, 301.5; 217.1b; Z.5.1 */                    \
  X(SW_INDIRECT_PHASING, "indirect_phasing", (ZS_NONE, ZS_YES)) /* 702.26g; 217.8d; Z.7.2 */     \
  X(SW_AURA_UNATTACHED, "aura_unattached", (ZS_NONE, ZS_OWNER_GRAVEYARD)) /* 704.5m; 420.5d */   \
  X(SW_EQUIPMENT_UNATTACHED, "equipment_unattached", (ZS_STAYS, ZS_OWNER_GRAVEYARD)) /* 704.5n */\
  X(SW_PHASED_EFFECTS, "phased_effects", (ZS_NONE, ZS_LIMITED_LOST, ZS_KEPT))                    \
    /* G4 (issue 12): 502.15g of 2004; 702.24e (2011), 702.26f */                                \
  /* exceptions to "a new object has no memory" that today's 400.7 adds: */                     \
  /* stickers kept by a move to a public zone (400.7m, 123.5); a permission */                 \
  /* to cast or play a card kept by that cast or play (400.7g-i); what a */                     \
  /* spell was kept by the permanent it becomes (400.7d) */                                     \
  X(SW_KEEPS_STICKERS, "keeps_stickers", (ZS_NONE, ZS_YES))                                      \
  X(SW_KEEPS_PERMISSIONS, "keeps_permissions", (ZS_NONE, ZS_YES, ZS_CAST))                       \
  X(SW_KEEPS_SPELL_INFO, "keeps_spell_info", (ZS_NONE, ZS_YES))                                \
  /* a card that stops being the revealed top card of a library and is */                       \
  /* revealed again is a new object (401.6); none: the same object */                           \
  X(SW_REVEALED_TOP_RENEWS, "revealed_top_renews", (ZS_NONE, ZS_YES))                          \
  /* an Aura's trigger on the permanent it enchants leaving finds the Aura */                   \
  /* in its owner's graveyard, put there with it or by the unattached-Aura */                   \
  /* state-based action (400.7f, 603.6e); none: never */                                        \
  X(SW_AURA_TRIGGER_FINDS, "aura_trigger_finds", (ZS_NONE, ZS_YES))                            \
  /* a trigger on a card's discard finds the card in the public zone the */                     \
  /* madness trigger put it into without its being cast (400.7k, 702.35c); */                   \
  /* none: only where the trigger saw it arrive */                                              \
  X(SW_MADNESS_FINDS, "madness_finds", (ZS_NONE, ZS_YES))                                      \
  /* a revealed card in a library that is shuffled or otherwise reordered */                     \
  /* stops being revealed and becomes a new object (701.20d); none: it */                       \
  /* stays the same object, a shuffle ending only its reveal */                                 \
  X(SW_REORDER_RENEWS_REVEALED, "reorder_renews_revealed", (ZS_NONE, ZS_YES))                 \
  /* who owns a token or a copy of a spell that is created under another */                     \
  /* player's control: none: the player the create step names (the */                          \
  /* controller of the effect that made it, 216.1 of 2004 and 2007); */                        \
  /* controller: the player under whose control it is created (110.5a, */                      \
  /* 111.2 of 2011) */                                                                          \
  X(SW_CREATED_OWNER, "created_owner", (ZS_NONE, ZS_CONTROLLER))                                \
  /* yes: a permanent phasing out (or in) through the phased-out zone fires */                  \
  /* no zone-change watch, only watches on phasing (502.15d of 2007); */                       \
  /* none: phasing out fires leaves-play watches (502.15d of 2004; Z.7) */                     \
  X(SW_PHASING_QUIET, "phasing_quiet", (ZS_NONE, ZS_YES))                                    \
  /* yes: a control effect on a permanent spell goes on applying to the */                      \
  /* permanent the spell becomes (the "or controller" of 400.7a today); */                      \
  /* none: it ends with the spell, a new object (400.7) */                                       \
  X(SW_KEEPS_CONTROL, "keeps_control", (ZS_NONE, ZS_YES))                                   \
  /* yes: an Aura may be attached to a player (attach to_player:; 303.4b, */                    \
  /* 212.4h of 2004 and 2008); none: such an attach is rejected */                             \
  /* (unsupported: the 1999 digest's Z.5.1 speaks of permanents only) */                       \
  X(SW_AURA_PLAYER, "aura_player", (ZS_NONE, ZS_YES))

/* Policy switches (ZO_SWITCHES). */
typedef enum { ZO_SWITCHES(ZO_ROW_ID) SW_COUNT } zo_switch;
/* Switch values (ZO_SWITCH_VALUES). */
enum { ZO_SWITCH_VALUES(ZO_ROW_ID) ZS_COUNT_ };
/* The values of switch s a file may write (ZO_SWITCHES), ended by -1. */
extern const signed char zo_switch_values[SW_COUNT][5];

typedef struct {
  char *id;    /* "CR 400.7d" */
  char *text;  /* one-line paraphrase */
  int seed;    /* numbered in the seed text: must be cited by a case */
  char *out_of_scope; /* why the zone model has nothing of this rule to check
                         (a rule of the seed text no case can cite), or NULL */
  char *language_gap; /* what the case language lacks to write a case of this
                         zone rule (so none cites it yet), or NULL */
} zo_rule;

#define ZO_MAX_ZONE_TYPES 24

struct zo_ruleset {
  char *id, *title, *game, *extends, *file;
  zo_zone_type zones[ZO_MAX_ZONE_TYPES];
  int nzones;
  zo_cited sw[SW_COUNT];
  zo_rule *rules;
  int nrules;
  int nslots;  /* cited attributes and switches: one hit counter each */
  char **xtypes; int nxtypes; /* its own type words (not in the vocabulary):
                                 bit ZO_NVOCAB + i; owned */
  int id_line, id_col;        /* where `id:` is written (0 for a copy) */
  /* "sha256:" and the SHA-256 of the file's bytes in hex; under extends:,
     the SHA-256 of the base's digest, a space and the file's own
     "sha256:HEX" (so a change in the base changes it). Sent to engines that
     declare the feature ruleset_digest (PROTOCOL.md, setup). */
  char digest[72];
  int user;                   /* loaded from a user's file (--ruleset-file) */
};

/* The words of the switches (by zo_switch), of their values (by ZS_*),
 * of the zone roles and of the holds bits (by bit index); static storage. */
extern const char *const zo_switch_names[SW_COUNT];
extern const char *const zo_switch_value_names[ZS_COUNT_];
extern const char *const zo_zone_role_names[ZR_COUNT];
extern const char *const zo_holds_names[ZH_COUNT];
/* The word of switch s, or "?". */
const char *zo_switch_name(zo_switch s);
/* Make a rule set loaded from a user's file findable by id (cases may name
 * it). The registry takes ownership, also on failure: ZO_ERR_USAGE if the
 * id is taken (rs is freed; err names the file's `id:` line). */
zo_status zo_ruleset_register(zo_ruleset *rs, zo_error *err);
/* The word of switch value v (ZS_*), or "?". */
const char *zo_switch_value_name(int v);
struct yd_doc;
/* The rule set an `extends:` id names, or NULL: the registry's look-up
 * (registry.c), handed to the parser so that it calls no file above it. */
typedef const zo_ruleset *(*zo_ruleset_lookup)(const char *id);
/* The rule set of a parsed rule set file (oracle/rulesets/RULESETS.md):
 * the rules layer's parser (ruleset_load.c), for the registry's embedded
 * files and zo_ruleset_load_*. `extends:` names a rule set base_of finds
 * (NULL: none). On success *out is the caller's (zo_ruleset_free); on
 * error nothing is returned and err names file:line:column. */
zo_status zo_ruleset_parse_doc(const struct yd_doc *doc, zo_ruleset_lookup base_of,
                               zo_ruleset **out, zo_error *err);
/* Mutants: the registry slot of an embedded rule set, swapping a slot,
 * and a shallow copy to change one switch in (free() it, not
 * zo_ruleset_free). */
int zo_ruleset_index(const zo_ruleset *rs);
zo_ruleset *zo_ruleset_swap(int i, zo_ruleset *rs);
zo_ruleset *zo_ruleset_clone_shallow(const zo_ruleset *rs);
/* Zone type index by name, or -1. */
int zo_ruleset_zone(const zo_ruleset *rs, const char *name);
/* Rule index by id, or -1. */
int zo_ruleset_rule(const zo_ruleset *rs, const char *id);
/* The rules of citation list `rules` ("CR 303.4, 301.5; FaB 3.0.14", as
 * the invariants and the model's messages cite them) that rule set rs can
 * stand behind, into buf (cap bytes): those its rules: list holds, and
 * those of its own game's rule book (CR and Z. numbers under game mtg, FaB
 * numbers under fab). Another game's numbers are dropped, so a message
 * under a user's game cites its rules or none (issue 31). Returns buf: the
 * list as written when nothing is dropped, else the kept ids "; "-joined,
 * "" when none is left. Pure. */
const char *zo_ruleset_cite(const zo_ruleset *rs, const char *rules, char *buf, size_t cap);

/* ------------------------------------------------------------------ */
/* Types and subtypes: words -> bits                                   */

/* The words the model and its checkers know (instant, hero, 2h, the FaB
 * deck-card types, the words of the built-in rule sets...) have fixed bits
 * 0..ZO_NVOCAB-1: a constant table, the same in every process, that no file
 * can change. Every other word belongs to the file that writes it: a case
 * numbers its own words (zo_case.xtypes), a rule set its own (equip:,
 * keeps:; zo_ruleset.xtypes), each from bit ZO_NVOCAB up and at most
 * ZO_MAX_XTYPES of them; one more is refused at load with the word's
 * position, never given a shared bit. A game maps the rule set's own words
 * onto its case's bits (zo_type_bits_for_case). */
/* The vocabulary, in bit order: X(ID, word). Append only (fuzz corpora
 * encode bits). ZO_TYPE(ID) is a word's bit as a constant, so the model's
 * type classes (types.c) cost no string comparison. */
#define ZO_VOCAB(X)                                                                  \
  /* the model's own (RULESETS.md, type words the model knows) */                    \
  X(INSTANT, "instant") X(SORCERY, "sorcery") X(TOKEN, "token") X(HERO, "hero")      \
  X(TWO_HANDED, "2h") X(BOW, "bow") X(QUIVER, "quiver") X(ACTION, "action")          \
  X(ATTACK_REACTION, "attack_reaction") X(BLOCK, "block")                            \
  X(DEFENSE_REACTION, "defense_reaction") X(MENTOR, "mentor") X(RESOURCE, "resource") \
  X(AFFLICTION, "affliction") X(ALLY, "ally") X(ASH, "ash") X(AURA, "aura")          \
  X(CONSTRUCT, "construct") X(FIGMENT, "figment") X(INVOCATION, "invocation")        \
  X(ITEM, "item") X(LANDMARK, "landmark")                                            \
  /* equip: and keeps: of the built-in rule sets (FaB 3.x.2a, CR 400.4b) */          \
  X(ARMS, "arms") X(CHEST, "chest") X(HEAD, "head") X(LEGS, "legs")                  \
  X(WEAPON, "weapon") X(OFF_HAND, "off-hand") X(PLANE, "plane")                      \
  X(VANGUARD, "vanguard") X(SCHEME, "scheme") X(CONSPIRACY, "conspiracy")            \
  X(PHENOMENON, "phenomenon")                                                        \
  /* the fuzz decoder's palettes */                                                  \
  X(CREATURE, "creature") X(ARTIFACT, "artifact") X(ENCHANTMENT, "enchantment")      \
  X(LAND, "land") X(EQUIPMENT, "equipment") X(ONE_HANDED, "1h")

#define ZO_VOCAB_ENUM(id, word) ZO_VOCAB_##id,
enum { ZO_VOCAB(ZO_VOCAB_ENUM) ZO_NVOCAB };
#undef ZO_VOCAB_ENUM
/* The bit of vocabulary word ID (ZO_TYPE(AURA)): a constant. */
#define ZO_TYPE(id) ((uint64_t)1 << ZO_VOCAB_##id)
#define ZO_MAX_XTYPES (64 - ZO_NVOCAB)

/* Bit of a vocabulary word, or 0 for any other word. */
uint64_t zo_type_bit(const char *word);
/* Vocabulary word of bit i (0..ZO_NVOCAB-1), or NULL. */
const char *zo_type_word(int i);
/* Bit of word in a table of words of one file (*words, *n: owned by that
 * file, grown here): a vocabulary bit, the word's bit in the table, or a new
 * bit appended to it. 0 when the table already holds ZO_MAX_XTYPES words
 * (the caller refuses the word). */
uint64_t zo_type_intern(char ***words, int *n, const char *word);

#endif
