/* model.h: the data the library's rooms share (internal, not installed).
 *
 *   ruleset.c   rule set files -> zo_ruleset (zone types + switches, cited)
 *   case_load.c case files     -> zo_case   (setup, steps, expectations)
 *   game.c      zo_ruleset + zo_case -> zo_game (the reference model)
 *   engines/    the engine interface (engine.h) and its implementations
 *   runner.c    cases x rule sets -> results (compares observations)
 *   report.c    results -> JSON Lines record, JUnit XML, Markdown
 */
#ifndef ZO_MODEL_H
#define ZO_MODEL_H

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
/* Bit of word for case c (vocabulary or c's own words), or 0: looks up only. */
uint64_t zo_case_type_bit(const zo_case *c, const char *word);
/* Bits of rule set rs (vocabulary bits and rs's own words) as case c's bits:
 * a word of rs that c never writes has no bit in c (no object of c has it). */
uint64_t zo_type_bits_for_case(const zo_ruleset *rs, const zo_case *c, uint64_t rs_bits);

/* ------------------------------------------------------------------ */
/* Cases                                                               */

typedef enum {
  ZK_CARD = 0, ZK_TOKEN, ZK_ABILITY, ZK_COPY, ZK_MACRO, ZK_PROXY
} zo_kind;
const char *zo_kind_name(zo_kind k);

/* A zone as written: type (+ player, + 1-based index). */
typedef struct {
  int type;   /* zone type index; ZO_ZT_OUTSIDE; ZO_ZT_ANY; ZO_ZT_ARENA */
  int player; /* -1 = not written (the object's owner / first player) */
  int index;  /* 0 = not written */
} zo_zone_spec;
#define ZO_ZT_OUTSIDE (-2)
#define ZO_ZT_ANY (-3)
#define ZO_ZT_ARENA (-4)
#define ZO_ZT_UNSET (-1)

/* The keys of a starting card (cases/README.md), in case_load.c's order:
 * indices into zo_card_setup.at. */
enum zo_card_key {
  CK_OWNER = 0, CK_ZONE, CK_KIND, CK_TYPES, CK_SUBTYPES, CK_CONTROLLER, CK_FACE,
  CK_VISIBILITY, CK_POSITION, CK_UNDER, CK_COUNT
};

typedef struct {
  int handle;       /* index into case handles */
  int owner;
  zo_zone_spec zone;
  zo_kind kind;
  uint64_t types;   /* types and subtypes, as bits */
  char **type_words; int ntype_words;
  int controller;   /* -1 = default */
  int face_down;
  int visibility;   /* -1 default, 0 private, 1 public */
  int position;     /* -1 = file order */
  int under;        /* handle or -1 */
  int line, col;
  /* where each key of the card is written (line 0 = not written), so a set-up
     error names the key at fault; indexed by enum zo_card_key */
  struct { int line, col; } at[CK_COUNT];
} zo_card_setup;

typedef enum {
  ST_MOVE = 0, ST_MOVE_TOGETHER, ST_CREATE, ST_CONTROL, ST_PHASE,
  ST_TURN_FACE, ST_REORDER, ST_SHUFFLE, ST_DRAW, ST_MILL, ST_PUT_UNDER,
  ST_ZONE_CREATE, ST_ZONE_REMOVE, ST_STATE_CHECK, ST_END_GAME, ST_WATCH,
  ST_RESOLVE, ST_REMEMBER, ST_REPLACE, ST_CHOOSE_REPLACEMENT, ST_MARK,
  ST_COUNT
} zo_step_kind;
const char *zo_step_kind_name(zo_step_kind k);

#define ZO_POS_TOP (-1)
#define ZO_POS_BOTTOM (-2)

typedef enum { MK_COUNTER = 0, MK_EFFECT, MK_CHARACTERISTIC, MK_PREVENTION } zo_mark_kind;

typedef struct zo_expect zo_expect;

/* One step. Fields not used by a kind are zero / -1. */
typedef struct zo_step {
  zo_step_kind kind;
  int line, col;
  int card;            /* handle, -1 */
  int ref;             /* reference index, -1 */
  zo_zone_spec to, from, zone;
  int position;        /* ZO_POS_TOP default */
  int face;            /* -1 unset, 0 up, 1 down */
  int by_rule;
  char cause[ZO_NAME];
  int choose;          /* 1-based, 0 unset */
  int shuffle;
  uint64_t seed;
  struct zo_step *then;   /* move: then; resolve: do */
  struct zo_step *moves;  /* move_together */
  int nmoves;
  int *order_zone_handles; /* move_together / reorder / choose_replacement */
  int norder;
  zo_zone_spec order_zone;
  int as;              /* new handle / trigger / ref / replacement index */
  zo_kind kind_of;     /* create */
  uint64_t types;      /* create / watch filter */
  int owner, controller, player, winner, count, out;
  int trigger;         /* resolve */
  int under;           /* put_under: top-card handle */
  zo_mark_kind mark_kind;
  int replace_any;     /* replace: card any */
  zo_zone_spec when_to, when_from;
  char when_cause[ZO_NAME];
  zo_expect *expect;
  char *json;          /* the step as written, as JSON (protocol), or NULL */
} zo_step;

/* Expectation of one object's properties (bit set of what is named). */
enum {
  OX_ZONE = 1 << 0, OX_EXISTS = 1 << 1, OX_NEW = 1 << 2, OX_SAME_AS = 1 << 3,
  OX_POSITION = 1 << 4, OX_VISIBILITY = 1 << 5, OX_FACE = 1 << 6,
  OX_CONTROLLER = 1 << 7, OX_OWNER = 1 << 8, OX_MARKS = 1 << 9,
  OX_UNDER = 1 << 10, OX_PHASED = 1 << 11, OX_CAME_FROM = 1 << 12,
  OX_LAYER = 1 << 13
};

typedef struct {
  int line, col;   /* of the value being compared */
  int handle;
  unsigned mask;
  char zone[48];
  int exists, is_new, same_as, position, visibility, face, controller, owner,
      under, phased, layer;
  char came_from[48];
  int came_from_null;
  char **marks; int nmarks;
  int lines[14];   /* line of each named property (by bit index) */
} zo_obj_expect;

typedef struct { int line; char zone[48]; int *handles; int n; } zo_zone_expect;
typedef struct { int line; char zone[48]; int count; } zo_count_expect;
typedef struct { int line; int index; int fired, found, controller; unsigned mask; } zo_trig_expect;
typedef struct { int line; int player; int *sees; int nsees; int *hidden; int nhidden; } zo_visible_expect;

struct zo_expect {
  int line, col;
  int has_outcome; zo_outcome outcome; int outcome_line;
  int has_error; zo_step_error error; int error_line;
  zo_obj_expect *objs; int nobjs;
  zo_zone_expect *zones; int nzones;
  zo_count_expect *counts; int ncounts;
  zo_trig_expect *triggers; int ntriggers; /* mask: 1 fired, 2 found, 4 controller */
  zo_trig_expect *refs; int nrefs;         /* mask: 2 found */
  zo_trig_expect *players; int nplayers;   /* fired = lost; mask 1 */
  zo_visible_expect *visible; int nvisible;
};

struct zo_case {
  char *file, *id, *title, *source;
  char **rulesets; int nrulesets;
  int *ruleset_lines;
  char **rules; int nrules;
  char **features; int nfeatures;
  char *players[ZO_MAX_PLAYERS]; int nplayers;
  char **handles; int nhandles;     /* setup cards first, then created */
  int nsetup;                       /* handles [0, nsetup) are setup cards */
  zo_card_setup *cards; int ncards;
  zo_step *steps; int nsteps;
  char **triggers; int ntriggers;   /* names (watch as) */
  char **refs; int nrefs;           /* names (remember as) */
  char **replacements; int nreplacements;
  char **marknames; int nmarknames;
  char **ztypes; int nztypes;       /* zone type names used (interned) */
  char **xtypes; int nxtypes;       /* its own type words: bit ZO_NVOCAB + i
                                       (zo_type_intern); owned */
  zo_expect *expect;                /* final, may be NULL */
  char *cards_json;                 /* `cards:` as written, as JSON (protocol) */
};

/* Set every field of s to its "not given" value (card -1, position top...). */
void zo_step_init(zo_step *s);

/* Parse one step (YAML or JSON text) in case c's context and append it to
 * c->steps (names it introduces join c). ZO_OK or an error (file "step"). */
zo_status zo_case_append_step(zo_case *c, const char *text, size_t len, zo_error *err);
struct json_t;
/* The same from a parsed JSON value (jansson json_t *): no reparsing. */
zo_status zo_case_append_step_json(zo_case *c, struct json_t *step, zo_error *err);
/* Intern every zone type and every own type word of rs into c (before
 * building a game that later steps extend). */
void zo_case_add_zone_types(zo_case *c, const zo_ruleset *rs);

/* ------------------------------------------------------------------ */
/* Observations (what any engine reports; compared by the runner)     */

#define ZO_MAX_MARKS_PER_OBJ 8
typedef struct {
  int exists;
  char zone[48];          /* full name; "outside"; "" when not existing */
  uint64_t object;        /* identity token: changes exactly on new object */
  int position, layer;    /* -1 when not in an ordered zone */
  int visibility;         /* 1 public, 0 private */
  int face_down;
  int controller;         /* player index, -1 none */
  int owner;
  int under;              /* handle, -1 */
  int phased_out;
  char came_from[48];     /* "" = none */
  int marks[ZO_MAX_MARKS_PER_OBJ]; int nmarks; /* mark name indices */
} zo_obj_obs;

typedef struct {
  int nhandles;
  zo_obj_obs *objs;           /* [nhandles] */
  int ntriggers;
  int *trig_fired, *trig_found, *trig_controller; /* [ntriggers] */
  int nrefs;
  int *ref_found;             /* [nrefs] */
  int *ref_handle;            /* [nrefs]: handle the reference saw, -1 */
  int nplayers;
  int lost[ZO_MAX_PLAYERS];
  unsigned char *sees;        /* [nplayers * nhandles] */
} zo_observation;

typedef struct {
  int handle;
  zo_outcome outcome;
} zo_event;

typedef struct {
  zo_outcome outcome;
  zo_step_error error;
  zo_event *events; int nevents, capevents; /* owned by the result */
} zo_step_result;

void zo_observation_free(zo_observation *o);
void zo_step_result_free(zo_step_result *r);

#endif
