/* types.c: the type classes of the zone rules (types.h), from the
 * vocabulary words (ruleset.c) that name them. */
#include "types.h"

#include <string.h>

static uint64_t word(const char *w) { return zo_type_bit(w); }

void zo_type_classes_init(zo_type_classes *t, const zo_ruleset *rs) {
  t->instant_sorcery = word("instant") | word("sorcery");
  t->hero = word("hero");
  t->token = word("token");
  t->two_handed = word("2h");
  t->bow = word("bow");
  t->quiver = word("quiver");
  t->deck_card = word("action") | word("attack_reaction") | word("block") |
                 word("defense_reaction") | word("instant") | word("mentor") | word("resource");
  t->perm_sub = word("affliction") | word("ally") | word("ash") | word("aura") |
                word("construct") | word("figment") | word("invocation") | word("item") |
                word("landmark");
  t->aura = word("aura");
  t->land = word("land");
  t->creature = word("creature");
  if (!rs->game || strcmp(rs->game, "fab") != 0) t->deck_card = 0; /* only FaB has deck-cards */
}
