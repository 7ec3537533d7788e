/* mutants.c: the oracle's mutants (mutants.h). */
#include "mutants.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "util.h"

/* The mutated zone attributes in the order each zone lists its mutants
 * (ZO_ZONE_ATTRS' mutant column: 0 never, else its place). */
#define ROW_MUTANT(id, field, key, value, mutant) mutant,
static const int attr_mutant[ZA_COUNT] = {ZO_ZONE_ATTRS(ROW_MUTANT)};
#undef ROW_MUTANT

/* The attributes flipped, in their mutant order; their count. */
static int mutated_attrs(zo_zone_attr out[ZA_COUNT]) {
  int n = 0;
  for (int rank = 1; rank <= ZA_COUNT; rank++)
    for (int a = 0; a < ZA_COUNT; a++)
      if (attr_mutant[a] == rank) out[n++] = (zo_zone_attr)a;
  return n;
}

/* Does a zone of rs make a new object of a card put into it from itself
 * (exile to exile, CR 400.8; removed to removed, 217.1f)? */
static int same_zone_renews(const zo_ruleset *rs) {
  for (int z = 0; z < rs->nzones; z++)
    if (rs->zones[z].same_zone_new.value) return 1;
  return 0;
}

/* Every mutant: each cited switch of each rule set set to a value another
 * rule set uses for it, and each cited zone attribute flipped. */
int zo_mutants_list(zo_mutant **out) {
  int n = 0, cap = 0;
  zo_mutant *m = NULL;
  size_t nrs = zo_ruleset_count();
  for (size_t r = 0; r < nrs; r++) {
    const zo_ruleset *rs = zo_ruleset_at(r);
    for (int s = 0; s < SW_COUNT; s++) {
      if (!rs->sw[s].nrules) continue; /* unspecified: not tested */
      /* Equivalent mutants (no case can tell them apart) are not listed:
         - who orders simultaneous arrivals: in a per-player zone they are
           its owner's (redirect, owner-only zones), so `owner` and
           `zone_controller` name the same player (move_together order_by:
           is checked against it; the zone attribute putter_orders is
           what an era changes, issue 12 G3);
         - where phasing is a zone, a phased-out token is a token outside
           play and token_leaves already ends it (217.8d follows 216.3);
         - cannot_hold acts only on a zone that refuses an object, and no
           zone of a rule set without capacity or holds-limits refuses */
      if (s == SW_ORDER_CHOOSER) continue;
      if (s == SW_PHASED_TOKENS && rs->sw[SW_PHASING].value == ZS_ZONE) continue;
      if (s == SW_CANNOT_HOLD) {
        int refuses = 0;
        for (int z = 0; z < rs->nzones; z++)
          refuses |= rs->zones[z].capacity.value > 0 ||
                     (rs->zones[z].holds.value & ~(ZH_NO_INSTANTS)) != 0;
        if (!refuses) continue;
      }
      int seen[ZS_COUNT_] = {0};
      seen[rs->sw[s].value] = 1;
      for (size_t o = 0; o < nrs; o++) {
        int v = zo_ruleset_at(o)->sw[s].value;
        if (seen[v]) continue;
        seen[v] = 1;
        /* phased_tokens=none means "no phasing": where phasing exists it
           reads as survive */
        if (s == SW_PHASED_TOKENS && v == ZS_NONE) continue;
        /* phased_effects=none (no phasing, FaB) reads as kept (G4) */
        if (s == SW_PHASED_EFFECTS && v == ZS_NONE) continue;
        /* look_face_down: yes and until_leaves differ only where a card
           becomes a new object without leaving its zone (same_zone_new);
           with no such zone a look ends only by leaving */
        if (s == SW_LOOK_FACE_DOWN && !same_zone_renews(rs) &&
            (v == ZS_UNTIL_LEAVES || v == ZS_YES) && rs->sw[s].value != ZS_NONE)
          continue;
        if (n == cap) m = zo_xrealloc(m, (size_t)(cap = cap ? cap * 2 : 64) * sizeof *m);
        m[n] = (zo_mutant){.rs = (int)r, .sw = s, .value = v, .zone = -1};
        snprintf(m[n].name, sizeof m[n].name, "%s:%s=%s", rs->id, zo_switch_name((zo_switch)s),
                 zo_switch_value_name(v));
        n++;
      }
    }
    zo_zone_attr attrs[ZA_COUNT];
    int nattrs = mutated_attrs(attrs);
    for (int z = 0; z < rs->nzones; z++)
      for (int i = 0; i < nattrs; i++) {
        zo_zone_attr a = attrs[i];
        const zo_cited *ci = zo_zone_cited((zo_zone_type *)&rs->zones[z], a);
        if (!ci->nrules) continue;
        /* a deck is face down whatever its default (FaB 3.7.5): the model
           keeps it private by its role */
        if (a == ZA_VISIBILITY && rs->zones[z].role == ZR_LIBRARY &&
            rs->sw[SW_VISIBILITY].value == ZS_PER_OBJECT)
          continue;
        if (n == cap) m = zo_xrealloc(m, (size_t)(cap = cap ? cap * 2 : 64) * sizeof *m);
        m[n] = (zo_mutant){.rs = (int)r, .sw = -1, .zone = z, .attr = a};
        snprintf(m[n].name, sizeof m[n].name, "%s:%s.%s", rs->id, rs->zones[z].name,
                 zo_zone_attr_keys[a]);
        n++;
      }
  }
  *out = m;
  return n;
}

zo_ruleset *zo_mutant_apply(const zo_mutant *k) {
  zo_ruleset *m = zo_ruleset_clone_shallow(zo_ruleset_at((size_t)k->rs));
  if (k->sw >= 0) m->sw[k->sw].value = k->value;
  else {
    zo_cited *ci = zo_zone_cited(&m->zones[k->zone], (zo_zone_attr)k->attr);
    if (zo_zone_attr_values[k->attr] == AV_WRONG_OWNER) /* the other word (issue 31) */
      ci->value = ci->value == ZS_REDIRECT ? ZS_CANNOT_HOLD : ZS_REDIRECT;
    else
      ci->value = !ci->value;
  }
  return zo_ruleset_swap(k->rs, m);
}

void zo_mutant_restore(const zo_mutant *k, zo_ruleset *orig) { free(zo_ruleset_swap(k->rs, orig)); }

/* The rule sets a named mutant replaced: kept, since it stays in force
   until the process ends. */
static zo_ruleset **originals;
static int noriginals;

zo_status zo_mutant_apply_named(const char *name, zo_error *err) {
  zo_mutant *ms;
  int n = zo_mutants_list(&ms);
  for (int k = 0; k < n; k++)
    if (!strcmp(ms[k].name, name)) {
      zo_ruleset *orig = zo_mutant_apply(&ms[k]);
      originals = zo_xrealloc(originals, (size_t)(noriginals + 1) * sizeof *originals);
      originals[noriginals++] = orig;
      free(ms);
      return ZO_OK;
    }
  const char **names = zo_xcalloc((size_t)n + 1, sizeof *names);
  for (int k = 0; k < n; k++) names[k] = ms[k].name;
  const char *near = zo_nearest(name, names, (size_t)n);
  zo_error_set(err, ZO_ERR_USAGE, NULL, 0, 0, "no mutant '%s'%s%s%s (zoneoracle mutants --list)",
               name, near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
  free(names);
  free(ms);
  return ZO_ERR_USAGE;
}
