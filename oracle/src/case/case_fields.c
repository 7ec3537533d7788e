/* case_fields.c: the small readers every part of a case file is written
 * with (case_read.h): players, card handles and the names earlier steps
 * define, zones (checked against each rule set of the case), type words,
 * kinds, face and visibility. Below the files that read a case
 * (case_parse.c -> case_steps.c -> case_expect.c -> here), and calling
 * none of them; each refuses a node at its file:line:column (yread.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case_read.h"
#include "util.h"

/* ---- names: players, handles, triggers, refs ------------------------ */

zo_status cr_player(cr_parser *p, const yd_node *n, const char *what, int *out) {
  zo_status st = yr_want(&p->r, n, YD_SCALAR, what);
  if (st) return st;
  int i = cr_index(n->str, p->c->players, p->c->nplayers);
  if (i < 0)
    return yr_unknown(&p->r, n, ZO_ERR_UNKNOWN, "player", n->str, NULL,
                      (const char *const *)p->c->players, (size_t)p->c->nplayers);
  *out = i;
  return ZO_OK;
}

zo_status cr_handle(cr_parser *p, const yd_node *n, const char *what, int *out) {
  zo_status st = yr_want(&p->r, n, YD_SCALAR, what);
  if (st) return st;
  int i = cr_index(n->str, p->c->handles, p->c->nhandles);
  if (i < 0) {
    if (p->c->nhandles == 0)
      return yr_fail(&p->r, n, ZO_ERR_UNKNOWN, "unknown card '%s' (no cards yet)", n->str);
    return yr_unknown(&p->r, n, ZO_ERR_UNKNOWN, "card", n->str, NULL,
                      (const char *const *)p->c->handles, (size_t)p->c->nhandles);
  }
  *out = i;
  return ZO_OK;
}

zo_status cr_handle_list(cr_parser *p, const yd_node *n, const char *what, int **out,
                         int *count) {
  zo_status st = yr_want(&p->r, n, YD_SEQ, what);
  if (st) return st;
  *out = zo_xcalloc(n->n ? n->n : 1, sizeof **out);
  *count = 0;
  for (size_t i = 0; i < n->n; i++) {
    if ((st = cr_handle(p, n->kids[i], what, &(*out)[i]))) return st;
    (*count)++;
  }
  return ZO_OK;
}

zo_status cr_new_name(cr_parser *p, const yd_node *n, const char *what, char ***names,
                      int *count, int *out) {
  zo_status st = yr_want(&p->r, n, YD_SCALAR, what);
  if (st) return st;
  if (strchr(n->str, '.') || strchr(n->str, ' ') || !n->str[0])
    return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "%s '%s' must be one word without '.'", what,
                   n->str);
  if (cr_index(n->str, *names, *count) >= 0)
    return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "%s '%s' is already used", what, n->str);
  *out = cr_add_name(names, count, n->str);
  return ZO_OK;
}

zo_status cr_named(cr_parser *p, const yd_node *n, const char *what, char **names, int count,
                   int *out) {
  zo_status st = yr_want(&p->r, n, YD_SCALAR, what);
  if (st) return st;
  int i = cr_index(n->str, names, count);
  if (i < 0) {
    if (!count)
      return yr_fail(&p->r, n, ZO_ERR_UNKNOWN, "unknown %s '%s' (none defined before this step)",
                     what, n->str);
    return yr_unknown(&p->r, n, ZO_ERR_UNKNOWN, what, n->str, NULL, (const char *const *)names,
                      (size_t)count);
  }
  *out = i;
  return ZO_OK;
}

/* ---- zones ---------------------------------------------------------- */

/* The longest zone name a case may write, in bytes ("player.type.N"). */
#define ZONE_TEXT_MAX 95

/* The zone type `type` (with player and index as parsed into *out) in each
 * rule set of the case. */
static zo_status zone_in_rulesets(cr_parser *p, const yd_node *n, const char *type,
                                  const zo_zone_spec *out) {
  for (int r = 0; r < p->nrs; r++) {
    const zo_ruleset *rs = p->rs[r];
    int zi = zo_ruleset_zone(rs, type);
    if (zi < 0) {
      const char *names[ZO_MAX_ZONE_TYPES];
      int nn = 0;
      for (int z = 0; z < rs->nzones; z++) names[nn++] = rs->zones[z].name;
      size_t cap = strlen(rs->id) + sizeof "rule set ";
      char *where = zo_xmalloc(cap);
      snprintf(where, cap, "rule set %s", rs->id);
      zo_status st = yr_unknown(&p->r, n, ZO_ERR_UNKNOWN, "zone", type, where, names, (size_t)nn);
      free(where);
      return st;
    }
    const zo_zone_type *zt = &rs->zones[zi];
    if (out->player >= 0 && !zt->per_player.value)
      return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "zone '%s' is shared in %s: write it without a player",
                     type, rs->id);
    if (out->index > zt->count.value && rs->sw[SW_ZONE_LIFECYCLE].value != ZS_YES)
      return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "%s has %d %s zone%s per player in %s", n->str,
                     zt->count.value, type, zt->count.value > 1 ? "s" : "", rs->id);
  }
  return ZO_OK;
}

zo_status cr_zone(cr_parser *p, const yd_node *n, const char *what, int allow,
                  zo_zone_spec *out) {
  zo_status st = yr_want(&p->r, n, YD_SCALAR, what);
  if (st) return st;
  out->player = -1;
  out->index = 0;
  char buf[ZONE_TEXT_MAX + 1];
  if (strlen(n->str) >= sizeof buf)
    return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "zone name too long (at most %d characters)",
                   ZONE_TEXT_MAX);
  snprintf(buf, sizeof buf, "%s", n->str);
  if (!strcmp(buf, "outside") && (allow & CR_OUTSIDE)) {
    out->type = ZO_ZT_OUTSIDE;
    return ZO_OK;
  }
  if (!strcmp(buf, "any") && (allow & CR_ANY)) {
    out->type = ZO_ZT_ANY;
    return ZO_OK;
  }
  char *parts[3] = {buf, NULL, NULL};
  int np = 1;
  for (char *s = buf; *s; s++)
    if (*s == '.' && np < 3) {
      *s = 0;
      parts[np++] = s + 1;
    }
  char *type = parts[0];
  if (np >= 2) {
    int pl = cr_index(parts[0], p->c->players, p->c->nplayers);
    if (pl < 0)
      return yr_unknown(&p->r, n, ZO_ERR_UNKNOWN, "player in zone name", parts[0], NULL,
                        (const char *const *)p->c->players, (size_t)p->c->nplayers);
    out->player = pl;
    type = parts[1];
    if (np == 3) {
      char *end;
      long ix = strtol(parts[2], &end, 10);
      if (*end || ix < 1 || ix > 16)
        return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "zone index '%s' must be 1..16 in %s", parts[2],
                       n->str);
      out->index = (int)ix;
    }
  }
  if (!strcmp(type, "arena") && out->player < 0 && (allow & CR_ARENA)) {
    for (int r = 0; r < p->nrs; r++)
      if (p->rs[r]->sw[SW_ARENA_DEFAULT].value != ZS_PERMANENT_ZONE)
        return yr_fail(&p->r, n, ZO_ERR_UNKNOWN, "'arena' is not a destination in rule set %s "
                       "(only where the arena is not a zone)", p->rs[r]->id);
    out->type = ZO_ZT_ARENA;
    return ZO_OK;
  }
  if ((st = zone_in_rulesets(p, n, type, out))) return st;
  out->type = cr_ztype(p->c, type);
  return ZO_OK;
}

zo_status cr_zone_text(cr_parser *p, const yd_node *n, const char *what, char *buf, size_t cap) {
  zo_zone_spec z;
  zo_status st = cr_zone(p, n, what, CR_OUTSIDE, &z);
  if (st) return st;
  if (z.type >= 0 && z.player < 0) {
    /* observed names are full: a per-player zone needs its player */
    for (int r = 0; r < p->nrs; r++) {
      int zi = zo_ruleset_zone(p->rs[r], p->c->ztypes[z.type]);
      if (p->rs[r]->zones[zi].per_player.value) {
        const char *pl = p->c->nplayers ? p->c->players[0] : "alice";
        return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "'%s' is a zone of each player: write the full "
                       "name, e.g. %s.%s", n->str, pl, n->str);
      }
    }
  }
  return yr_name(&p->r, n, what, buf, cap);
}

/* ---- types, kinds, face, visibility ----------------------------------- */

/* A word the model does not know joins the case's own table
 * (zo_case.xtypes), never a table another file shares. Refused at the
 * word: one not lower case without spaces, and one beyond ZO_MAX_XTYPES
 * words of the case's own. */
zo_status cr_types(cr_parser *p, const yd_node *n, const char *what, uint64_t *bits) {
  zo_status st = yr_want(&p->r, n, YD_SEQ, what);
  if (st) return st;
  for (size_t i = 0; i < n->n; i++) {
    const yd_node *t = n->kids[i];
    if ((st = yr_want(&p->r, t, YD_SCALAR, what))) return st;
    for (const char *s = t->str; *s; s++)
      if (*s == ' ' || (*s >= 'A' && *s <= 'Z'))
        return yr_fail(&p->r, t, ZO_ERR_SCHEMA, "type words are lower case with _ for spaces "
                       "(got '%s')", t->str);
    uint64_t b = zo_type_intern(&p->c->xtypes, &p->c->nxtypes, t->str);
    if (!b)
      return yr_fail(&p->r, t, ZO_ERR_SCHEMA, "type word '%s': a case may use at most %d type "
                     "words the model does not know", t->str, ZO_MAX_XTYPES);
    *bits |= b;
  }
  return ZO_OK;
}

zo_status cr_kind(cr_parser *p, const yd_node *n, zo_kind *out) {
  zo_status st = yr_want(&p->r, n, YD_SCALAR, "kind");
  if (st) return st;
  int k = yr_index(n->str, zo_kind_names, ZK_COUNT);
  if (k < 0) return yr_unknown(&p->r, n, ZO_ERR_UNKNOWN, "kind", n->str, NULL, zo_kind_names, ZK_COUNT);
  *out = (zo_kind)k;
  return ZO_OK;
}

zo_status cr_face(cr_parser *p, const yd_node *n, int *out) {
  zo_status st = yr_want(&p->r, n, YD_SCALAR, "face");
  if (st) return st;
  if (!strcmp(n->str, "up")) *out = 0;
  else if (!strcmp(n->str, "down")) *out = 1;
  else return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "expected up or down for face");
  return ZO_OK;
}

zo_status cr_visibility(cr_parser *p, const yd_node *n, int *out) {
  zo_status st = yr_want(&p->r, n, YD_SCALAR, "visibility");
  if (st) return st;
  if (!strcmp(n->str, "public")) *out = 1;
  else if (!strcmp(n->str, "private")) *out = 0;
  else return yr_fail(&p->r, n, ZO_ERR_SCHEMA, "expected public or private for visibility");
  return ZO_OK;
}
