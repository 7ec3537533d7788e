/* model_int.h: the model's state (private to model/, and to white-box
 * tests and harnesses). See model.h for what others may call. */
#ifndef ZO_MODEL_INT_H
#define ZO_MODEL_INT_H

#include "holds.h"
#include "model.h"
#include "types.h"

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
} zo_obj;

typedef struct {
  int armed, fired, resolved, found;
  int obj, from, to;   /* from/to: case zone types or ZO_ZT_ANY */
  int from_player, to_player; /* -1: any player's zone of that type */
  int from_index, to_index;   /* 0: any zone of that type and player */
  uint64_t types;
  uint64_t id; int zone, pub_at_arrival, controller;
} zo_trigger;

typedef struct { int set, obj; uint64_t id; } zo_ref;

typedef struct {
  int active, any, obj;
  int when_to, when_to_player, when_from;
  int when_from_player;        /* -1: any player's */
  int when_to_index, when_from_index; /* 0: any of that type and player */
  char when_cause[ZO_NAME];
  const zo_step *instead;
} zo_replacement;

typedef struct { int alive, obj; zo_mark_kind kind; } zo_mark;

struct zo_game {
  const zo_ruleset *rs;
  const zo_case *c;
  int *zmap;                 /* case zone type -> rule set zone index */
  int hand_slot, graveyard_slot;
  zo_zone *zones; int nzones, capzones;
  int *pool;                 /* every zone's object list, nobjs+1 each */
  int multi[ZO_MAX_PLAYERS][ZO_MAX_ZONE_TYPES];
  zo_obj *objs; int nobjs;
  uint64_t next_id;
  zo_trigger *trig; int ntrig;
  zo_ref *refs; int nrefs;
  zo_replacement *repl; int nrepl; int *repl_order;
  zo_mark *marks; int nmarks;
  int drew_empty[ZO_MAX_PLAYERS], lost[ZO_MAX_PLAYERS];
  int *hits;                 /* per rule of rs (computed by zo_game_hits) */
  int *slot_hits;            /* per citation of rs (counted by the model) */
  int nsteps, ncards_start;
  int ended;                 /* end_game happened (ante ownership changed) */
  /* derived, to keep a move cheap (the fuzzers' inner loop) */
  int nactive_repl;          /* replacement effects in force */
  int has_subs;              /* some object is or was a sub-card */
  int zones_changed;         /* zone_create/zone_remove happened */
  int first_zone[ZO_MAX_ZONE_TYPES]; /* first instance of each type at set-up */
  zo_type_classes classes;   /* the type classes the rules read (rules/types.h) */
  /* per zone type of rs: its equip:/keeps: words as the case's type bits
     (the rule set's own words mapped onto the case's, set-up) */
  uint64_t equip_types[ZO_MAX_ZONE_TYPES], keep_types[ZO_MAX_ZONE_TYPES];
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

#endif
