/* obs_check_int.h: what the observation checker's two files share
 * (private to run/): the checker's state and its indexes (obs_index.c),
 * which keep a check linear in the number of objects. The checker
 * (obs_check.c) calls the indexes, never the other way: so this header
 * names the checker's type without including obs_check.h, and obs_index.c
 * sees only the state it keeps. */
#ifndef ZO_OBS_CHECK_INT_H
#define ZO_OBS_CHECK_INT_H

#include "model.h"
#include "holds.h"

/* The checker (obs_check.h declares it the same way). */
typedef struct zo_obs_checker zo_obs_checker;

typedef struct {
  uint64_t id;
  int handle;
  int retired; /* its object became new or ceased: never again (CR 400.7) */
} idrec;

/* One entry of an idmap: 24 bytes, so a look-up touches one cache line. */
typedef struct {
  uint64_t key;
  int val;       /* the key's value */
  unsigned gen;  /* the entry is live while gen == the map's cur */
  unsigned mark; /* free for the caller: a stamp (which observation) ... */
  int mval;      /* ... and a value that goes with it */
} idslot;

/* A map from 64-bit keys (object identities, hashed zone names) to ints:
 * open addressing with linear probing, at most half full. An entry is live
 * while its stamp is the map's generation, so emptying the map for the next
 * observation is one increment (idmap_reset), not a pass over its slots. */
typedef struct {
  idslot *slot;
  size_t cap;    /* a power of two; 0 before the first use */
  size_t used;   /* live entries */
  unsigned cur;  /* the current generation, >= 1 */
} idmap;

/* An object's handle and position, sorted by position then handle. */
typedef struct { int position, handle; } zone_pos;

/* A zone name seen in an observation, parsed once (parse_zone). */
typedef struct {
  char name[sizeof(((zo_obj_obs *)0)->zone)]; /* as observed */
  int type, player; /* parse_zone's answer for it */
  int next;         /* the next name with the same hash, -1 */
} zname;

/* The zones of one observation: the handles (below n) of its existing
 * top-level objects grouped by zone name (zo_obs_checker.names), each group
 * in handle order until sorted by position (group_sorted), the groups
 * numbered in the order of their first member. Arrays owned by the
 * checker, reused from one observation to the next. */
typedef struct {
  int ngroups;
  int *start;     /* [ngroups + 1]: group g is members[start[g] .. start[g + 1]) */
  int *members;   /* [n] handles */
  int *name;      /* [ngroups] the group's zone name */
  char *sorted;   /* [ngroups] 1 once the group is in position order */
  int *cursor;    /* [n] scratch of zgroups_build */
  int *of_name;   /* [capnames] the group of a name, where stamp == gen */
  unsigned *stamp;
  unsigned gen;
  int cap, capnames;
} zgroups;

/* Facts about a step tree (the step, its then:/do:, its move_together
 * moves; a replacement's instead is the replace step's then). */
enum {
  F_PHASE = 1 << 0,    /* phasing moves nothing into a new object (Z.7.2) */
  F_REORDERS = 1 << 1, /* reorder, shuffle, or a move with shuffle: true */
  F_PUT_UNDER = 1 << 2,
  F_CREATE = 1 << 3,
  F_END_GAME = 1 << 4, /* ante ownership may change (Z.2.2) */
  F_MOVES = 1 << 5     /* a move, draw or mill */
};

struct zo_obs_checker {
  const zo_ruleset *rs;
  const zo_case *c;
  int n;             /* the case's handles */
  int *kind;         /* [n] zo_kind from the case; -1 unknown */
  uint64_t *types;   /* [n] type words as bits (zo_type_bit) */
  int fab_tokens;    /* tokens leave at once: always at rest (FaB 8.1.8a) */
  int per_object;    /* visibility per object (FaB 3.0.4) */
  int repl_shuffles; /* some replacement's instead shuffles its destination */
  int started;       /* the setup has been observed */
  int ncards;        /* cards at the setup */
  int ended;         /* an end_game step ran (owners may have changed) */
  zo_obj_obs *prev;  /* [n] the last sound observation's objects */
  idrec *ids;
  int nids, capids;
  int *ref_set, *ref_handle; /* [nrefs] what each remember step saw */
  uint64_t *ref_id;
  int *ztype, *zplayer; /* [n] scratch: each handle's parsed zone */
  zo_type_classes classes; /* the type classes the zone rules read (rules/types.h) */
  uint64_t equip[ZO_MAX_ZONE_TYPES]; /* each zone type's equip: words as the case's
                                        bits (a rule set's own words are numbered
                                        per file: zo_type_bits_for_case) */
  uint64_t only[ZO_MAX_ZONE_TYPES];  /* holds_types: words, the same way */
  /* limits: (issue 31): each limit's words, the same way, and the rules
     its citation names ("; "-joined, the violation's rule) */
  uint64_t limit[ZO_MAX_ZONE_TYPES][ZO_MAX_LIMITS];
  char limit_rule[ZO_MAX_ZONE_TYPES][160];
  /* instead: (issue 31): each entry's words, the rules it cites, and
     whether any zone type has entries */
  uint64_t inst[ZO_MAX_ZONE_TYPES][ZO_MAX_INSTEAD];
  char inst_rule[ZO_MAX_ZONE_TYPES][160];
  int has_instead;
  char group_rule[ZO_MAX_ZONE_TYPES][160]; /* what group: cites, per zone type */
  /* clears: (issue 31): what each zone type's citation names, whether any
     zone type clears marks, and each mark name's kind (-1 unknown) */
  char clears_rule[ZO_MAX_ZONE_TYPES][160];
  int has_clears;
  int *mark_kind;    /* [c->nmarknames + 1] */
  /* issue 31: what wrong_owner: and follows_control: cite, per zone type;
     whether any zone type has either */
  char wrong_owner_rule[ZO_MAX_ZONE_TYPES][160], follows_rule[ZO_MAX_ZONE_TYPES][160];
  int has_zone_rules2;
  uint64_t at[ZO_MAX_ZONE_TYPES][ZO_MAX_AT_INDEX]; /* at_index: types, case bits */
  char at_rule[ZO_MAX_ZONE_TYPES][160];
  uint64_t face_up[ZO_MAX_ZONE_TYPES]; /* face_up_only: types, case bits */
  char face_up_rule[ZO_MAX_ZONE_TYPES][160];
  char seats_rule[ZO_MAX_ZONE_TYPES][160]; /* what seats: cites (issue 31) */
  /* indexes that keep a check linear in objects (not quadratic) */
  idmap id_index;    /* identity -> its ids[] record (ids are unique there);
                        mark/mval: the observation (nobs) that last showed it
                        and the lowest handle showing it there */
  idmap now;         /* identity -> lowest handle showing it, this observation,
                        for identities not in id_index */
  unsigned nobs;     /* observations checked (the marks of id_index), >= 1 */
  int *twin;         /* [capnow] the lowest other handle with the same identity, -1 */
  int *known;        /* [capnow] the handle's identity's ids[] record, -1 */
  int capnow;
  zname *names;      /* every zone name seen, parsed once */
  int nnames, capnames;
  idmap name_index;  /* name hash -> first names[] entry with that hash */
  int *zid, *prev_zid; /* [n] each handle's zone name (names[]) now and in
                          prev; -1 when it does not exist */
  zgroups cur, before; /* the zones of this observation and of prev */
  int before_n;        /* before was cur for the first before_n handles of
                          prev (a sound check's), or -1: build it again */
  int *ev_head, *ev_next; /* the events of ev_r per handle: a list through ev_next */
  int capev;
  const zo_step_result *ev_r;
  int *scratch;      /* [2 * (n + 1)] check_order's lists */
  zone_pos *pairs;   /* [n + 1] group_sorted's fallback sort */
  /* issue 12 (G5, G7): what a look or reveal step the engine accepted
     showed, per handle: the players (bit each; ~0u: revealed to all), the
     identity and the zone name (zid) it was shown as; deck-hidden lets
     those players see it there while it is that identity (CR 400.7) */
  unsigned *shown_mask;
  uint64_t *shown_id;
  int *shown_zid;
  /* the players who play with the top card of their library revealed (a
     bit each: reveal top_of:, CR 401.5); deck-hidden lets all see it */
  unsigned top_revealed;
};

/* ---- the indexes (obs_index.c, where each is described) ---- */

int zo_obsx_events_for(const zo_obs_checker *k, const zo_step_result *r, int h, unsigned outcomes);
void zo_obsx_events_index(zo_obs_checker *k, const zo_step_result *r);
void zo_obsx_events_unindex(zo_obs_checker *k);
const int *zo_obsx_group_sorted(zo_obs_checker *k, zgroups *g, int gi, const zo_obj_obs *objs);
idslot *zo_obsx_idmap_find(const idmap *m, uint64_t key);
void zo_obsx_idmap_free(idmap *m);
int zo_obsx_idmap_get(const idmap *m, uint64_t key);
idslot *zo_obsx_idmap_put(idmap *m, uint64_t key, int val);
void zo_obsx_idmap_reset(idmap *m, size_t n);
void zo_obsx_zgroups_build(zgroups *g, const zo_obj_obs *objs, const int *zid, int n,
                          int nnames);
void zo_obsx_zgroups_free(zgroups *g);
int zo_obsx_zgroups_of(const zgroups *g, int nm);
int zo_obsx_zone_name_id(zo_obs_checker *k, const char *name, int hint);

#endif
