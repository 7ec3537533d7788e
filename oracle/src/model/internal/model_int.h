/* model_int.h: the model's state (private to model/, and to white-box
 * tests and harnesses), and what the model's rooms share. See model.h for
 * what others may call.
 *
 * The reference model of the zone rules (the oracle): a game is a rule set
 * (zone types + switches, rules/) applied to a case's starting position.
 * Objects are the case's handles: a handle names one physical card, token
 * or ability through its successive existences; each existence has a fresh
 * identity (`id`), so "became a new object" is an id change (CR 400.7, FaB
 * 3.0.9) and ids are never reused (fresh-ids). Every switch or zone
 * attribute the model applies counts a hit on the rules it cites (hit,
 * HITSW); that is the rule coverage the reports show.
 *
 * The model is one room per job:
 *   setup.c      a case's starting position -> a game; zo_game_free
 *   zones.c      zone instances: find, resolve a destination, what refuses
 *                an object; zone_create/zone_remove, reorder, shuffle
 *   move.c       THE zone change (CR 400.6; FaB 3.0.7-3.0.11), then:, the
 *                steps that move several objects (move_together, draw, mill),
 *                and zo_game_apply_to (a move inlined, the rest dispatched)
 *   objects.c    identity's companions: marks, cease, clear (FaB 3.0.12),
 *                create, mark
 *   attach.c     FaB sub-cards (3.0.14) and two-handed equipment (8.2.2)
 *   attached.c   Auras, Equipment and Fortifications attached to permanents
 *                (CR 301.5, 303.4, 704.5m-n; indirect phasing, 702.26g)
 *   replace.c    replacement effects (CR 616.1; FaB 6.5)
 *   triggers.c   watches, finding an object again, references
 *   status.c     control, phasing, turning face up/down, end of game
 *   sba.c        state-based actions (CR 704)
 *   steps.c      zo_game_apply/_again; one step kind -> its room
 *   visibility.c who sees what (CR 400.2; FaB 3.0.3)
 *   observe.c    observations and rule hits; observation.c frees them
 *   check.c      the invariants (fuzz/INVARIANTS.md)
 *
 * Without link-time optimisation a call between files is never inlined, so
 * everything the common move executes is a `static inline` here (a zone's
 * list, identity, the destination's fast path, events, rule hits); what it
 * does not execute lives in its room behind the guards that skip it
 * (g->nactive_repl, g->ntrig, g->nmarks, g->has_subs, a two-handed type). */
#ifndef ZO_MODEL_INT_H
#define ZO_MODEL_INT_H

#include "holds.h"
#include "model.h"
#include "types.h"
#include "util.h"

/* A function the common move never calls: kept out of its way. And one
 * that must be inlined where it is used (the move into zo_game_apply_to). */
#if defined(__GNUC__)
#define ZO_COLD __attribute__((cold, noinline))
#define ZO_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ZO_COLD
#define ZO_ALWAYS_INLINE inline
#endif

/* One zone instance: a zone type, its player (-1 shared) and index.
 * 48 bytes, so an index into the zone table is cheap (the move's hot path). */
typedef struct {
  int type, player, index, exists;
  int n;                 /* objects listed */
  int twoh;              /* FaB 8.2.2: 2H object equipped here, not occupying */
  int *objs;             /* [0] = top; a slice of zo_game.pool */
  const zo_zone_type *zt;/* its type (rule set storage) */
  /* copied from zt for the hot path */
  char arena, stack;
  char keeps;            /* zt->keeps (CR 400.4b) */
  char plain;            /* no holds limits (other than 400.4a's) and no
                            capacity: only the owner test of an owner-only
                            zone is left to do */
  char owner_only;       /* zt->owner_only, for a per-player instance */
  char pub, ordered, controller; /* zt's pub, ordered and controller values */
} zo_zone;

typedef struct {
  int exists;
  zo_kind kind;
  int owner, controller;
  int zone;            /* zone instance, ZO_ZONE_OUTSIDE, -1 none */
  uint64_t types;
  int face_down, pub, phased_out;
  uint64_t id;         /* identity of the current object */
  int under;           /* top-card handle (FaB sub-card), -1 */
  int left_arena;      /* a token that left the battlefield (CR 110.5g) */
  int came_from;       /* FaB 3.0.9c: zone it came from as it became new */
  int phase_controller;/* controller it phased out under (CR 502.15h) */
  /* issue 12 (perform.c): players allowed to look at it (bit per player,
     G5) and whether it is revealed (G7), each while it is the object
     (look_id, reveal_id) in the zone (look_zone, reveal_zone) it was */
  unsigned look_mask;
  uint64_t look_id, reveal_id;
  int look_zone, reveal_zone, revealed;
  /* CR 401.6: its identity when it stopped being the revealed top card of
     a library (reveal top_of:), 0 if it never did */
  uint64_t top_hid_id;
  /* its last arrival in a zone: the step (g->nsteps then), and whether a
     state check put it there (CR 400.7f: the unattached-Aura action) */
  int arrived_step, arrived_by_check;
  /* CR 400.7k: the identity it had in exile when the madness trigger put
     it into a public zone (a move with cause madness), and the identity it
     got there; 0 when that never happened */
  uint64_t madness_from, madness_id;
  /* attachments (attached.c; CR 301.5, 303.4): the handle an attach step
     attached it to (-1 none), that object's identity then and its own; the
     attachment holds while both are still those objects (CR 400.7) */
  int attached;
  uint64_t attached_id, attach_self;
  /* an Aura attached to a player (attach to_player:, CR 303.4b): 1 + that
     player, 0 none (so a zeroed object is attached to no player); it holds
     while the Aura is still the object attach_self names and the player is
     in the game (CR 400.7, 701.3d); attached is -1 meanwhile */
  int attached_player;
  int phased_with;     /* CR 702.26g: the handle it phased out indirectly with, -1 */
  /* zcp/1's meaning of control durations, kept only to tell when a case
     relies on control_effects (durations.c): a control effect "until end
     of turn" on this object (CR 514.2), in force while ctrl_until and
     ctrl_until_id == id; ctrl_base: the controller it returned to */
  int ctrl_until, ctrl_base;
  uint64_t ctrl_until_id;
  /* CR 110.2: the player who controls it by default (under whose control
     it came into a zone with controllers: set-up, creation, arrival), not
     by a control effect; -1 none. A player leaving the game takes back
     what effects gave them (800.4a) */
  int ctrl_default;
  /* CR 702.26a, 702.26n: the player who controlled it as it phased out
     (the untap step it phases in during), -1 */
  int phased_under;
} zo_obj;

typedef struct {
  int armed, fired, resolved, found;
  int obj, from, to;   /* from/to: case zone types or ZO_ZT_ANY */
  int from_player, to_player; /* -1: any player's zone of that type */
  int from_index, to_index;   /* 0: any zone of that type and player */
  uint64_t types;
  uint64_t id; int zone, pub_at_arrival, controller;
  char cause[ZO_NAME]; /* G8: only a move with this cause ("": any) */
  int aura;            /* the Aura whose trigger it is (CR 400.7f), -1 */
  int on_phase;        /* a trigger on phasing out (CR 603.10b), not on a move */
  int fired_step;      /* the step it fired in (g->nsteps then) */
  int fired_discard;   /* it fired on a discard (cause discard; CR 400.7k) */
} zo_trigger;

typedef struct { int set, obj; uint64_t id; } zo_ref;

typedef struct {
  int active, any, obj;
  int when_to, when_to_player, when_from;
  int when_from_player;        /* -1: any player's */
  int when_to_index, when_from_index; /* 0: any of that type and player */
  char when_cause[ZO_NAME];
  const zo_step *instead;
  zo_repl_category category;  /* which must apply first (replace_order) */
  /* a draw replacement (replace_draw, CR 614.11): it replaces `player`'s
     draws, each by the steps of `draw` (the case's step); once: only the
     next; suspended while its own steps run, so no draw among them is
     replaced by it again (614.5) */
  int draw, player, once, suspended;
  const zo_step *draw_steps; int ndraw_steps; /* the step's list (owned by
                                                 the case, never moved) */
} zo_replacement;

/* A "can't" effect in force (a cant step, CR 614.17): its terms, copied
 * (a server's case grows its step array as steps come, so no pointer into
 * it is kept). */
typedef struct {
  int any, obj;                /* any object, or handle obj */
  zo_zone_spec to, from;       /* the moves it names */
  char cause[ZO_NAME];         /* "": any cause */
  uint64_t types;              /* 0: any types */
  int drawer;                  /* -1, or: the player can't draw (cant draw:,
                                  CR 121.3), and it names each move with
                                  cause draw from that player's library to
                                  their hand, which is a draw (121.1) */
} zo_cant;

/* A mark on object obj (a mark step); until: ZO_UNTIL_* (G4), until_of:
 * with ZO_UNTIL_NEXT_TURN, the player whose next turn ends it (800.4m). */
typedef struct { int alive, obj; zo_mark_kind kind; int until, until_of; } zo_mark;

/* A control effect (a control step; CR 613.1b, layer 2): it gives player
 * control of object obj while obj is the object it was given for (id: an
 * object that changes zones is new, 400.7; carried to the permanent a
 * spell becomes where keeps_control says so, 400.7a), until the end_turn
 * step if until is ZO_UNTIL_END_OF_TURN (514.2), until player until_of's
 * next turn begins if ZO_UNTIL_NEXT_TURN (800.4m: or would have begun),
 * else for the rest of the game (611.2a), and only while player is in the
 * game (800.4a). g->ctrls holds those in force in timestamp order: the
 * latest decides (613.7). */
typedef struct {
  int obj, player, until, until_of;
  uint64_t id;
} zo_ctrl_effect;

struct zo_game {
  const zo_ruleset *rs;
  const zo_case *c;
  int *zmap;                 /* case zone type -> rule set zone index */
  int hand_slot, graveyard_slot, exile_slot;
  zo_zone *zones; int nzones, capzones;
  int *pool;                 /* every zone's object list, nobjs+1 each */
  int multi[ZO_MAX_PLAYERS][ZO_MAX_ZONE_TYPES];
  zo_obj *objs; int nobjs;
  uint64_t next_id;
  zo_trigger *trig; int ntrig;
  zo_ref *refs; int nrefs;
  zo_replacement *repl; int nrepl; int *repl_order;
  zo_mark *marks; int nmarks;
  /* "can't" effects in force (cant steps, CR 614.17), in the order they
     came; the steps are the case's (g->c outlives g), the array g's */
  zo_cant *cants; int ncants, capcants;
  /* the players who can't draw (cant draw:, CR 121.3), a bit each */
  unsigned cant_draw;
  /* control effects in force, in timestamp order (zo_ctrl_effect; g's) */
  zo_ctrl_effect *ctrls; int nctrls, capctrls;
  /* as-enters effects in force (as_enters steps, CR 614.13): the card's
     handle and its steps (the case's, never moved); the objects entering
     the battlefield in the event being done and those an as-enters effect
     of that event has moved (a byte per object, g's, made on first use);
     in_etb while such steps run */
  struct zo_etb { int card; const zo_step *steps; int nsteps; } *etb;
  int netb, capetb;
  unsigned char *entering, *etb_chosen;
  int in_etb;
  int drew_empty[ZO_MAX_PLAYERS], lost[ZO_MAX_PLAYERS];
  /* players who left the game (leave_game, CR 800.4a), how many; left_due:
     a departed player whose next turn has not yet come round (702.26n);
     turn_player: whose turn it is (the first player's at the start, then
     the player of the last untap step) */
  unsigned char left[ZO_MAX_PLAYERS], left_due[ZO_MAX_PLAYERS];
  int nleft, turn_player;
  int cards_left;            /* cards that left the game with their owner (800.4a) */
  int *hits;                 /* per rule of rs (computed by zo_game_hits) */
  /* protocol features whose meaning a step of this game relied on, beyond
     what its options show (bits 1 << zo_feature: together_order,
     marks.refused; zo_game_features_used) */
  uint64_t features_used;
  int *slot_hits;            /* per citation of rs (counted by the model) */
  int nsteps, ncards_start;
  int ended;                 /* end_game happened (ante ownership changed) */
  /* CR 401.5-401.6 (reveal top_of:): the players who play with the top
     card of their library revealed (a bit each), and per player 1 + the
     object shown on top after the last step (0: none) */
  unsigned top_revealed;
  int top_shown[ZO_MAX_PLAYERS];
  /* derived, to keep a move cheap (the fuzzers' inner loop) */
  int nactive_repl;          /* replacement effects in force */
  int has_subs;              /* some object is or was a sub-card */
  int zones_changed;         /* zone_create/zone_remove happened, or some
                                zone type has seats: (issue 31) */
  int has_attach;            /* an attach step happened (attached.c) */
  const zo_step *together;   /* the move_together under way, whose members
                                move at once (NULL otherwise) */
  int first_zone[ZO_MAX_ZONE_TYPES]; /* first instance of each type at set-up */
  zo_type_classes classes;   /* the type classes the rules read (rules/types.h) */
  /* per zone type of rs: its equip:/keeps: words as the case's type bits
     (the rule set's own words mapped onto the case's, set-up) */
  uint64_t equip_types[ZO_MAX_ZONE_TYPES], keep_types[ZO_MAX_ZONE_TYPES];
  uint64_t only_types[ZO_MAX_ZONE_TYPES]; /* holds_types:, in the case's bits */
  /* limits: (issue 31), each limit's types in the case's bits */
  uint64_t limit_types[ZO_MAX_ZONE_TYPES][ZO_MAX_LIMITS];
  /* at_index: (issue 31), each entry's types in the case's bits */
  uint64_t at_types[ZO_MAX_ZONE_TYPES][ZO_MAX_AT_INDEX];
  /* face_up_only: (issue 31), in the case's bits */
  uint64_t face_up_types[ZO_MAX_ZONE_TYPES];
  /* seats: (issue 31): some zone type only some players have */
  int has_seats;
  /* instead: (issue 31), each entry's types in the case's bits, and
     whether any zone type of rs has an entry (the move skips it else) */
  uint64_t instead_types[ZO_MAX_ZONE_TYPES][ZO_MAX_INSTEAD];
  int has_instead;
  int has_group;             /* some zone type is in a group (group:) */
  int has_clears;            /* some zone type clears marks (clears:) */
  /* ceases_empty (issue 31): per zone instance, ZONE_MADE (zone_create
     made it, of a type that ceases empty) and ZONE_HELD (an object has
     been seen in it since); nzone_life of them, 0 beyond; has_ceasing: a
     zone that may cease exists */
  unsigned char *zone_life;
  int nzone_life, has_ceasing;
  /* a private slot (case zone type past the case's) that names, for the
     move being made, the zone type a displaced object goes to (displace:) */
  int displace_slot;
  /* scratch sized from the game, so that no count has a fixed limit and a
     step allocates nothing (owned by g): repl_used[nrepl] marks the
     replacement effects one move has used (replace.c) or one choice has
     named; zone_scratch[capzones] lists the instances of a zone type
     (zones.c), grown with the zone table; order_scratch[3 * order_cap] the
     arrivals of a move_together in one zone, their positions and the
     step's arrival flags, one per move (move.c),
     grown to a step's moves and order */
  unsigned char *repl_used;
  int *zone_scratch;
  int *order_scratch; int order_cap;
  /* zo_game_check's scratch, kept from one check to the next so that a
     check after every step allocates nothing and stays linear in objects
     (owned by g, freed by zo_game_free): listed[nobjs] counts each
     object's listings; id_stamp[id] == id_gen marks an identity already
     seen in the current check (fresh-ids), for ids 0..id_cap-1 */
  unsigned char *chk_listed;
  unsigned *id_stamp;
  size_t id_cap;
  unsigned id_gen;
};

/* ---- hot helpers (the common move executes these) ------------------- */

/* The model applied a cited attribute or switch: count it (rule hits are
 * derived from these counters by zo_game_hits). */
static inline void hit(zo_game *g, const zo_cited *c) { g->slot_hits[c->slot]++; }
#define SW(g, s) ((g)->rs->sw[s].value)
#define HITSW(g, s) hit(g, &(g)->rs->sw[s])

/* What a move naming another player's owner-only zone of type zt does
 * (issue 31): the zone type's own wrong_owner: where written, else the
 * switch's (ZS_REDIRECT, or anything else: the zone refuses it). Counts
 * the one that decided; a zone type's own value that differs from the
 * switch's marks the game as using the feature zone_rules. */
static inline int zo_zone_wrong_owner(zo_game *g, const zo_zone_type *zt) {
  if (!zt->wrong_owner.value) {
    HITSW(g, SW_WRONG_OWNER);
    return SW(g, SW_WRONG_OWNER);
  }
  hit(g, &zt->wrong_owner);
  if ((zt->wrong_owner.value == ZS_REDIRECT) != (SW(g, SW_WRONG_OWNER) == ZS_REDIRECT))
    g->features_used |= (uint64_t)1 << FT_ZONE_RULES;
  return zt->wrong_owner.value;
}

/* at_index: (issue 31): whether zone `zone` may not hold obj because an
 * entry of its type's at_index: names obj's types and not the zone's
 * index (the entry's index, or -1: none refuses). */
int zo_zone_at_index_refusing(const zo_game *g, int zone, int obj);

/* face_up_only: (issue 31): whether obj can't be face down in a zone of
 * type `type` (its types, or a token where the list has `token`); counts
 * the citation and the feature zone_rules when it can't. */
int zo_face_up_only(zo_game *g, int type, int obj);

/* The zone type of zone instance `zone` (>= 0). */
static inline const zo_zone_type *ZT(const zo_game *g, int zone) { return g->zones[zone].zt; }

/* Append the event (handle, o) to r (when r is not NULL); r's buffer grows
 * by doubling and is owned by r. */
static inline void event(zo_step_result *r, int handle, zo_outcome o) {
  if (!r) return;
  if (r->nevents == r->capevents) {
    r->capevents = r->capevents ? r->capevents * 2 : 8;
    r->events = zo_xrealloc(r->events, (size_t)r->capevents * sizeof *r->events);
  }
  r->events[r->nevents].handle = handle;
  r->events[r->nevents].outcome = o;
  r->nevents++;
}

/* Append sub's events to r, in order (a nested step's: then:, do:, costs:,
 * what phases with a permanent). sub stays the caller's to free. */
static inline void take_events(zo_step_result *r, const zo_step_result *sub) {
  for (int i = 0; i < sub->nevents; i++) event(r, sub->events[i].handle, sub->events[i].outcome);
}

/* Apply nested step s to object obj (-1: its own card) and append its
 * events to r: a then:, a cost, a rule's move, a draw replacement's
 * steps. Its outcome is not r's. */
static inline void nested_step(zo_game *g, const zo_step *s, int obj, zo_step_result *r) {
  zo_step_result sub = {0};
  zo_game_apply_to(g, s, obj, &sub);
  take_events(r, &sub);
  zo_step_result_free(&sub);
}

/* Whether reference ref (an index) still finds the object it saw: that
 * object exists and is still the object it was (CR 400.7). */
static inline int ref_finds(const zo_game *g, int ref) {
  const zo_ref *rf = &g->refs[ref];
  return rf->set && g->objs[rf->obj].exists && g->objs[rf->obj].id == rf->id;
}

static inline int is_arena(const zo_game *g, int zone) {
  return zone >= 0 && g->zones[zone].arena;
}

static inline int is_stack(const zo_game *g, int zone) {
  return zone >= 0 && g->zones[zone].stack;
}

/* Is object o a token (holds.h)? */
static inline int is_token(const zo_game *g, const zo_obj *o) {
  return zo_holds_is_token(&g->classes, (int)o->kind, o->types);
}

/* Whether o has one of the type words `want` (a limit's types: issue 31),
 * the word `token` naming every token, whatever its kind (as for
 * face_up_only: a Yu-Gi-Oh! Monster Token). */
static inline int has_kind_of(const zo_game *g, const zo_obj *o, uint64_t want) {
  return (o->types & want) || ((want & g->classes.token) && is_token(g, o));
}

/* Does zone type zt refuse o whoever owns it (holds.h; CR 400.4a; FaB
 * 3.0.11: deck-cards, permanents, heroes, equipment of its kind)? */
static inline int cannot_hold(const zo_game *g, const zo_zone_type *zt, const zo_obj *o) {
  return zo_holds_refusal(&g->classes, zt, (int)o->kind, o->types,
                          g->equip_types[zt - g->rs->zones], g->only_types[zt - g->rs->zones]) != 0;
}

/* The object becomes a new object: a fresh identity, never reused (CR
 * 400.7, FaB 3.0.9; fresh-ids). */
static inline void new_identity(zo_game *g, int obj) {
  g->objs[obj].id = ++g->next_id;
}

/* ---- zone lists --------------------------------------------------- */

/* Put obj into zone's list at pos (ZO_POS_TOP, ZO_POS_BOTTOM or an index;
 * past the end is the bottom, CR 401.8) and make it its zone. Never
 * allocates: every list holds every object (g->pool). */
static inline void zone_insert(zo_game *g, int zone, int obj, int pos) {
  zo_zone *z = &g->zones[zone]; /* its list holds every object (g->pool) */
  if (pos == ZO_POS_BOTTOM || pos > z->n) pos = z->n; /* 401.8: past the end = bottom */
  if (pos < 0) pos = 0;                              /* top */
  for (int i = z->n; i > pos; i--) z->objs[i] = z->objs[i - 1]; /* lists are short */
  z->objs[pos] = obj;
  z->n++;
  g->objs[obj].zone = zone;
}

/* Take obj out of its zone's list (its zone field stays), and out of the
 * zones it was equipped to as a 2H object (FaB 8.2.2). */
static inline void zone_remove_obj(zo_game *g, int obj) {
  int zone = g->objs[obj].zone;
  if (zone < 0) return;
  zo_zone *z = &g->zones[zone];
  for (int i = 0; i < z->n; i++)
    if (z->objs[i] == obj) {
      for (int k = i + 1; k < z->n; k++) z->objs[k - 1] = z->objs[k];
      z->n--;
      break;
    }
  if (g->objs[obj].types & g->classes.two_handed) /* FaB 8.2.2: it was equipped to two */
    for (int i = 0; i < g->nzones; i++)
      if (g->zones[i].twoh == obj) g->zones[i].twoh = -1;
}

/* ---- zone resolution (the fast path; zones.c has the rest) ---------- */

/* The one instance of a zone type (the player's, for a per-player type)
 * while the zones are as set up, at a known index; -1 when the type has
 * several instances or a step created or removed zones. */
static inline int set_up_zone(const zo_game *g, int type, int player) {
  const zo_zone_type *zt = &g->rs->zones[type];
  if (g->zones_changed || zt->count.value != 1) return -1;
  return g->first_zone[type] + (zt->per_player.value ? player : 0);
}

/* Resolve a written destination for object obj (zones.c,
 * zo_zone_resolve_slow, for all but the common case). Returns the zone, or
 * ZO_ZONE_OUTSIDE, or -1 with *err set (no such zone). *redirected is set
 * when CR 400.3 sent it to its owner's zone. choose: the 1-based index the
 * owner chose among several zones of the type (FaB 3.0.10a), 0 none. */
int zo_zone_resolve_slow(zo_game *g, int obj, const zo_zone_spec *s, int choose,
                         int *redirected, zo_step_error *err);

static inline int resolve_dest(zo_game *g, int obj, const zo_zone_spec *s, int choose,
                               int *redirected, zo_step_error *err) {
  *redirected = 0;
  *err = ZO_E_NONE;
  if (s->type >= 0 && g->zmap[s->type] < 0) { /* a private slot the rule set has no zone for
                                                  (no exile-role zone for leave_game) */
    *err = ZO_E_NO_ZONE;
    return -1;
  }
  if (s->type >= 0 && !s->index && s->player < 0) {
    /* the common case: no player named, so the owner's zone, no redirect */
    int z = set_up_zone(g, g->zmap[s->type], g->objs[obj].owner);
    if (z >= 0) return z;
  }
  /* copies: the caller's own variables never have their address taken,
     so that they stay in registers (the move's hot path) */
  int red = 0;
  zo_step_error e = ZO_E_NONE;
  int z = zo_zone_resolve_slow(g, obj, s, choose, &red, &e);
  *redirected = red;
  *err = e;
  return z;
}

/* ---- zones (zones.c) -------------------------------------------------- */

/* Every zo_step_<kind> below applies one step of its kind: s the step, obj
 * the object it acts on (-1: its own card or reference, zo_step_object),
 * its outcome, error and events into r (zo_game_apply_to has set the
 * outcome to no_move and the error to none). None fails otherwise. */

/* The first existing zone instance of role `role` that is player's or
 * shared, or -1. */
int zo_zone_of_role(const zo_game *g, zo_zone_role role, int player);

/* zo_zone_refuses' flags: ZF_COUNT counts rule hits; ZF_ANY_OWNER skips the
 * owner test (the checker's can-hold). */
enum { ZF_COUNT = 1, ZF_ANY_OWNER = 2 };
/* Error a destination gives object `obj` (0 = it can go there). Checks
 * owner-only zones, what the zone holds, its capacity (FaB chapter 3; CR
 * 400.4a is handled by the caller as "stays") and its limits among the
 * zone (limits:, issue 31: capacity too). */
zo_step_error zo_zone_refuses(zo_game *g, int zone, int obj, int flags);

/* Steps on zones: reorder (CR 400.5, 401.4), shuffle (a repeatable
 * shuffle from the step's seed), zone_create and zone_remove (FaB 3.0.10). */

/* ---- the move (move.c) ------------------------------------------------ */

/* Steps that move several objects, each by the move of CR 400.6: move
 * together (CR 401.4: in the listed order, arrivals ordered as chosen),
 * draw (CR 121.2; 704.5b / FaB 8.5.6 from an empty library) and mill (CR
 * 701.13). zo_game_apply_to, with the move itself, is model.h's. */

/* ---- objects (objects.c) ---------------------------------------------- */

/* The mark kinds (a bit per zo_mark_kind) the new object obj keeps after
 * moving from zone origin to dest (a zone, or ZO_ZONE_OUTSIDE) with
 * cause (a word, "" or NULL): characteristic and prevention marks of a
 * permanent spell that becomes a permanent (switch keeps: Z.9.7, 217.1c,
 * CR 400.7a-c), its spell_info (400.7d), stickers on a move to a public
 * zone (400.7m, 123.5), a permission on the cast or play it permits
 * (400.7g-i), each where the rule set's switch says so. Reads only. */
unsigned zo_marks_kept(zo_game *g, int obj, int origin, int dest, const char *cause);
/* A new object forgets its marks but those whose kinds are in keep (a bit
 * per zo_mark_kind, 0: all go; CR 400.7). */
void zo_obj_drop_marks(zo_game *g, int obj, unsigned keep);
/* obj ceases to exist (its sub-cards are cleared, FaB 3.0.14e); an event. */
void zo_obj_cease(zo_game *g, int obj, zo_step_result *r);
/* FaB 3.0.12: clear obj: move it to its owner's graveyard, firing the
 * watches on that move (3.0.9a); a token, macro or non-card layer leaves
 * its zone (watches to `any` fire) and ceases (3.0.12a); a card already in
 * that graveyard does not move (3.0.7b). Returns its outcome (cleared,
 * ceased or no_move). */
zo_outcome zo_obj_clear(zo_game *g, int obj, zo_step_result *r);
/* Steps: create an object (CR 111.5, 400.4a; FaB 8.1.8a), mark one. */

/* ---- sub-cards and two-handed equipment (attach.c) -------------------- */

/* FaB 3.0.14e: clear every sub-card of top (hits: count the sub-card
 * rule). Nothing without sub-cards in the game. */
void zo_subs_clear(zo_game *g, int top, zo_step_result *r, int hits);
/* FaB 3.0.14c/e: after top moved: its sub-cards follow it when it stayed
 * the same object, and are cleared when it became a new one. */
void zo_subs_follow(zo_game *g, int top, int newobj, zo_step_result *r);
/* FaB 8.2.2: a 2H object just placed in `zone` is equipped to a second
 * empty zone of the same type and player too. */
void zo_twoh_equip_second(zo_game *g, int zone, int obj);
/* FaB 8.2.2: the second zone a 2H object entering `zone` would be equipped
 * to (empty, or holding only it), or -1 when there is none. */
int zo_twoh_second_zone(const zo_game *g, int zone, int obj);
/* Step: put a card under another (FaB 3.0.14). */

/* ---- attachments: Auras, Equipment, Fortifications (attached.c) ------- */

/* The handle obj is attached to (CR 301.5, 301.6, 303.4), or -1: an attach
 * step attached it, both are still the objects they were then (a zone
 * change ends it, CR 400.7; 217.1c; Z.1.3), and both are where the other
 * is (on the battlefield, or both phased out). Never fails. */
int zo_attached_to(const zo_game *g, int obj);
/* Whether obj's attachment to host still holds by identity alone (both
 * the objects they were when attached), wherever they are. */
int zo_attached_same(const zo_game *g, int obj, int host);
/* The player obj (an Aura) is attached to (CR 303.4b), or -1: an attach
 * step attached it to that player, it is still the object it was then, on
 * the battlefield (or phased out), and the player has not left the game
 * (701.3d: leaving ends the attachment; 303.4c, 704.5m follow). */
int zo_attached_player(const zo_game *g, int obj);
/* Step: attach obj to s->attach_to (both on the battlefield, not itself),
 * or an Aura to player s->player (to_player:, CR 303.4b). */
/* The state-based actions on attachments, for sba.c: obj is on the
 * battlefield, phased in, and attached to nothing any more: an Aura goes
 * to its owner's graveyard (CR 704.5m; 704.5n of 2011; 420.5d), anything
 * else becomes unattached and stays (704.5n; 704.5p of 2011), as the rule
 * set's switches say. Returns 1 when the Aura moved (r gets its events). */
int zo_attached_state_check(zo_game *g, int obj, zo_step_result *r);
/* Whether host is an object obj may be put onto the battlefield attached
 * to: a permanent on the battlefield, phased in, not obj itself, and not
 * moving in the same event (a creature entering with the Aura is not yet
 * there when the Aura's object is chosen, CR 303.4f) (the zone rules' part
 * of "legally", CR 303.4d, 303.4i). */
int zo_attach_host_ok(const zo_game *g, int obj, int host);
/* Whether obj can be attached to anything at all: an Aura, Equipment or
 * Fortification that is not also a creature (CR 303.4d: an Aura that's
 * also a creature can't enchant anything; 301.5c: nor can such an
 * Equipment equip; the model knows no reconfigure) and is not face down
 * (708.2a: a face-down permanent is a creature with no subtypes). */
int zo_can_be_attached(const zo_game *g, int obj);
/* obj, just arrived on the battlefield by a move with attached_to: host,
 * enters attached to it if it can be attached (zo_can_be_attached) and
 * host is still a legal one; else it enters unattached (CR 303.4f, 303.4h). */
void zo_enters_attached(zo_game *g, int obj, int host);
/* obj, just arrived on the battlefield by a move with attached_to_player:
 * p, enters attached to that player if it is an Aura and the rule set lets
 * an Aura enchant a player (switch aura_player); else it enters unattached
 * (CR 303.4f, 303.4h; 701.3a: no Equipment or Fortification on a player).
 * A player who left the game is never named here (the step is rejected). */
void zo_enters_attached_player(zo_game *g, int obj, int p);
/* A step naming a player an Aura is to be attached to, in a rule set whose
 * switch aura_player is none (mtg-1999): r is set rejected, unsupported,
 * and 1 returned; else 0, r untouched. */
int zo_aura_player_refused(zo_game *g, zo_step_result *r);

/* ---- replacement effects (replace.c) ---------------------------------- */

/* Apply the replacement effects in force to a move of obj from origin to
 * *dest (CR 400.6, 616.1; FaB 6.5): *dest and *mv become the replaced
 * move's. Returns 1 when one applied. */
int zo_replacements_apply(zo_game *g, int obj, int origin, int *dest, const zo_step **mv,
                          const char *cause);
/* Steps: put a replacement effect in force; choose the order they apply in
 * (CR 616.1; FaB 6.5). */
/* Whether a "can't" effect in force forbids obj's move from origin to dest
 * by cause, arriving face down (face_down 1) or not (CR 614.17, 614.17d).
 * 0 at once while none is in force (g->ncants). A player who can't draw
 * (cant draw:, CR 121.3) forbids a move with cause draw from their library
 * to their hand, and the game then reports feature cant_draw_moves. */
int zo_cant_forbids(zo_game *g, int obj, int origin, int dest, const char *cause,
                    int face_down);
/* The draw replacement that replaces player's next draw (CR 614.11), the
 * first in the chosen order that is in force and not running its own
 * steps, or -1. */
int zo_draw_replacement(const zo_game *g, int player);
/* Replace one draw by replacement ri: its steps, their events into r
 * (614.11, 614.11a: done before the next draw of a sequence). */
void zo_draw_replace(zo_game *g, int ri, zo_step_result *r);
/* 1, with r rejected (unsupported), when the rule set is Flesh and
 * Blood's, whose zones chapter has no such step: cant, replace_draw,
 * as_enters, untap, leave_game (Magic's CR 614.17, 614.11, 614.13,
 * 702.26a, 800.4a); 0 otherwise. */
int zo_magic_only(const zo_game *g, zo_step_result *r);
/* Step: put a draw replacement in force (CR 614.11). */
/* A trigger on obj phasing out (watch phase: out) fires, controlled by
 * ctrl, the object's controller just before (CR 603.10b: it looks back in
 * time). */
void zo_phase_watches_fire(zo_game *g, int obj, int ctrl);
/* Steps: a player's untap step (CR 702.26a, 702.26n); a player leaves the
 * game (800.4a, 603.6c, 702.26k) (players.c). */
/* A control effect on o ended (an end_turn step): o goes back to player
 * p, the one who controlled it without that effect; if p has left the
 * game, o is exiled instead (CR 800.4c), its events in r. 1 when it was
 * exiled, or moved by its zone type's follows_control (issue 31). */
int zo_control_returns(zo_game *g, int o, int p, zo_step_result *r);
/* durations.c: the control effects of g->ctrls (zo_ctrl_effect). Begin
 * one (a control step: player p, ZO_UNTIL_* until, until_of whose next
 * turn ends it with ZO_UNTIL_NEXT_TURN) on object o; the
 * controller o has by them now: the latest in force, else its default
 * controller (CR 110.2), else its owner; carry those on a spell to the
 * permanent it became (400.7a, switch keeps_control; old_id: the spell's
 * identity); end every effect of player p (800.4a). */
void zo_control_begin(zo_game *g, int o, int p, int until, int until_of);
int zo_control_now(const zo_game *g, int o);
void zo_control_carry(zo_game *g, int o, uint64_t old_id, int origin, int dest);
void zo_control_end_player(zo_game *g, int p);
/* Whether step s names a player who has left the game as its performer,
 * owner, controller or winner, or as the player whose next turn ends its
 * effect (800.4b, 800.4d, 800.4k: such a step is rejected, wrong_player;
 * 800.4m speaks only of effects already there as the player leaves). 0 at
 * once while nobody has left. */
int zo_step_names_departed(const zo_game *g, const zo_step *s);
/* Phase object o out (out 1) or in, with what is attached to it, as the
 * rule set has phasing (status.c). */
void zo_phase_one(zo_game *g, int o, int out, zo_step_result *r);
/* Move obj to the owner's zone of case zone type to_type (a private slot:
 * g->graveyard_slot, g->exile_slot) by a rule: nobody performs it, cause
 * `cause` (static storage or the caller's); its events into r. */
void zo_rule_move(zo_game *g, int obj, int to_type, const char *cause, zo_step_result *r);
/* Move obj into zone instance `zone` (any player's, by its index) by a
 * rule, as zo_rule_move does (issue 31: a zone type's follows_control
 * moving an object to its new controller's zone). */
void zo_rule_move_into(zo_game *g, int obj, int zone, const char *cause, zo_step_result *r);
/* Zone type follows_control (issue 31): where object o, in a zone whose
 * type has it, goes when player p controls it: the first zone of p's of
 * the named type that can hold it (-1: none can), or -2 when nothing
 * moves (the type has no follows_control, or the zone is already p's). */
int zo_follow_zone(zo_game *g, int o, int p);
/* After o's controller changed other than by a `control` step (a control
 * effect ended, its player left): move it to its controller's zone where
 * its zone type follows control, or, with no zone that can hold it, put
 * it into its owner's graveyard-role zone by a rule (the model's choice,
 * RULESETS.md follows_control); events into r. Whether it moved. */
int zo_control_follow(zo_game *g, int o, zo_step_result *r);
/* A move of obj into zone `zone` that its capacity or a limit among the
 * zone refuses (ZO_E_CAPACITY), where the zone type has displace:
 * (issue 31): the objects already there that fill it (the first counted
 * by the refusing limit, else the zone's first other object) go, one at a
 * time, each to its owner's zone of the displace type by a rule (cause
 * `displaced`, their events into r), until obj fits or one of them does
 * not leave. Returns what zo_zone_refuses says then (move.c). */
zo_step_error zo_zone_displace(zo_game *g, int zone, int obj, zo_step_result *r);
/* The object in zone `zone` that a limit among the zone refusing obj
 * counts first (zone order), or, with none refusing, the zone's first
 * object other than obj; -1 when there is none (zones.c). */
int zo_zone_displaced(const zo_game *g, int zone, int obj);
/* The first limit among attached objects (limits:, issue 31) of the zone
 * host is in that attaching obj to host would break: its index, or -1
 * (counts the rule hit). */
int zo_attach_limit(zo_game *g, int obj, int host);
/* The first limit among sub-cards (limits: among: under, issue 31) of
 * the zone type top is in that putting obj under top would break: obj,
 * its own sub-cards (which go under top with it, FaB 3.0.14c) and top's
 * other sub-cards of the limit's types, more than its count. Its index,
 * or -1; with `counting`, the rule hit is counted (zones.c). */
int zo_under_limit(zo_game *g, int top, int obj, int counting);
/* clears: (issue 31): obj, which arrived in zone `zone` and stayed the
 * same object, loses its marks of the kinds the zone type clears (a
 * Pokemon going to the Bench recovers from its Special Conditions), the
 * rule hit counted where one goes (objects.c). */
void zo_arrival_clears(zo_game *g, int obj, int zone);
/* ceases_empty (issue 31), after each step (steps.c): a zone that
 * zone_create made, of a type with ceases_empty, that has held an object
 * and holds none now ceases, as zone_remove would remove it (nothing is
 * left to clear); the rule hit counted (zones.c). */
void zo_zones_cease_empty(zo_game *g);
/* zone_life's flags (zo_game.zone_life). */
enum { ZONE_MADE = 1, ZONE_HELD = 2 };
/* Step: put an as-enters effect in force (CR 614.13). */
/* Before obj enters the battlefield: run the as-enters effects of its own,
 * their events into r (CR 614.13); marks obj entering for the event when
 * no move_together did. Called only while g->netb. */
void zo_etb_apply(zo_game *g, int obj, zo_step_result *r);
/* A token's own as-enters effect (create as_enters:): its steps done as
 * the token obj is created onto the battlefield, before it is there (CR
 * 111.1, 614.12, 614.13), with 614.13a-c's limits; their events into r. */
void zo_etb_token(zo_game *g, int obj, const zo_step *steps, int nsteps, zo_step_result *r);
/* Mark obj as entering the battlefield in the event being done (a member
 * of a move_together bound there, 614.13a); end the event: clear the marks
 * and what its as-enters effects chose (614.13b). */
void zo_etb_mark(zo_game *g, int obj);
void zo_etb_event_end(zo_game *g);
/* Step: put a "can't" effect in force (CR 614.17, 614.17a). */

/* ---- triggers and references (triggers.c) ------------------------------ */

/* Does zone instance `zone` match a zone as a watch or replacement writes
 * it (type, player -1 any, 1-based index 0 any)? */
int zo_zone_watch_matches(const zo_game *g, int type, int player, int index, int zone);
/* A move of obj from origin to dest happened; fire matching watches.
 * props: the mover had its properties (FaB 3.0.7a); ctrl: its controller
 * just before it moved; cause: the event's cause word ("" none; borrowed),
 * which a watch with a cause must match (G8: a destroy, CR 701.8a, is not
 * a sacrifice, 701.21a). */
void zo_watches_fire(zo_game *g, int obj, int origin, int dest, int props, int ctrl,
                     const char *cause);
/* Can an ability that followed obj (trigger or `then:`) find it now, as
 * switch how_sw says (CR 603.10, 400.7; FaB 3.0.9b)? */
int zo_obj_finds(zo_game *g, zo_switch how_sw, int obj, uint64_t id, int zone,
                 int pub_at_arrival, int viewer);
/* Steps: arm a watch (CR 603.2), resolve its trigger (603.3a, 603.10),
 * remember an object (CR 400.7d). */

/* ---- status, state-based actions (status.c, sba.c) ----------------------- */

/* Steps: control (CR 109.4), phase (CR 702.24; Z.7, 217.8), turn_face (CR
 * 400.9; FaB 3.0.3, 3.0.9), end_game (Z.2.2, 407.2), state_check (CR 704). */

/* ---- the performing player, looks and reveals (perform.c; issue 12) ------ */

/* G3: may the step's performing player (s->player, -1 none) do move s to
 * obj / move_together s / reorder s of zone z? 1 yes; 0 with r's outcome
 * rejected, error wrong_player (CR 217.9d, 407.4: only the owner antes;
 * Z.6.6, 217.2d, 217.2.Ruling.1, 401.4: who arranges cards put together;
 * CR 400.5, 217.1b: a player arranges only their own objects). */
int zo_perform_move_ok(zo_game *g, const zo_step *s, int obj, zo_step_result *r);
int zo_perform_together_ok(zo_game *g, const zo_step *s, zo_step_result *r);
int zo_perform_reorder_ok(zo_game *g, const zo_step *s, int z, zo_step_result *r);
/* G5, G7: may player look at obj by a look step still in force; is obj
 * revealed by a reveal step still in force (same object, same zone)? */
int zo_obj_looks(const zo_game *g, int obj, int player);
int zo_obj_revealed(const zo_game *g, int obj);
/* Is obj the top card of a library whose player plays with it revealed
 * (reveal top_of:, CR 401.5)? */
int zo_obj_top_revealed(const zo_game *g, int obj);
/* After a step: each library played with its top card revealed shows its
 * new top card; the one it showed before stops being revealed, and a card
 * revealed on top again after it stopped is a new object where the rule
 * set says so (switch revealed_top_renews, CR 401.6), with an event in r. */
void zo_top_reveals_update(zo_game *g, zo_step_result *r);
/* A shuffle of zone z ends every look at and reveal of the objects in it:
 * today's CR 406.3 ends a look at a face-down exiled card whose pile is
 * shuffled, and a shuffled library or deck is unknown to all (CR 401.2,
 * FaB 3.7.5); a revealed card of a shuffled library becomes a new object
 * where the rule set says so (switch reorder_renews_revealed, 701.20d),
 * with a new_object_in_place event in r (may be NULL). cases/README.md,
 * "Model decisions". */
void zo_zone_shuffled(zo_game *g, int z, zo_step_result *r);
/* Zone z was rearranged otherwise (a reorder that changed its order): a
 * revealed card of a library stops being revealed and becomes a new object
 * where the rule set says so (701.20d), events in r (may be NULL). */
void zo_zone_reordered(zo_game *g, int z, zo_step_result *r);
/* Where phasing is a status, a phased-out permanent is treated as though
 * it doesn't exist, so no effect touches it (CR 702.24b of 2011; 702.26b,
 * 702.26e): 1 with r failed, phased_out, for such an object; else 0. */
int zo_phased_out_unaffected(zo_game *g, int obj, zo_step_result *r);
/* Steps: look (CR 406.3, 217.7b; FaB 3.7.4), reveal (CR 701.20a, 217.2e). */
/* ---- durations (durations.c; G4 of issue 12) ------------------------------ */

/* Object o phases out: the effects on it that phasing ends, as switch
 * phased_effects says (CR 502.15g of 2004: limited durations; 702.24e,
 * 702.26f: none, they only expire as they would). */
void zo_durations_phase_out(zo_game *g, int o);
/* Player q's turn begins (their untap step), the turn before it having
 * been g->turn_player's: the effects "until the next turn" of q end, and
 * those of any player whose turn came round in between, a departed
 * player's included, whose turn would have begun then (CR 800.4m, 800.4k,
 * 611.2a). A control effect ending gives the object back as at end_turn
 * (613.7, 110.2; 800.4c: exiled with nobody to return to), its events in
 * r. 1 when something was exiled. */
int zo_durations_turn_begins(zo_game *g, int q, zo_step_result *r);
/* Whether step s (a mark or control step) asks for an effect until a
 * player's next turn where the rule set counts no turns (its untap step
 * is unsupported: FaB, or phasing none): then rejected (unsupported) in
 * r and 1. */
int zo_next_turn_unsupported(const zo_game *g, const zo_step *s, zo_step_result *r);
/* Whether player p's turn came strictly between the turns of from and to
 * in turn order (going round); from == to is an extra turn, added right
 * after the turn before it (CR 500.7): no player's came between. */
int zo_turn_between(const zo_game *g, int from, int to, int p);
/* Step: the end of the turn's cleanup: "until end of turn" effects end
 * (CR 514.2; 314.2 of 2004/2008; 314.1b of 1999), on phased-out permanents
 * too (702.24e, 702.26f; 502.15h: it may phase in under another player). */

/* ---- steps (steps.c) ----------------------------------------------------- */

/* Apply step s to object obj (-1: its own card or reference) by the room
 * of its kind, found in the step table; zo_game_apply_to (move.c) sends
 * every step but a move here. The step's result in r. */
void zo_step_dispatch(zo_game *g, const zo_step *s, int obj, zo_step_result *r);
/* The rooms: zo_step_<name>(g, s, obj, r) does a step of kind <name>, one
 * per row of ZO_STEP_KINDS (case/steps.def), defined in the file of the
 * rules it carries out (the comments above, by file, say which): step s
 * applied to object obj (-1: the step's own card or reference), its
 * outcome, error and events in r; the game g changes, s is only read. A
 * move is zo_game_apply_to's (move.c); draw and mill share the room of
 * moves of several objects (zo_step_draw_mill). */
#define ZO_ROW_ROOM(id, name, ...) \
  void zo_step_##name(zo_game *g, const zo_step *s, int obj, zo_step_result *r);
ZO_STEP_KINDS(ZO_ROW_ROOM)
#undef ZO_ROW_ROOM
void zo_step_draw_mill(zo_game *g, const zo_step *s, int obj, zo_step_result *r);
/* The object a step acts on: its reference's object, or its card; -1 with
 * r's outcome not_found (and an event for a card) when there is none. */
int zo_step_object(zo_game *g, const zo_step *s, zo_step_result *r);

#endif
