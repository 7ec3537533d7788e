/* obs_index.c: the observation checker's indexes (obs_check_int.h): a
 * hash map of 64-bit keys (object identities, hashed zone names), zone
 * names parsed once, the objects of one observation grouped by zone and
 * sorted by position on demand, and a step's events indexed by handle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "obs_check_int.h"
#include "util.h"

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
void zo_obsx_idmap_free(idmap *m) {
  free(m->slot);
  memset(m, 0, sizeof *m);
}

/* Empty m, with room for n entries at half load (one increment when it
 * has the room already). */
void zo_obsx_idmap_reset(idmap *m, size_t n) {
  size_t want = 16;
  while (want < 2 * n + 2) want *= 2;
  if (want > m->cap) {
    zo_obsx_idmap_free(m);
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
idslot *zo_obsx_idmap_find(const idmap *m, uint64_t key) {
  if (!m->cap) return NULL;
  for (size_t i = idmap_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    idslot *e = &m->slot[i];
    if (e->gen != m->cur) return NULL;
    if (e->key == key) return e;
  }
}

/* The value of key, or -1. */
int zo_obsx_idmap_get(const idmap *m, uint64_t key) {
  const idslot *e = zo_obsx_idmap_find(m, key);
  return e ? e->val : -1;
}

/* Set key's value (adding the key with mark 0), growing m past half load;
 * returns its entry. */
idslot *zo_obsx_idmap_put(idmap *m, uint64_t key, int val) {
  if (2 * (m->used + 1) > m->cap) {
    idmap old = *m;
    idmap_alloc(m, old.cap ? 2 * old.cap : 16);
    for (size_t i = 0; i < old.cap; i++)
      if (old.slot[i].gen == old.cur) {
        idslot *e = zo_obsx_idmap_put(m, old.slot[i].key, old.slot[i].val);
        e->mark = old.slot[i].mark;
        e->mval = old.slot[i].mval;
      }
    zo_obsx_idmap_free(&old);
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
void zo_obsx_zgroups_free(zgroups *g) {
  free(g->start);
  free(g->members);
  free(g->name);
  free(g->sorted);
  free(g->cursor);
  free(g->of_name);
  free(g->stamp);
  memset(g, 0, sizeof *g);
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
int zo_obsx_zone_name_id(zo_obs_checker *k, const char *name, int hint) {
  if (hint >= 0 && !strcmp(k->names[hint].name, name)) return hint;
  uint64_t key = name_hash(name);
  int first = zo_obsx_idmap_get(&k->name_index, key);
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
  zo_obsx_idmap_put(&k->name_index, key, k->nnames);
  return k->nnames++;
}

/* Group the existing top-level objects h < n of objs by zone name (zid[h],
 * -1 where none exists; nnames names), in handle order, the groups
 * numbered by their first member: one pass to count, one to place. */
void zo_obsx_zgroups_build(zgroups *g, const zo_obj_obs *objs, const int *zid, int n,
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
int zo_obsx_zgroups_of(const zgroups *g, int nm) {
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
const int *zo_obsx_group_sorted(zo_obs_checker *k, zgroups *g, int gi, const zo_obj_obs *objs) {
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


/* Index r's events by handle (ev_head, ev_next), so that events_for costs
 * an object's own events rather than all the step's (a draw of 1,000 cards
 * has 1,000 events). Undone by events_unindex. */
void zo_obsx_events_index(zo_obs_checker *k, const zo_step_result *r) {
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
void zo_obsx_events_unindex(zo_obs_checker *k) {
  const zo_step_result *r = k->ev_r;
  for (int i = 0; r && i < r->nevents; i++)
    if (r->events[i].handle >= 0 && r->events[i].handle < k->n) k->ev_head[r->events[i].handle] = -1;
  k->ev_r = NULL;
}

/* The number of r's events for handle h with an outcome in the set
 * `outcomes` (bits 1 << outcome). */
int zo_obsx_events_for(const zo_obs_checker *k, const zo_step_result *r, int h, unsigned outcomes) {
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

