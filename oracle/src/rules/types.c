/* types.c: the type classes of the zone rules (types.h), from the
 * vocabulary words (ruleset_names.c) that name them. */
#include "types.h"

#include <string.h>

void zo_type_classes_init(zo_type_classes *t, const zo_ruleset *rs) {
  t->instant_sorcery = ZO_TYPE(INSTANT) | ZO_TYPE(SORCERY);
  t->hero = ZO_TYPE(HERO);
  t->token = ZO_TYPE(TOKEN);
  t->two_handed = ZO_TYPE(TWO_HANDED);
  t->bow = ZO_TYPE(BOW);
  t->quiver = ZO_TYPE(QUIVER);
  t->deck_card = ZO_TYPE(ACTION) | ZO_TYPE(ATTACK_REACTION) | ZO_TYPE(BLOCK) |
                 ZO_TYPE(DEFENSE_REACTION) | ZO_TYPE(INSTANT) | ZO_TYPE(MENTOR) | ZO_TYPE(RESOURCE);
  t->perm_sub = ZO_TYPE(AFFLICTION) | ZO_TYPE(ALLY) | ZO_TYPE(ASH) | ZO_TYPE(AURA) |
                ZO_TYPE(CONSTRUCT) | ZO_TYPE(FIGMENT) | ZO_TYPE(INVOCATION) | ZO_TYPE(ITEM) |
                ZO_TYPE(LANDMARK);
  t->aura = ZO_TYPE(AURA);
  t->attachment = ZO_TYPE(AURA) | ZO_TYPE(EQUIPMENT); /* and a case's own
                                                          "fortification" (model/setup.c) */
  t->land = ZO_TYPE(LAND);
  t->creature = ZO_TYPE(CREATURE);
  if (!rs->game || strcmp(rs->game, "fab") != 0) t->deck_card = 0; /* only FaB has deck-cards */
}
