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

/* ------------------------------------------------------------------ */
/* Rule sets                                                           */

/* What a zone type is for; the model looks zones up by role. */
typedef enum {
  ZR_NONE = 0,
  ZR_LIBRARY,    /* draw / mill source: MTG library, FaB deck */
  ZR_HAND,
  ZR_GRAVEYARD,  /* where a clear sends a card (FaB 3.0.12) */
  ZR_BATTLEFIELD,/* MTG battlefield / in play; FaB permanent zone */
  ZR_STACK,
  ZR_EXILE,
  ZR_COMMAND,
  ZR_ANTE,
  ZR_OTHER,
  ZR_PHASED_OUT  /* where phasing puts permanents in old rule sets */
} zo_zone_role;

/* What a zone may hold beyond owner and capacity (bit set). */
enum {
  ZH_DECK_CARDS = 1u << 0,  /* FaB deck-cards only (1.3.2c) */
  ZH_CARDS = 1u << 1,       /* cards only (no macro, no ability) */
  ZH_PERMANENTS = 1u << 2,  /* FaB permanents only (1.3.3, 3.13.2) */
  ZH_PROXIES = 1u << 3,     /* also attack-proxies (3.6.2) */
  ZH_HERO = 1u << 4,        /* one hero card (3.11.2) */
  ZH_EQUIP = 1u << 5,       /* equipment / weapon zone: subtype test */
  ZH_NO_INSTANTS = 1u << 6  /* MTG 400.4a: instants/sorceries stay */
};

/* A cited value: every zone attribute and switch carries its rule. */
typedef struct {
  int value;
  int rules[6]; /* indices into zo_ruleset.rules */
  int nrules;   /* 0 = unspecified (the text is silent) */
  int slot;     /* this citation's hit counter in a game (zo_ruleset.nslots) */
} zo_cited;

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
  zo_cited equip;       /* the citation of `equip:` (its value is equip_types) */
  uint64_t equip_types; /* ZH_EQUIP: types/subtypes that may be equipped
                           (rule set bits: vocabulary and zo_ruleset.xtypes) */
  uint64_t keep_types;  /* `keeps`: types that can't leave (rule set bits) */
} zo_zone_type;

/* Policy switches (oracle/rulesets/RULESETS.md). Values are the ZS_* constants below. */
typedef enum {
  SW_NEW_OBJECT,      /* ZS_EVERY_MOVE | ZS_LEAVE_ARENA (FaB 3.0.9) */
  SW_SAME_ZONE,       /* ZS_NO_MOVE */
  SW_WRONG_OWNER,     /* ZS_REDIRECT | ZS_CANNOT_HOLD */
  SW_CANNOT_HOLD,     /* ZS_STAYS | ZS_FAIL_OR_CLEAR */
  SW_TRIGGER_FINDS,   /* ZS_PUBLIC_ZONE | ZS_PUBLIC_OBJECT | ZS_MOVED_TO */
  SW_THEN_FINDS,      /* ZS_NONE | ZS_PUBLIC_ZONE | ZS_PUBLIC_OBJECT */
  SW_TOKEN_LEAVES,    /* ZS_AT_STATE_CHECK | ZS_IMMEDIATELY */
  SW_TOKEN_RETURN,    /* ZS_NONE | ZS_NOT_BATTLEFIELD (110.5g) | ZS_CANNOT_MOVE (111.8) */
  SW_PHASING,         /* ZS_NONE | ZS_STATUS | ZS_ZONE (217.8a) */
  SW_PHASED_TOKENS,   /* ZS_CEASE | ZS_SURVIVE */
  SW_KEEPS,           /* ZS_NONE | ZS_SPELL_CHARACTERISTICS | ZS_SPELL_TO_PERMANENT */
  SW_HISTORY,         /* ZS_NONE | ZS_KEPT (FaB 3.0.9c) */
  SW_VISIBILITY,      /* ZS_PER_ZONE | ZS_PER_OBJECT */
  SW_FLIP_STEP,       /* ZS_NONE | ZS_YES (FaB 3.0.8, 3.0.8a) */
  SW_NO_PROPERTIES,   /* ZS_NONE | ZS_YES (FaB 3.0.7a) */
  SW_SUB_CARDS,       /* ZS_NONE | ZS_YES (FaB 3.0.14) */
  SW_ZONE_LIFECYCLE,  /* ZS_NONE | ZS_YES (FaB 3.0.10) */
  SW_CLEAR,           /* ZS_NONE | ZS_OWNER_GRAVEYARD (FaB 3.0.12) */
  SW_ORDER_CHOOSER,   /* ZS_OWNER | ZS_ZONE_CONTROLLER */
  SW_REPLACE_CHOOSER, /* ZS_CONTROLLER_OR_OWNER | ZS_TURN_PLAYER */
  SW_DRAW_EMPTY,      /* ZS_LOSE_AT_STATE_CHECK | ZS_FAILS */
  SW_COPIES,          /* ZS_CEASE_OFF_STACK (704.5e) */
  SW_ABILITIES,       /* ZS_STACK_ONLY */
  SW_ANTE,            /* ZS_NONE | ZS_WINNER_OWNS */
  SW_STACK_LAYERS,    /* ZS_NONE | ZS_YES (FaB 3.15.4-6) */
  SW_MACROS,          /* ZS_NONE | ZS_LEAVE_ARENA_REMOVED (FaB 1.5.3) */
  SW_ARENA_DEFAULT,   /* ZS_NONE | ZS_PERMANENT_ZONE (FaB 3.0.5a) */
  SW_LOOK,            /* ZS_HAND_OWNER (400.2) | ZS_OWNER_NOT_DECK (3.0.3a) */
  SW_OUTSIDE,         /* ZS_NOT_A_ZONE (400.10) | ZS_REMOVED_IS_OUTSIDE (217.1e) */
  SW_COUNT
} zo_switch;

enum {
  ZS_NONE = 0, ZS_YES, ZS_EVERY_MOVE, ZS_LEAVE_ARENA, ZS_NO_MOVE, ZS_REDIRECT,
  ZS_CANNOT_HOLD, ZS_STAYS, ZS_FAIL_OR_CLEAR, ZS_PUBLIC_ZONE,
  ZS_PUBLIC_OBJECT, ZS_AT_STATE_CHECK, ZS_IMMEDIATELY, ZS_NOT_BATTLEFIELD,
  ZS_STATUS, ZS_CEASE, ZS_SURVIVE, ZS_SPELL_TO_PERMANENT, ZS_KEPT,
  ZS_PER_ZONE, ZS_PER_OBJECT, ZS_OWNER_GRAVEYARD, ZS_OWNER,
  ZS_ZONE_CONTROLLER, ZS_CONTROLLER_OR_OWNER, ZS_TURN_PLAYER,
  ZS_LOSE_AT_STATE_CHECK, ZS_FAILS, ZS_CEASE_OFF_STACK, ZS_STACK_ONLY,
  ZS_WINNER_OWNS, ZS_LEAVE_ARENA_REMOVED, ZS_PERMANENT_ZONE, ZS_HAND_OWNER,
  ZS_OWNER_NOT_DECK, ZS_NOT_A_ZONE, ZS_MOVED_TO, ZS_ZONE,
  ZS_SPELL_CHARACTERISTICS, ZS_CANNOT_MOVE, ZS_REMOVED_IS_OUTSIDE, ZS_COUNT_
};

typedef struct {
  char *id;    /* "CR 400.7d" */
  char *text;  /* one-line paraphrase */
  int seed;    /* numbered in the seed text: must be cited by a case */
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
};

const char *zo_switch_name(zo_switch s);
/* Make a rule set loaded from a user's file findable by id (cases may name
 * it). The registry takes ownership, also on failure: ZO_ERR_USAGE if the
 * id is taken (rs is freed; err names the file's `id:` line). */
zo_status zo_ruleset_register(zo_ruleset *rs, zo_error *err);
const char *zo_switch_value_name(int v);
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
#define ZO_NVOCAB 39
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
