/* obs_check.c: the invariants of fuzz/INVARIANTS.md, decided on what an engine
 * shows rather than on the oracle's state (which zo_game_check sees).
 *
 * An engine under test is a black box: after each step the runner has its
 * answer (outcome and per-object events) and its observation (per handle:
 * exists, zone name, identity token, position, layer, visibility,
 * controller, owner, under; references; who sees what). What the engine
 * must never show follows from the zone rules alone: an object in no zone
 * (CR 400.1), a token off the battlefield after state-based actions (CR
 * 704.5d) or ever outside the FaB arena (8.1.8a), a card in another
 * player's library (CR 400.3), a library card someone may look at (CR
 * 401.2), an identity that comes back after the object became new (CR
 * 400.7), a reference that still finds it (CR 400.7d), untouched objects
 * reordered in an ordered zone (CR 400.5) and so on. The case supplies
 * each handle's kind and types (setup cards, create steps); the rule set
 * supplies the zone types' attributes and the switches, so everything
 * here is decided the way the oracle's rule set says, not the oracle's
 * state. obs_check.h lists what is checked and what can't be.
 */
#include "obs_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "holds.h"
#include "util.h"

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
};

#define SWV(k, s) ((k)->rs->sw[s].value)

/* ---- idmap ------------------------------------------------------------ */

/* Slot hash of a key (a 64-bit finalizer: identities are often 1, 2, 3...). */
static size_t idmap_hash(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x;
}

/* An empty map of cap slots (a power of two). */
static void idmap_alloc(idmap *m, size_t cap) {
  m->slot = zo_xcalloc(cap, sizeof *m->slot);
  m->cap = cap;
  m->used = 0;
  m->cur = 1;
}

/* Free m's slots (m itself is the caller's) and leave it empty, usable. */
static void idmap_free(idmap *m) {
  free(m->slot);
  memset(m, 0, sizeof *m);
}

/* Empty m, with room for n entries at half load (one increment when it
 * has the room already). */
static void idmap_reset(idmap *m, size_t n) {
  size_t want = 16;
  while (want < 2 * n + 2) want *= 2;
  if (want > m->cap) {
    idmap_free(m);
    idmap_alloc(m, want);
    return;
  }
  m->used = 0;
  if (++m->cur == 0) { /* the generations wrapped: clear the stamps */
    for (size_t i = 0; i < m->cap; i++) m->slot[i].gen = 0;
    m->cur = 1;
  }
}

/* The live entry of key, or NULL. */
static idslot *idmap_find(const idmap *m, uint64_t key) {
  if (!m->cap) return NULL;
  for (size_t i = idmap_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    idslot *e = &m->slot[i];
    if (e->gen != m->cur) return NULL;
    if (e->key == key) return e;
  }
}

/* The value of key, or -1. */
static int idmap_get(const idmap *m, uint64_t key) {
  const idslot *e = idmap_find(m, key);
  return e ? e->val : -1;
}

/* Set key's value (adding the key with mark 0), growing m past half load;
 * returns its entry. */
static idslot *idmap_put(idmap *m, uint64_t key, int val) {
  if (2 * (m->used + 1) > m->cap) {
    idmap old = *m;
    idmap_alloc(m, old.cap ? 2 * old.cap : 16);
    for (size_t i = 0; i < old.cap; i++)
      if (old.slot[i].gen == old.cur) {
        idslot *e = idmap_put(m, old.slot[i].key, old.slot[i].val);
        e->mark = old.slot[i].mark;
        e->mval = old.slot[i].mval;
      }
    idmap_free(&old);
  }
  size_t i = idmap_hash(key) & (m->cap - 1);
  while (m->slot[i].gen == m->cur && m->slot[i].key != key) i = (i + 1) & (m->cap - 1);
  idslot *e = &m->slot[i];
  if (e->gen != m->cur) {
    *e = (idslot){.key = key, .gen = m->cur};
    m->used++;
  }
  e->val = val;
  return e;
}

/* Free g's arrays (g itself is the checker's) and leave it empty. */
static void zgroups_free(zgroups *g) {
  free(g->start);
  free(g->members);
  free(g->name);
  free(g->sorted);
  free(g->cursor);
  free(g->of_name);
  free(g->stamp);
  memset(g, 0, sizeof *g);
}

static unsigned tree_flags(const zo_step *s) {
  if (!s) return 0;
  unsigned f = 0;
  switch (s->kind) {
  case ST_PHASE: f |= F_PHASE; break;
  case ST_REORDER: case ST_SHUFFLE: f |= F_REORDERS; break;
  case ST_PUT_UNDER: f |= F_PUT_UNDER; break;
  case ST_CREATE: f |= F_CREATE; break;
  case ST_END_GAME: f |= F_END_GAME; break;
  case ST_MOVE: case ST_MOVE_TOGETHER: case ST_DRAW: case ST_MILL: f |= F_MOVES; break;
  default: break;
  }
  if (s->shuffle) f |= F_REORDERS;
  f |= tree_flags(s->then);
  for (int i = 0; i < s->nmoves; i++) f |= tree_flags(&s->moves[i]);
  return f;
}

static int tree_remembers(const zo_step *s, int ref) {
  if (!s) return 0;
  if (s->kind == ST_REMEMBER && s->as == ref) return 1;
  if (tree_remembers(s->then, ref)) return 1;
  for (int i = 0; i < s->nmoves; i++)
    if (tree_remembers(&s->moves[i], ref)) return 1;
  return 0;
}

/* Kinds and types of created handles (create steps, at any depth). */
static void learn_created(zo_obs_checker *k, const zo_step *s) {
  if (!s) return;
  if (s->kind == ST_CREATE && s->as >= 0 && s->as < k->n) {
    k->kind[s->as] = (int)s->kind_of;
    k->types[s->as] = s->types;
  }
  if (s->kind == ST_REPLACE && (tree_flags(s->then) & F_REORDERS)) k->repl_shuffles = 1;
  learn_created(k, s->then);
  for (int i = 0; i < s->nmoves; i++) learn_created(k, &s->moves[i]);
}

zo_obs_checker *zo_obs_checker_new(const zo_ruleset *rs, const zo_case *c) {
  zo_obs_checker *k = zo_xcalloc(1, sizeof *k);
  k->rs = rs;
  k->c = c;
  k->n = c->nhandles;
  size_t n1 = (size_t)k->n + 1, r1 = (size_t)c->nrefs + 1;
  k->kind = zo_xcalloc(n1, sizeof *k->kind);
  k->types = zo_xcalloc(n1, sizeof *k->types);
  k->prev = zo_xcalloc(n1, sizeof *k->prev);
  k->ztype = zo_xcalloc(n1, sizeof *k->ztype);
  k->zplayer = zo_xcalloc(n1, sizeof *k->zplayer);
  k->ref_set = zo_xcalloc(r1, sizeof *k->ref_set);
  k->ref_handle = zo_xcalloc(r1, sizeof *k->ref_handle);
  k->ref_id = zo_xcalloc(r1, sizeof *k->ref_id);
  k->zid = zo_xcalloc(n1, sizeof *k->zid);
  k->prev_zid = zo_xcalloc(n1, sizeof *k->prev_zid);
  k->ev_head = zo_xcalloc(n1, sizeof *k->ev_head);
  k->scratch = zo_xcalloc(2 * n1, sizeof *k->scratch);
  k->pairs = zo_xcalloc(n1, sizeof *k->pairs);
  k->before_n = -1;
  for (int h = 0; h < k->n; h++) k->kind[h] = k->zid[h] = k->prev_zid[h] = k->ev_head[h] = -1;
  for (int i = 0; i < c->ncards; i++) {
    const zo_card_setup *cs = &c->cards[i];
    if (cs->handle < 0 || cs->handle >= k->n) continue;
    k->kind[cs->handle] = (int)cs->kind;
    k->types[cs->handle] = cs->types;
  }
  for (int i = 0; i < c->nsteps; i++) learn_created(k, &c->steps[i]);
  k->fab_tokens = SWV(k, SW_TOKEN_LEAVES) == ZS_IMMEDIATELY;
  k->per_object = SWV(k, SW_VISIBILITY) == ZS_PER_OBJECT;
  /* the type classes the model reads (CR 400.4a; FaB 1.3.2, 1.3.3, 3.11.2) */
  zo_type_classes_init(&k->classes, rs);
  return k;
}

void zo_obs_checker_free(zo_obs_checker *k) {
  if (!k) return;
  free(k->kind);
  free(k->types);
  free(k->prev);
  free(k->ztype);
  free(k->zplayer);
  free(k->ids);
  free(k->ref_set);
  free(k->ref_handle);
  free(k->ref_id);
  idmap_free(&k->id_index);
  idmap_free(&k->now);
  idmap_free(&k->name_index);
  free(k->twin);
  free(k->known);
  free(k->names);
  free(k->zid);
  free(k->prev_zid);
  zgroups_free(&k->cur);
  zgroups_free(&k->before);
  free(k->ev_head);
  free(k->ev_next);
  free(k->scratch);
  free(k->pairs);
  free(k);
}

/* ---- helpers ---------------------------------------------------------- */

static int viol(zo_obs_violation *v, const char *id, const char *rule, const zo_case *c, int h,
                const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
static int viol(zo_obs_violation *v, const char *id, const char *rule, const zo_case *c, int h,
                const char *fmt, ...) {
  if (!v) return 1;
  v->invariant = id;
  v->rule = rule;
  v->handle = h;
  char what[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (h >= 0 && h < c->nhandles) snprintf(v->detail, sizeof v->detail, "%s: %s", c->handles[h], what);
  else snprintf(v->detail, sizeof v->detail, "%s", what);
  return 1;
}

static const char *pname(const zo_case *c, int p) {
  return p >= 0 && p < c->nplayers ? c->players[p] : "nobody";
}

static const char *hname(const zo_case *c, int h) {
  return h >= 0 && h < c->nhandles ? c->handles[h] : "?";
}

static const char *kname(int kind) {
  return kind >= 0 ? zo_kind_name((zo_kind)kind) : "object";
}

/* An observed zone name ("battlefield", "alice.graveyard",
 * "alice.weapon.2", "outside") -> rule set zone type and player. Returns
 * the type index, ZO_ZT_OUTSIDE, or -1 for no zone of this rule set (a
 * per-player type named without a player or the other way round too). */
static int parse_zone(const zo_obs_checker *k, const char *name, int *player) {
  *player = -1;
  if (!strcmp(name, "outside")) return ZO_ZT_OUTSIDE;
  const char *rest = name;
  size_t best = 0;
  for (int p = 0; p < k->c->nplayers; p++) {
    size_t len = strlen(k->c->players[p]);
    if (len > best && !strncmp(name, k->c->players[p], len) && name[len] == '.') {
      best = len;
      *player = p;
      rest = name + len + 1;
    }
  }
  char type[64];
  snprintf(type, sizeof type, "%s", rest);
  char *dot = strrchr(type, '.');
  if (dot) { /* ".N": the Nth zone of a type a player has several of */
    if (!dot[1]) return -1;
    for (const char *d = dot + 1; *d; d++)
      if (*d < '0' || *d > '9') return -1;
    *dot = 0;
  }
  int t = zo_ruleset_zone(k->rs, type);
  if (t < 0) return -1;
  if (!k->rs->zones[t].per_player.value != (*player < 0)) return -1;
  return t;
}

/* FNV-1a (64 bits) of a zone name: its key in name_index. */
static uint64_t name_hash(const char *name) {
  uint64_t x = 0xcbf29ce484222325ULL;
  for (const unsigned char *p = (const unsigned char *)name; *p; p++) x = (x ^ *p) * 0x100000001b3ULL;
  return x;
}

/* The names[] index of an observed zone name, parsed (parse_zone) and
 * added the first time the checker sees it, so each distinct name is
 * parsed once. hint: the index the same handle had in prev, tried first
 * (most objects stay where they were from one step to the next). */
static int zone_name_id(zo_obs_checker *k, const char *name, int hint) {
  if (hint >= 0 && !strcmp(k->names[hint].name, name)) return hint;
  uint64_t key = name_hash(name);
  int first = idmap_get(&k->name_index, key);
  for (int i = first; i >= 0; i = k->names[i].next)
    if (!strcmp(k->names[i].name, name)) return i;
  if (k->nnames == k->capnames) {
    k->capnames = k->capnames ? 2 * k->capnames : 32;
    k->names = zo_xrealloc(k->names, (size_t)k->capnames * sizeof *k->names);
  }
  zname *z = &k->names[k->nnames];
  size_t len = 0;
  while (len < sizeof z->name - 1 && name[len]) len++;
  memcpy(z->name, name, len);
  z->name[len] = 0;
  z->type = parse_zone(k, z->name, &z->player);
  z->next = first;
  idmap_put(&k->name_index, key, k->nnames);
  return k->nnames++;
}

/* Group the existing top-level objects h < n of objs by zone name (zid[h],
 * -1 where none exists; nnames names), in handle order, the groups
 * numbered by their first member: one pass to count, one to place. */
static void zgroups_build(zgroups *g, const zo_obj_obs *objs, const int *zid, int n,
                          int nnames) {
  if (g->cap < n + 1) {
    g->cap = n + 1;
    g->start = zo_xrealloc(g->start, (size_t)(g->cap + 1) * sizeof *g->start);
    g->members = zo_xrealloc(g->members, (size_t)g->cap * sizeof *g->members);
    g->name = zo_xrealloc(g->name, (size_t)g->cap * sizeof *g->name);
    g->sorted = zo_xrealloc(g->sorted, (size_t)g->cap);
    g->cursor = zo_xrealloc(g->cursor, (size_t)g->cap * sizeof *g->cursor);
  }
  if (g->capnames < nnames) {
    int cap = nnames > 2 * g->capnames ? nnames : 2 * g->capnames;
    g->of_name = zo_xrealloc(g->of_name, (size_t)cap * sizeof *g->of_name);
    g->stamp = zo_xrealloc(g->stamp, (size_t)cap * sizeof *g->stamp);
    memset(g->stamp + g->capnames, 0, (size_t)(cap - g->capnames) * sizeof *g->stamp);
    g->capnames = cap;
  }
  if (++g->gen == 0) { /* the generations wrapped: clear the stamps */
    memset(g->stamp, 0, (size_t)g->capnames * sizeof *g->stamp);
    g->gen = 1;
  }
  g->ngroups = 0;
  for (int h = 0; h < n; h++) {
    int nm = zid[h];
    if (nm < 0 || objs[h].under >= 0) continue;
    if (g->stamp[nm] != g->gen) {
      g->stamp[nm] = g->gen;
      g->of_name[nm] = g->ngroups;
      g->name[g->ngroups] = nm;
      g->cursor[g->ngroups++] = 0;
    }
    g->cursor[g->of_name[nm]]++;
  }
  int sum = 0;
  for (int i = 0; i < g->ngroups; i++) {
    g->start[i] = sum;
    sum += g->cursor[i];
    g->cursor[i] = g->start[i];
    g->sorted[i] = 0;
  }
  g->start[g->ngroups] = sum;
  for (int h = 0; h < n; h++)
    if (zid[h] >= 0 && objs[h].under < 0) g->members[g->cursor[g->of_name[zid[h]]]++] = h;
}

/* The group of zone name nm in g, or -1 when no object is there. */
static int zgroups_of(const zgroups *g, int nm) {
  return nm >= 0 && nm < g->capnames && g->stamp[nm] == g->gen ? g->of_name[nm] : -1;
}

/* qsort order of zone_pos: by position, then handle. */
static int by_position(const void *a, const void *b) {
  const zone_pos *x = a, *y = b;
  if (x->position != y->position) return x->position < y->position ? -1 : 1;
  return (x->handle > y->handle) - (x->handle < y->handle);
}

/* Group gi of g put in position order (by objs[].position, ties in handle
 * order: what an insertion sort of the handle-ordered members gives), in
 * place, once; returns its members. O(m) when the positions are in order
 * already or are 0..m-1 each once (an ordered zone as it should be), else
 * O(m log m). Uses k->pairs. */
static const int *group_sorted(zo_obs_checker *k, zgroups *g, int gi, const zo_obj_obs *objs) {
  int *h = g->members + g->start[gi], m = g->start[gi + 1] - g->start[gi];
  if (g->sorted[gi]) return h;
  g->sorted[gi] = 1;
  int i = 1;
  while (i < m && objs[h[i - 1]].position <= objs[h[i]].position) i++;
  if (i >= m) return h;
  zone_pos *pp = k->pairs;
  for (i = 0; i < m; i++) pp[i].handle = -1;
  for (i = 0; i < m; i++) { /* each position once: each object to its place */
    int p = objs[h[i]].position;
    if (p < 0 || p >= m || pp[p].handle >= 0) break;
    pp[p].handle = h[i];
  }
  if (i < m) { /* gaps or repeats: sort */
    for (i = 0; i < m; i++) pp[i] = (zone_pos){objs[h[i]].position, h[i]};
    qsort(pp, (size_t)m, sizeof *pp, by_position);
  }
  for (i = 0; i < m; i++) h[i] = pp[i].handle;
  return h;
}

static int is_token(const zo_obs_checker *k, int h) {
  return zo_holds_is_token(&k->classes, k->kind[h], k->types[h]);
}

/* Index r's events by handle (ev_head, ev_next), so that events_for costs
 * an object's own events rather than all the step's (a draw of 1,000 cards
 * has 1,000 events). Undone by events_unindex. */
static void events_index(zo_obs_checker *k, const zo_step_result *r) {
  if (!r) return;
  if (r->nevents > k->capev) {
    k->capev = r->nevents;
    k->ev_next = zo_xrealloc(k->ev_next, (size_t)k->capev * sizeof *k->ev_next);
  }
  for (int i = 0; i < r->nevents; i++) {
    int h = r->events[i].handle;
    if (h < 0 || h >= k->n) continue;
    k->ev_next[i] = k->ev_head[h];
    k->ev_head[h] = i;
  }
  k->ev_r = r;
}

/* Empty the index events_index made. */
static void events_unindex(zo_obs_checker *k) {
  const zo_step_result *r = k->ev_r;
  for (int i = 0; r && i < r->nevents; i++)
    if (r->events[i].handle >= 0 && r->events[i].handle < k->n) k->ev_head[r->events[i].handle] = -1;
  k->ev_r = NULL;
}

/* The number of r's events for handle h with an outcome in the set
 * `outcomes` (bits 1 << outcome). */
static int events_for(const zo_obs_checker *k, const zo_step_result *r, int h, unsigned outcomes) {
  int n = 0;
  if (r && r == k->ev_r && h >= 0 && h < k->n) { /* indexed */
    for (int i = k->ev_head[h]; i >= 0; i = k->ev_next[i])
      if ((unsigned)r->events[i].outcome < 32 && (outcomes & (1u << r->events[i].outcome))) n++;
    return n;
  }
  for (int i = 0; r && i < r->nevents; i++)
    if (r->events[i].handle == h && (unsigned)r->events[i].outcome < 32 &&
        (outcomes & (1u << r->events[i].outcome)))
      n++;
  return n;
}

#define O(x) (1u << ZO_OUTCOME_##x)
#define ANY_OUTCOME (~0u)
#define MOVED_SET (O(MOVED) | O(REDIRECTED) | O(REPLACED))

/* ---- the check -------------------------------------------------------- */

/* Invariants of one existing object h (zone parsed into k->ztype/zplayer). */
static int check_object(zo_obs_checker *k, const zo_observation *ob, int h, int at_rest, int ended,
                        zo_obs_violation *v) {
  const zo_case *c = k->c;
  const zo_ruleset *rs = k->rs;
  const zo_obj_obs *o = &ob->objs[h];
  int kind = k->kind[h], t = k->ztype[h], zp = k->zplayer[h];
  const zo_zone_type *zt = t >= 0 ? &rs->zones[t] : NULL;

  /* in-a-zone */
  if (!o->zone[0])
    return viol(v, "in-a-zone", "CR 400.1; FaB 3.0.7", c, h, "exists in no zone");
  if (t == ZO_ZT_OUTSIDE && kind >= 0 && kind != ZK_CARD)
    return viol(v, "in-a-zone", "CR 400.10; FaB 3.0.7", c, h,
                "a %s outside the game, where only cards exist", kname(kind));
  if (t == -1)
    return viol(v, "in-a-zone", "CR 400.1; FaB 3.0.1", c, h, "in '%s', not a zone of rule set %s",
                o->zone, rs->id);

  /* sub-cards */
  if (o->under >= 0) {
    int top = o->under;
    if (SWV(k, SW_SUB_CARDS) != ZS_YES)
      return viol(v, "sub-cards", "FaB 3.0.14", c, h, "a sub-card (under %s), which rule set %s has not",
                  hname(c, top), rs->id);
    if (top >= ob->nhandles || top == h || !ob->objs[top].exists)
      return viol(v, "sub-cards", "FaB 3.0.14", c, h, "a sub-card under %s, which does not exist",
                  hname(c, top));
    if (ob->objs[top].under >= 0)
      return viol(v, "sub-cards", "FaB 3.0.14", c, h, "under %s, which is itself a sub-card",
                  hname(c, top));
    if (strcmp(ob->objs[top].zone, o->zone))
      return viol(v, "sub-cards", "FaB 3.0.14", c, h, "a sub-card in %s, its top-card %s in %s",
                  o->zone, hname(c, top), ob->objs[top].zone);
    if (o->position >= 0 || o->layer >= 0)
      return viol(v, "sub-cards", "FaB 3.0.14b", c, h,
                  "a sub-card listed at position %d in %s: sub-cards are not in the zone",
                  o->position >= 0 ? o->position : o->layer, o->zone);
  }

  /* one-zone: the same object shown on two handles (twin: the lowest
     other handle showing this identity, from zo_observation_check) */
  int j = k->twin[h];
  if (j >= 0)
    return viol(v, "one-zone", "FaB 3.0.1a; CR 400.7", c, h,
                "the same object (identity) as %s: one object in %s and %s", hname(c, j), o->zone,
                ob->objs[j].zone);

  int top_level = o->under < 0;
  /* tokens-in-arena */
  if (at_rest && is_token(k, h)) {
    int in_arena = zt && top_level && zt->arena.value;
    if (!in_arena && !(!top_level && SWV(k, SW_SUB_CARDS) == ZS_YES))
      return viol(v, "tokens-in-arena", "CR 111.7, 704.5d; FaB 8.1.8a", c, h,
                  "a token in %s at rest (tokens exist only on the battlefield / in the arena)",
                  o->zone);
  }

  /* copies-on-stack */
  int on_stack = zt && top_level && zt->role == ZR_STACK;
  if (kind == ZK_ABILITY && !on_stack)
    return viol(v, "copies-on-stack", "CR 704.5e; Z.9.6; FaB 1.6.2b", c, h,
                "an ability in %s: abilities exist only on the stack", o->zone);
  if (kind == ZK_COPY && at_rest && SWV(k, SW_COPIES) == ZS_CEASE_OFF_STACK && !on_stack &&
      !(zt && zt->role == ZR_BATTLEFIELD))
    return viol(v, "copies-on-stack", "CR 704.5e", c, h, "a copy of a spell in %s at rest", o->zone);

  /* no-controller */
  if (o->controller >= 0 && (!zt || !top_level || !zt->controller.value))
    return viol(v, "no-controller", "CR 109.4; FaB 1.2.1b", c, h,
                "controlled by %s in %s%s, where objects have no controller",
                pname(c, o->controller), o->zone, top_level ? "" : " as a sub-card");

  if (zt && top_level) {
    /* owner-zones */
    if (zt->owner_only.value && zp >= 0 && o->owner != zp && !ended)
      return viol(v, "owner-zones", "CR 400.3; FaB 3.0.2", c, h,
                  "owned by %s, in %s, which holds only its owner's objects", pname(c, o->owner),
                  o->zone);
    /* can-hold */
    unsigned holds = (unsigned)zt->holds.value;
    if ((holds & ZH_NO_INSTANTS) && (k->types[h] & k->classes.instant_sorcery))
      return viol(v, "can-hold", "CR 400.4a", c, h, "an instant or sorcery in %s", o->zone);
    if (kind >= 0) {
      /* what zt holds (holds.h); equip: the rule set's own bits, as this
         checker has always compared them */
      unsigned refusal = zo_holds_refusal(&k->classes, zt, kind, k->types[h], zt->equip_types);
      const char *why = refusal == ZH_DECK_CARDS ? "holds only deck-cards (FaB 1.3.2c)"
                        : refusal == ZH_CARDS    ? "holds only cards"
                        : refusal == ZH_PERMANENTS ? "holds only permanents (FaB 1.3.3)"
                        : refusal == ZH_HERO     ? "holds only a hero"
                        : refusal == ZH_EQUIP    ? "holds only equipment of its kind"
                                                 : NULL;
      if (why)
        return viol(v, "can-hold", "FaB 3.0.11; CR 400.4a", c, h, "a %s in %s, which %s", kname(kind),
                    o->zone, why);
    }
    /* deck-hidden */
    if (zt->role == ZR_LIBRARY) {
      if (o->visibility)
        return viol(v, "deck-hidden", "CR 401.2; Z.6.2; FaB 3.7.4", c, h, "public in %s", o->zone);
      for (int p = 0; p < ob->nplayers && ob->sees; p++)
        if (ob->sees[p * ob->nhandles + h])
          return viol(v, "deck-hidden", "CR 401.2; Z.6.2; FaB 3.7.4", c, h,
                      "%s may look at it in %s", pname(c, p), o->zone);
    }
  }

  /* fresh-ids: the record of this identity, if it was seen before (ids
     holds each identity once) */
  int known = k->known[h];
  if (known >= 0) {
    const idrec *d = &k->ids[known];
    if (d->handle != h)
      return viol(v, "fresh-ids", "CR 400.7", c, h, "shows the identity %s had%s", hname(c, d->handle),
                  d->retired ? " before it became a new object or ceased" : "");
    if (d->retired)
      return viol(v, "fresh-ids", "CR 400.7", c, h,
                  "its earlier identity came back after it became a new object");
  }
  return 0;
}

/* Per zone instance: capacity and positions (stack-layers). Zones in the
 * order of their first member (k->cur, built by zo_observation_check),
 * each member list in position order. */
static int check_zones(zo_obs_checker *k, const zo_observation *ob, zo_obs_violation *v) {
  const zo_case *c = k->c;
  zgroups *zg = &k->cur;
  for (int g = 0; g < zg->ngroups; g++) {
    const zname *nm = &k->names[zg->name[g]];
    if (nm->type < 0) continue;
    const char *zone = nm->name;
    const zo_zone_type *zt = &k->rs->zones[nm->type];
    int m = zg->start[g + 1] - zg->start[g];
    if (zt->capacity.value > 0 && m > zt->capacity.value) {
      const int *buf = group_sorted(k, zg, g, ob->objs);
      return viol(v, "capacity", "FaB 3.2.2, 3.3.2, 3.16.2", c, buf[m - 1],
                  "one of %d objects in %s, whose capacity is %d", m, zone, zt->capacity.value);
    }
    if (!zt->ordered.value) continue;
    const int *buf = group_sorted(k, zg, g, ob->objs);
    int any_pos = 0, any_layer = 0;
    for (int i = 0; i < m; i++) {
      any_pos |= ob->objs[buf[i]].position >= 0;
      any_layer |= ob->objs[buf[i]].layer >= 0;
    }
    if (any_pos)
      for (int i = 0; i < m; i++) { /* sorted: position i must be i */
        int p = ob->objs[buf[i]].position;
        if (p < 0)
          return viol(v, "stack-layers", "CR 400.5; FaB 3.15.4", c, buf[i],
                      "no position in %s, an ordered zone of %d objects", zone, m);
        if (p != i)
          return viol(v, "stack-layers", "CR 400.5; FaB 3.15.4", c, buf[i],
                      "position %d in %s, whose %d objects take positions 0..%d, each once", p,
                      zone, m, m - 1);
      }
    if (any_layer && zt->role == ZR_STACK && SWV(k, SW_STACK_LAYERS) == ZS_YES) {
      /* seen[l]: layer l (1..m) taken by an earlier member; a layer out of
         1..m fails at its first member, so only those are remembered */
      unsigned char *seen = zo_xcalloc((size_t)m + 2, 1);
      for (int i = 0; i < m; i++) {
        int l = ob->objs[buf[i]].layer;
        int dup = l >= 1 && l <= m && seen[l];
        /* FaB 3.15.4-6: layer 1 is the bottom; with positions (0 = top)
           the layer is N - position, without them 1..N each once */
        int want = any_pos ? m - ob->objs[buf[i]].position : l;
        if (l < 1 || l > m || dup || l != want) {
          free(seen);
          return viol(v, "stack-layers", "FaB 3.15.4-6", c, buf[i],
                      "layer %d in %s, whose %d layers are 1..%d from the bottom", l, zone, m, m);
        }
        seen[l] = 1;
      }
      free(seen);
    }
  }
  return 0;
}

/* identity-rule: identity and existence change only as the step's events
 * say, and as the rule set's new_object switch says for a plain move. */
static int check_identity(zo_obs_checker *k, const zo_step *s, const zo_step_result *r,
                          const zo_observation *ob, zo_obs_violation *v) {
  const zo_case *c = k->c;
  int n = ob->nhandles < k->n ? ob->nhandles : k->n;
  unsigned flags = tree_flags(s);
  unsigned changes = MOVED_SET | O(NEW_OBJECT_IN_PLACE) | O(CLEARED);
  /* FaB 3.0.9: a same-zone move or turn from public to private makes a
     new object with no zone change (per-object visibility) */
  if (k->per_object) changes |= O(NO_MOVE);
  int sw_new = SWV(k, SW_NEW_OBJECT);
  for (int h = 0; h < n; h++) {
    const zo_obj_obs *p = &k->prev[h], *o = &ob->objs[h];
    if (!p->exists && !o->exists) continue;
    if (!p->exists) {
      if (!events_for(k, r, h, ANY_OUTCOME))
        return viol(v, "identity-rule", "CR 400.7; FaB 3.0.9", c, h,
                    "came into existence in %s with no event of the step for it", o->zone);
      continue;
    }
    if (!o->exists) {
      if (!events_for(k, r, h, O(CEASED)))
        return viol(v, "identity-rule", "CR 400.7; FaB 3.0.9", c, h,
                    "ceased to exist (was in %s) with no 'ceased' event of the step", p->zone);
      continue;
    }
    int changed = p->object != o->object;
    if (changed && !events_for(k, r, h, changes))
      return viol(v, "identity-rule", "CR 400.7; FaB 3.0.9", c, h,
                  "became a new object (%s -> %s) with no event saying it moved, was cleared or "
                  "became new", p->zone, o->zone);
    if (!changed) {
      int said = events_for(k, r, h, O(NEW_OBJECT_IN_PLACE) | O(CLEARED));
      if (said)
        return viol(v, "identity-rule", "CR 400.8; FaB 3.0.12", c, h,
                    "the step says it became new (new_object_in_place or cleared), its identity "
                    "did not change");
    }
    /* how a plain move decides identity (not phasing, Z.7.2; not a
       put_under or create, which have their own events) */
    if (flags & (F_PHASE | F_PUT_UNDER | F_CREATE)) continue;
    int moved = events_for(k, r, h, MOVED_SET);
    if (!moved) continue;
    if (sw_new == ZS_EVERY_MOVE && !changed)
      return viol(v, "identity-rule", "CR 400.7", c, h,
                  "moved (%s -> %s) and stayed the same object; in rule set %s every zone change "
                  "makes a new object", p->zone, o->zone, k->rs->id);
    if (sw_new == ZS_LEAVE_ARENA && moved == 1 && events_for(k, r, h, ANY_OUTCOME) == 1 &&
        strcmp(p->zone, "outside")) {
      const zo_zone_type *dz = k->ztype[h] >= 0 ? &k->rs->zones[k->ztype[h]] : NULL;
      int want = !dz || (!dz->arena.value && dz->role != ZR_STACK) || p->under >= 0 ||
                 (k->per_object && p->visibility && !o->visibility);
      if (want != changed)
        return viol(v, "identity-rule", "FaB 3.0.9", c, h,
                    "moved %s -> %s and %s; FaB 3.0.9 makes it new only leaving the arena and "
                    "stack, as a sub-card, or turning private",
                    p->zone, o->zone, changed ? "became a new object" : "stayed the same object");
    }
  }
  return 0;
}

/* stale-refs: a reference finds only what its remember step saw. */
static int check_refs(zo_obs_checker *k, const zo_step *s, const zo_observation *ob,
                      zo_obs_violation *v) {
  const zo_case *c = k->c;
  int nrefs = ob->nrefs < c->nrefs ? ob->nrefs : c->nrefs;
  for (int i = 0; i < nrefs; i++) {
    if (!ob->ref_found[i] || (s && tree_remembers(s, i))) continue;
    int h = ob->ref_handle ? ob->ref_handle[i] : -1;
    if (!k->ref_set[i])
      return viol(v, "stale-refs", "CR 400.7d; Z.1.Ruling.3", c, h,
                  "reference '%s' finds it, but no remember step set that reference", c->refs[i]);
    if (h != k->ref_handle[i])
      return viol(v, "stale-refs", "CR 400.7d; Z.1.Ruling.3", c, h,
                  "reference '%s' finds it, but it remembered %s", c->refs[i],
                  hname(c, k->ref_handle[i]));
    if (h < 0 || h >= ob->nhandles || !ob->objs[h].exists || ob->objs[h].object != k->ref_id[i])
      return viol(v, "stale-refs", "CR 400.7d; Z.1.Ruling.3", c, h,
                  "reference '%s' still finds it after it became a new object or ceased",
                  c->refs[i]);
  }
  return 0;
}

/* Does the step have an event for handle h? */
static int touched(const zo_obs_checker *k, const zo_step_result *r, int h) {
  return events_for(k, r, h, ANY_OUTCOME) > 0;
}

/* An ordered zone of prev (a group of k->before) and its first member
 * with a position, the order in which check_order takes the zones. */
typedef struct { int first, group; } order_zone;

/* qsort order of order_zone: by first member. */
static int by_first(const void *a, const void *b) {
  const order_zone *x = a, *y = b;
  return (x->first > y->first) - (x->first < y->first);
}

/* order-kept: in an ordered zone, objects without an event keep their
 * relative order (CR 400.5; Z.3.4; 217.2b). Each ordered zone of prev with
 * a positioned member is taken once, in the order of that first member:
 * its untouched members in prev's order that are still there, against the
 * zone's untouched members now that were there before. Linear in objects
 * (but for sorting members that are out of position order). */
static int check_order(zo_obs_checker *k, const zo_step_result *r, const zo_observation *ob,
                       zo_obs_violation *v) {
  const zo_case *c = k->c;
  int n = ob->nhandles < k->n ? ob->nhandles : k->n;
  int *a = k->scratch, *b = k->scratch + n + 1;
  zgroups *bg = &k->before, *cg = &k->cur;
  if (k->before_n != n) { /* else: the last sound check's groups, prev's */
    zgroups_build(bg, k->prev, k->prev_zid, n, k->nnames);
    k->before_n = n;
  }
  order_zone *oz = zo_xcalloc((size_t)bg->ngroups + 1, sizeof *oz);
  int noz = 0;
  for (int g = 0; g < bg->ngroups; g++) {
    int t = k->names[bg->name[g]].type; /* the zone it was in */
    if (t < 0 || !k->rs->zones[t].ordered.value) continue;
    int first = -1;
    for (int i = bg->start[g]; i < bg->start[g + 1]; i++) {
      int h = bg->members[i];
      if (k->prev[h].position >= 0 && (first < 0 || h < first)) first = h;
    }
    if (first >= 0) oz[noz++] = (order_zone){first, g};
  }
  qsort(oz, (size_t)noz, sizeof *oz, by_first);
  int bad = 0;
  for (int z = 0; z < noz && !bad; z++) {
    int g = oz[z].group, nm = bg->name[g];
    const char *zone = k->names[nm].name;
    int na = 0, nb = 0;
    const int *pm = group_sorted(k, bg, g, k->prev);
    for (int i = bg->start[g]; i < bg->start[g + 1]; i++) { /* before, untouched and still there */
      int h = pm[i - bg->start[g]];
      if (!touched(k, r, h) && k->zid[h] == nm && ob->objs[h].under < 0 &&
          ob->objs[h].position >= 0)
        a[na++] = h;
    }
    int cgi = zgroups_of(cg, nm);
    if (cgi >= 0) {
      const int *cm = group_sorted(k, cg, cgi, ob->objs);
      for (int i = 0; i < cg->start[cgi + 1] - cg->start[cgi]; i++) { /* now, untouched and there before */
        int h = cm[i];
        if (!touched(k, r, h) && k->prev_zid[h] == nm && k->prev[h].under < 0 &&
            ob->objs[h].position >= 0)
          b[nb++] = h;
      }
    }
    for (int i = 0; i < na && i < nb && !bad; i++)
      if (a[i] != b[i])
        bad = viol(v, "order-kept", "CR 400.5; Z.3.4; 217.2b", c, a[i],
                   "now below %s in %s, though the step moved neither of them", hname(c, b[i]),
                   zone);
  }
  free(oz);
  return bad;
}

int zo_observation_check(zo_obs_checker *k, const zo_step *s, const zo_step_result *r,
                         const zo_observation *ob, zo_obs_violation *v) {
  const zo_case *c = k->c;
  int n = ob->nhandles < k->n ? ob->nhandles : k->n;
  unsigned flags = tree_flags(s);
  int at_rest = k->fab_tokens || (s && s->kind == ST_STATE_CHECK);
  int ended = k->ended || (flags & F_END_GAME);
  int bad = 0, ncards = 0, vanished = -1;
  /* each object's zone: its name once in names[], parsed once */
  for (int h = 0; h < k->n; h++) {
    if (h >= n || !ob->objs[h].exists) {
      k->zid[h] = k->ztype[h] = -1;
      continue;
    }
    int nm = zone_name_id(k, ob->objs[h].zone, k->prev_zid[h]);
    k->zid[h] = nm;
    k->ztype[h] = k->names[nm].type;
    k->zplayer[h] = k->names[nm].player;
  }
  /* one look-up per identity shown: known[j], its ids[] record (fresh-ids),
     and twin[j], the lowest other handle showing it (one-zone). An identity
     seen before is marked in id_index with this observation's number and
     its first handle; a new one goes into the map `now`. */
  if (ob->nhandles > k->capnow) {
    k->capnow = ob->nhandles;
    k->twin = zo_xrealloc(k->twin, (size_t)k->capnow * sizeof *k->twin);
    k->known = zo_xrealloc(k->known, (size_t)k->capnow * sizeof *k->known);
  }
  if (++k->nobs == 0) { /* the marks wrapped: clear them */
    for (size_t i = 0; i < k->id_index.cap; i++) k->id_index.slot[i].mark = 0;
    k->nobs = 1;
  }
  idmap_reset(&k->now, 0);
  for (int j = 0; j < ob->nhandles; j++) {
    k->twin[j] = k->known[j] = -1;
    if (!ob->objs[j].exists) continue;
    idslot *e = idmap_find(&k->id_index, ob->objs[j].object);
    if (e) {
      k->known[j] = e->val;
    } else if (!(e = idmap_find(&k->now, ob->objs[j].object))) {
      e = idmap_put(&k->now, ob->objs[j].object, j);
    }
    if (e->mark != k->nobs) { /* the first handle showing it */
      e->mark = k->nobs;
      e->mval = j;
      continue;
    }
    int f = e->mval;
    k->twin[j] = f; /* the first handle showing it is the lowest */
    if (k->twin[f] < 0) k->twin[f] = j;
  }
  events_index(k, s ? r : NULL);
  for (int h = 0; h < n && !bad; h++) {
    if (!ob->objs[h].exists) {
      if (k->kind[h] == ZK_CARD && k->prev[h].exists) vanished = h;
      continue;
    }
    if (k->kind[h] == ZK_CARD) ncards++;
    bad = check_object(k, ob, h, at_rest, ended, v);
  }
  /* cards-conserved: no zone rule creates or destroys a card */
  if (!bad && k->started && ncards != k->ncards)
    bad = viol(v, "cards-conserved", "CR 400.1; FaB 3.0.7", c, vanished,
               "%d cards in the game and outside it, %d at the setup%s", ncards, k->ncards,
               vanished >= 0 ? " (this card ceased to exist)" : "");
  if (!bad) {
    zgroups_build(&k->cur, ob->objs, k->zid, n, k->nnames);
    bad = check_zones(k, ob, v);
  }
  if (!bad && s && k->started) bad = check_identity(k, s, r, ob, v);
  if (!bad) bad = check_refs(k, s, ob, v);
  if (!bad && s && k->started && !(flags & F_REORDERS) &&
      !(k->repl_shuffles && (flags & F_MOVES)))
    bad = check_order(k, r, ob, v);
  events_unindex(k);
  if (bad) return 1;

  /* sound: remember it */
  for (int h = 0; h < n; h++) {
    const zo_obj_obs *p = &k->prev[h], *o = &ob->objs[h];
    if (k->started && p->exists && (!o->exists || p->object != o->object)) {
      int i = idmap_get(&k->id_index, p->object); /* CR 400.7: that identity is gone */
      if (i >= 0 && k->ids[i].handle == h) k->ids[i].retired = 1;
    }
    if (!o->exists) continue;
    if (k->known[h] >= 0) continue; /* seen before this observation */
    if (k->nids == k->capids) {
      k->capids = k->capids ? 2 * k->capids : 64;
      k->ids = zo_xrealloc(k->ids, (size_t)k->capids * sizeof *k->ids);
    }
    idmap_put(&k->id_index, o->object, k->nids);
    k->ids[k->nids++] = (idrec){.id = o->object, .handle = h, .retired = 0};
  }
  int nrefs = ob->nrefs < c->nrefs ? ob->nrefs : c->nrefs;
  for (int i = 0; s && i < nrefs; i++) /* a remember that found nothing keeps the old one */
    if (tree_remembers(s, i) && ob->ref_found[i] && ob->ref_handle && ob->ref_handle[i] >= 0 &&
        ob->ref_handle[i] < n) {
      k->ref_set[i] = 1;
      k->ref_handle[i] = ob->ref_handle[i];
      k->ref_id[i] = ob->objs[ob->ref_handle[i]].object;
    }
  memset(k->prev, 0, (size_t)k->n * sizeof *k->prev);
  memcpy(k->prev, ob->objs, (size_t)n * sizeof *k->prev);
  int *t = k->prev_zid; /* prev's zone names are this observation's */
  k->prev_zid = k->zid;
  k->zid = t;
  zgroups g = k->before; /* and so are its zones (built above) */
  k->before = k->cur;
  k->cur = g;
  k->before_n = n;
  if (!k->started) k->ncards = ncards;
  k->started = 1;
  k->ended = ended;
  return 0;
}
