/* case.h: a rule case as the loader gives it (internal): its players,
 * cards, zones, steps and expectations (cases/README.md). The case layer
 * parses and nothing more; checking a setup against a rule set's model is
 * run/load.c's. A zo_case from zo_case_parse_* or zo_case_load_* owns
 * every string it points to and is released with zo_case_free. */
#ifndef ZO_CASE_H
#define ZO_CASE_H

#include "ruleset.h"

/* ------------------------------------------------------------------ */
/* Cases                                                               */

#include "steps.def"

/* ZO_OBJECT_KINDS(X): X(id, name): what an object is (cases/README.md,
 * kind:), in the order fuzz inputs encode them. */
#define ZO_OBJECT_KINDS(X) \
  X(ZK_CARD, "card")       \
  X(ZK_TOKEN, "token")     \
  X(ZK_ABILITY, "ability") \
  X(ZK_COPY, "copy")       \
  X(ZK_MACRO, "macro")     \
  X(ZK_PROXY, "attack-proxy")

typedef enum { ZO_OBJECT_KINDS(ZO_ROW_ID) ZK_COUNT } zo_kind;
/* The kinds' words, by zo_kind; static storage. */
extern const char *const zo_kind_names[ZK_COUNT];
/* The word of kind k, or "?". */
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

/* ZO_CARD_KEYS(X): X(id, name): the keys of a starting card (cases/README.md,
 * cards:), in the order "expected one of" lists them; the ids index
 * zo_card_setup.at. */
#define ZO_CARD_KEYS(X)          \
  X(CK_OWNER, "owner")           \
  X(CK_ZONE, "zone")             \
  X(CK_KIND, "kind")             \
  X(CK_TYPES, "types")           \
  X(CK_SUBTYPES, "subtypes")     \
  X(CK_CONTROLLER, "controller") \
  X(CK_FACE, "face")             \
  X(CK_VISIBILITY, "visibility") \
  X(CK_POSITION, "position")     \
  X(CK_UNDER, "under")

enum zo_card_key { ZO_CARD_KEYS(ZO_ROW_ID) CK_COUNT };

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

/* The protocol features (steps.def, ZO_FEATURES); FT_NONE: none needed. */
typedef enum { FT_NONE = -1, ZO_FEATURES(ZO_ROW_ID) FT_COUNT } zo_feature;
/* The features' names, by zo_feature; static storage. */
extern const char *const zo_feature_names[FT_COUNT];
/* The name of feature f, or "?" (FT_NONE too). */
const char *zo_feature_name(zo_feature f);
/* The feature called name, or FT_NONE. */
zo_feature zo_feature_parse(const char *name);

/* The step kinds (steps.def, ZO_STEP_KINDS), in fuzz inputs' order. */
typedef enum { ZO_STEP_KINDS(ZO_ROW_ID) ST_COUNT } zo_step_kind;
/* The step kinds' words, by zo_step_kind; static storage. */
extern const char *const zo_step_kind_names[ST_COUNT];
/* The word of step kind k, or "?". */
const char *zo_step_kind_name(zo_step_kind k);
/* The step kind written name, or -1. */
int zo_step_kind_parse(const char *name);
/* The protocol feature every step of kind k needs, or FT_NONE. */
zo_feature zo_step_kind_feature(zo_step_kind k);

/* Whether a step of kind k may be a then:/do: step (steps.def). */
int zo_step_kind_nestable(zo_step_kind k);
/* The rule a step of kind k carries out, as the docs cite it (steps.def);
 * static storage. */
const char *zo_step_kind_rule(zo_step_kind k);
/* 1 when the fuzz generator makes steps of kind k from their options alone
 * (steps.def, generated; gen/decoder_gen.c). */
int zo_step_kind_generated(zo_step_kind k);

/* ZO_OPTION_TYPES(X): X(id, word, what): the types of a step's options
 * (steps.def, the O(...) of each row): how the loader reads one, the
 * printer writes it, the generator makes it; `word` is its name in
 * `zoneoracle steps`, `what` how errors and docs call it. Several fill
 * more than the one field their row names (the list's count, a pair's
 * second half): said here. */
#define ZO_OPTION_TYPES(X)                                                                    \
  X(OT_CARD, "card", "a handle")              /* card: of card:/ref:; int */                 \
  X(OT_REF, "ref", "a reference")             /* a remember: name; int */                    \
  X(OT_HANDLE, "handle", "a handle")          /* int */                                      \
  X(OT_CARD_OR_ANY, "handle_or_any", "a handle or any") /* card, and replace_any */          \
  X(OT_HANDLES, "handles", "a list of handles") /* order_zone_handles and norder */          \
  X(OT_PLAYER, "player", "a player")          /* int */                                      \
  X(OT_ZONE, "zone", "a zone")                /* zo_zone_spec */                             \
  X(OT_POSITION, "position", "top, bottom or an index from the top") /* int, ZO_POS_* */    \
  X(OT_FACE, "face", "up or down")            /* int: 0 up, 1 down */                        \
  X(OT_BOOL, "bool", "true or false")         /* int */                                      \
  X(OT_CHOOSE, "choose", "1..16")             /* int */                                      \
  X(OT_AMOUNT, "count", "0..1000")            /* int */                                      \
  X(OT_SEED, "seed", "0..2147483647")         /* uint64_t */                                 \
  X(OT_CAUSE, "cause", "a word")              /* char[ZO_NAME] */                            \
  X(OT_TYPES, "types", "a list of type words") /* uint64_t bits, or'ed */                    \
  X(OT_KIND, "kind", "an object kind")        /* zo_kind */                                  \
  X(OT_MARK_KIND, "mark_kind", "a kind of mark") /* zo_mark_kind */                          \
  X(OT_CATEGORY, "category", "a replacement category") /* zo_repl_category */                \
  X(OT_UNTIL, "until", "end_of_turn or next_turn") /* int, ZO_UNTIL_* */                        \
  X(OT_NEW_HANDLE, "new_handle", "a new handle") /* as: int */                               \
  X(OT_NEW_TRIGGER, "new_trigger", "a new trigger name")                                     \
  X(OT_NEW_REF, "new_ref", "a new reference name")                                           \
  X(OT_NEW_REPLACEMENT, "new_replacement", "a new replacement name")                         \
  X(OT_NEW_MARK, "new_mark", "a new mark name")                                              \
  X(OT_TRIGGER, "trigger", "a trigger name")  /* int */                                      \
  X(OT_REPLACEMENTS, "replacements", "a list of replacement names") /* as OT_HANDLES */      \
  X(OT_BY_RULE, "by_rule", "effect or rule")  /* int: 1 rule */                              \
  X(OT_BY_EFFECT, "by_effect", "player or effect") /* int: 1 effect */                       \
  X(OT_SHUFFLE, "shuffle", "true, false or the resulting order") /* int; a list: as HANDLES */ \
  X(OT_PHASE_OUT, "phase", "out")             /* int: 1 out */                               \
  X(OT_STEP, "step", "one step")              /* zo_step *, owned */                         \
  X(OT_STEPS, "steps", "a list of steps")     /* zo_step * and ncosts, owned */              \
  X(OT_MOVES, "moves", "a list of moves")     /* zo_step * and nmoves, owned */              \
  X(OT_ORDER, "order", "{zone: [handles]}")   /* order_zone; its handles as HANDLES */      \
  X(OT_WHEN, "when", "{to, from, cause}")     /* when_to, when_from, when_cause */          \
  X(OT_INSTEAD, "instead", "move options")    /* then: a move, owned */
typedef enum { ZO_OPTION_TYPES(ZO_ROW_ID) OT_COUNT } zo_option_type;
/* The words of the option types, by zo_option_type; static storage. */
extern const char *const zo_option_type_names[OT_COUNT];

/* An option's flags (steps.def, O(...)). */
enum {
  OPT_REQ = 1,      /* required (a "needs key:" error without it) */
  OPT_TOP = 2,      /* not in a then:/do: step (nor instead:, moves:) */
  OPT_NONEMPTY = 4, /* a list with at least one item */
  OPT_UNIQUE = 8,   /* a list naming each handle once (and not card:) */
  OPT_OUTSIDE = 16, /* a zone that may be `outside` */
  OPT_ANY = 32,     /* a zone that may be `any`, which it is when left out */
  OPT_ARENA = 64,   /* a zone that may be `arena` (FaB) */
  OPT_OBJECT = 128  /* card: of a card:/ref: pair, one of which is required
                       unless the step is nested (then neither is allowed) */
};

/* One option of a step kind (steps.def): static storage. */
typedef struct {
  const char *key;      /* its word in a case file */
  zo_option_type type;
  size_t offset;        /* of the zo_step field it fills */
  unsigned flags;       /* OPT_* */
  const char *hint;     /* after "needs key:" in errors, "" or " (...)" */
  zo_feature feature;   /* what a step giving it needs (OF), or FT_NONE */
} zo_step_option;

/* The options of step kind k, in its row's order; *n of them (0: none).
 * Static storage. */
const zo_step_option *zo_step_options(zo_step_kind k, size_t *n);
/* The option of kind k written key, or NULL. */
const zo_step_option *zo_step_option_find(zo_step_kind k, const char *key);

/* zo_step.shuffle when the step gives the shuffle's result (top first). */
#define ZO_SHUFFLE_ORDER 2

/* zo_step.until: how long a mark's or control's effect lasts (CR 611.2a,
 * 418.3a of 1999/2004: without a duration, until the game ends);
 * ZO_UNTIL_END_OF_TURN: until the end_turn step (CR 514.2, 314.2);
 * ZO_UNTIL_NEXT_TURN: until the next turn of the player zo_step.turn_of
 * names begins (its untap step), or, that player having left the game,
 * until that turn would have begun (CR 800.4m). */
#define ZO_UNTIL_NONE 0
#define ZO_UNTIL_END_OF_TURN 1
#define ZO_UNTIL_NEXT_TURN 2

#define ZO_POS_TOP (-1)
#define ZO_POS_BOTTOM (-2)

/* The kinds of mark (steps.def, ZO_MARK_KINDS). */
typedef enum { ZO_MARK_KINDS(ZO_ROW_ID) MK_COUNT } zo_mark_kind;
/* Their words, by zo_mark_kind; static storage. */
extern const char *const zo_mark_kind_names[MK_COUNT];

/* The categories of replacement effect (steps.def, ZO_REPL_CATEGORIES). */
typedef enum { ZO_REPL_CATEGORIES(ZO_ROW_ID) RC_COUNT } zo_repl_category;
/* Their words, by zo_repl_category; static storage. */
extern const char *const zo_repl_category_names[RC_COUNT];

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
  int by_rule;         /* move: by: rule (FaB 3.0.11: a rule clears) */
  int by_effect;       /* reorder: by: effect, an effect rearranges the zone
                          (CR 400.5); 0: a player does (by: player) */
  char cause[ZO_NAME];
  int choose;          /* 1-based, 0 unset */
  int shuffle;         /* move: 1 shuffle the destination; ZO_SHUFFLE_ORDER (move
                          and shuffle steps): into order_zone_handles' order */
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
  int attach_to;       /* attach: the handle it is attached to */
  int attach_player;   /* move attached_to_player: the player an Aura enters
                          the battlefield attached to (CR 303.4f), -1 none */
  int aura;            /* watch: the Aura whose trigger on the permanent it
                          enchants leaving this is, which it finds (CR
                          400.7f, 603.6e); -1: an ordinary watch */
  zo_mark_kind mark_kind;
  int replace_any;     /* replace: card any */
  zo_zone_spec when_to, when_from;
  char when_cause[ZO_NAME];
  zo_repl_category repl_category; /* replace: category (RC_OTHER unwritten) */
  int until;           /* mark (kind effect), control: ZO_UNTIL_* (G4) */
  int turn_of;         /* mark, control with until: next_turn: the player
                          whose next turn ends the effect (-1 unwritten) */
  zo_expect *expect;
  char *json;          /* the step as written, as JSON (protocol), or NULL */
  /* issue 12: `player` is also the performing player of a move,
     move_together or reorder (-1 not written); order_by: who arranged
     move_together's order (-1 not written); end: reveal: end: true */
  int order_by;
  int end;
  /* create: copy_of: the reference (index) whose object the token copies,
     -1 none; lki: 1 when the effect uses that object's last known
     information, so the token is made even if the object is gone (CR
     111.12) */
  int copy_of, lki;
  /* move: costs: the steps done while the card is being cast, after it
     moved to the stack and before the spell becomes cast (CR 601.2a-h,
     401.5); replace_draw: instead: the steps done instead of the draw (CR
     614.11; may be none); as_enters: steps: those done as the card enters
     the battlefield, before it does (614.13). Owned, ncosts of them, each a step of a nestable
     kind that names its own object */
  struct zo_step *costs;
  int ncosts;
  /* replace_draw: once: 1 when it replaces only the player's next draw
     (then ends), 0 every draw while in force */
  int once;
  /* watch: phase: out: 1 when the trigger is on the object phasing out
     (CR 603.10b), not on a zone change */
  int on_phase;
} zo_step;

/* The player whose library's top card a reveal step reveals for good
 * (`reveal: {top_of: PLAYER}`, kept in s->player; CR 401.5, 401.6), or -1
 * for any other step, a reveal of an object included. Reads only. */
static inline int zo_reveal_top_of(const zo_step *s) {
  return s->kind == ST_REVEAL && s->card < 0 && s->ref < 0 ? s->player : -1;
}

/* ZO_OBJ_EXPECT_KEYS(X): X(id, name): the properties an expectation may
 * name of one object (cases/README.md, Expectations), in the order
 * "expected one of" lists them; a row's place is its bit in
 * zo_obj_expect.mask (id) and its index in zo_obj_expect.lines. */
#define ZO_OBJ_EXPECT_KEYS(X)    \
  X(OX_ZONE, "zone")             \
  X(OX_EXISTS, "exists")         \
  X(OX_NEW, "new_object")        \
  X(OX_SAME_AS, "same_as")       \
  X(OX_POSITION, "position")     \
  X(OX_VISIBILITY, "visibility") \
  X(OX_FACE, "face")             \
  X(OX_CONTROLLER, "controller") \
  X(OX_OWNER, "owner")           \
  X(OX_MARKS, "marks")           \
  X(OX_UNDER, "under")           \
  X(OX_PHASED, "phased_out")     \
  X(OX_CAME_FROM, "came_from")   \
  X(OX_LAYER, "layer")           \
  X(OX_ATTACHED_TO, "attached_to")     \
  X(OX_ATTACHED_TO_PLAYER, "attached_to_player")

#define ZO_OX_INDEX(id, name) id##_INDEX,
enum { ZO_OBJ_EXPECT_KEYS(ZO_OX_INDEX) OX_COUNT };
#undef ZO_OX_INDEX
/* The bit of each property (OX_ZONE = 1 << OX_ZONE_INDEX...). */
#define ZO_OX_BIT(id, name) id = 1 << id##_INDEX,
enum { ZO_OBJ_EXPECT_KEYS(ZO_OX_BIT) };
#undef ZO_OX_BIT
/* The properties' keys, by bit index; static storage. */
extern const char *const zo_obj_expect_keys[OX_COUNT];

typedef struct {
  int line, col;   /* of the value being compared */
  int handle;
  unsigned mask;
  char zone[48];
  int exists, is_new, same_as, position, visibility, face, controller, owner,
      under, phased, layer;
  int attached_to;  /* handle or -1 (null) */
  int attached_to_player; /* player or -1 (null): the player an Aura enchants
                             (CR 303.4b) */
  char came_from[48];
  int came_from_null;
  char **marks; int nmarks;
  int lines[OX_COUNT]; /* line of each named property (by bit index) */
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
  int cards_json_placed;            /* cards_json gives each card's position in
                                       an ordered zone (zo_fuzz_jsonify): a
                                       setup request sends it as it is */
};

/* Set every field of s to its "not given" value (card -1, position top...). */
void zo_step_init(zo_step *s);
/* zo_step_init, then the defaults of kind k's options: the kind set, and a
 * zone that may be `any` (OPT_ANY, when:) `any` (what the loader starts a
 * step from, and the printer leaves out). */
void zo_step_defaults(zo_step *s, zo_step_kind k);
/* Whether step s gives option o: its field differs from its default, in d
 * (zo_step_defaults of s's kind). */
int zo_step_option_given(const zo_step *s, const zo_step *d, const zo_step_option *o);
/* The protocol features step s of case c needs (ci/protocol/PROTOCOL.md,
 * Features), as bits 1 << zo_feature, the finest that apply: its kind's
 * (a mark: its kind's part of marks; a phase: phasing.tokens for a token,
 * else phasing.permanents; a state_check: the parts of state_check the
 * case's objects and steps can call on), face_down for `face: down`,
 * visibility for a `visible` expectation, stack_layers for a `layer`
 * one, and those of its then:/do: step. 0 when it needs none. */
uint64_t zo_case_step_features(const zo_case *c, const zo_step *s);
/* The whole feature part f belongs to ("marks" for "marks.counter"), or
 * FT_NONE when f is a whole. */
zo_feature zo_feature_whole(zo_feature f);
/* The protocol version from which feature f's whole declares it (steps.def,
 * `since`): 1 or 2; 1 for FT_NONE. */
int zo_feature_since(zo_feature f);
/* The features (bits 1 << FT_x) an engine declares, read through its
 * has(self, name, 0) (engine.h; NULL: every feature) when it speaks zcp
 * version `protocol` (1 or 2): a feature it names, and each part of a
 * whole it names whose since is at most `protocol` (PROTOCOL.md, Features
 * and Versions). Reads only. */
uint64_t zo_features_declared(int (*has)(void *self, const char *what, int ruleset), void *self,
                              int protocol);

/* What an engine's game can hold, as it says in hello (`capabilities`,
 * zcp/2; PROTOCOL.md 7.1): a case or a generated game outside it is never
 * sent (a skip naming what it lacks). Plain data; the zone names belong to
 * whoever filled it (the engine, until it restarts or is freed). */
typedef struct zo_capabilities {
  unsigned players;       /* bit n: games of n players; 0: any number */
  const char *const *zones; /* the zone types it has, by name ("outside":
                             objects outside the game, CR 400.11); NULL:
                             every zone type */
  int nzones;
  unsigned kinds;         /* bit zo_kind: the kinds of object it represents
                             (card, token, ability, copy...); 0: every kind */
  const char *const *face_down; /* the zone types where it keeps objects face
                                   down; NULL: every zone type */
  int nface_down;
} zo_capabilities;

/* Whether cap has zone type `name` (NULL cap or zones: every one). */
int zo_capabilities_zone(const zo_capabilities *cap, const char *name);
/* Whether cap keeps objects face down in zone type `name` (NULL cap or
 * face_down: in every one). */
int zo_capabilities_face_down(const zo_capabilities *cap, const char *name);
/* Why case c does not fit cap (NULL: anything fits): its number of
 * players, a zone type it names (a card's zone, a step's, an expectation's;
 * "outside" for a card or step outside the game), a kind of object it has
 * (setup or create), or a face-down card in the setup or a move or create
 * face down into a zone type that cap lacks, as a sentence written into
 * buf (n bytes), which is returned; NULL when it fits. Reads only. */
const char *zo_case_capability_gap(const zo_case *c, const zo_capabilities *cap, char *buf, size_t n);

/* Parse one step (YAML or JSON text) in case c's context and append it to
 * c->steps (names it introduces join c). ZO_OK or an error (file "step"). */
zo_status zo_case_append_step(zo_case *c, const char *text, size_t len, zo_error *err);
struct json_t;
/* The same from a parsed JSON value (jansson json_t *): no reparsing. */
zo_status zo_case_append_step_json(zo_case *c, struct json_t *step, zo_error *err);
/* Intern every zone type and every own type word of rs into c (before
 * building a game that later steps extend). */
void zo_case_add_zone_types(zo_case *c, const zo_ruleset *rs);


/* Bit of word for case c (vocabulary or c's own words), or 0: looks up only. */
uint64_t zo_case_type_bit(const zo_case *c, const char *word);
/* Bits of rule set rs (vocabulary bits and rs's own words) as case c's bits:
 * a word of rs that c never writes has no bit in c (no object of c has it). */
uint64_t zo_type_bits_for_case(const zo_ruleset *rs, const zo_case *c, uint64_t rs_bits);

/* Parse a case file: YAML syntax and the case language (cases/README.md),
 * with names resolved against the rule sets the case names; the starting
 * position is not checked against any model (zo_case_load_file does that).
 * On success *out is the caller's (zo_case_free); on error nothing is
 * returned and err names file:line:column and what was expected. */
zo_status zo_case_parse_file(const char *path, zo_case **out, zo_error *err);
/* The same from memory; `name` is used in messages. */
zo_status zo_case_parse_mem(const char *name, const char *text, size_t len,
                            zo_case **out, zo_error *err);
/* The same from a JSON document (a case as JSON, as `serve` builds one
 * from a zcp setup request; JSON is YAML, so the loader is the same and
 * no text is printed or parsed): doc is only read; `name` is used in
 * messages, whose line and column are 1:1. The case is an engine's, never
 * sent on: its cards_json and steps' json are NULL. */
struct json_t;
zo_status zo_case_parse_json(const char *name, struct json_t *doc, zo_case **out, zo_error *err);

#endif
