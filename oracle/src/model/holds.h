/* holds.h: what a zone type can hold, as pure functions of an object's
 * kind and types (case.h) and the zone type's attributes (ruleset.h):
 * tokens, deck-cards and permanents (FaB 1.3.2, 1.3.3, 8.1.8a) and the
 * `holds:` limits of a zone (CR 400.4a; FaB 3.0.11). The model applies
 * them to its objects (model/zones.c, model/check.c, the set-up) and the
 * observation checker (run/obs_check.c) to what an engine shows, so each
 * rule is written here once. They live over the case layer, not in rules/,
 * because an object's kind (zo_kind) is the case's word. */
#ifndef ZO_HOLDS_H
#define ZO_HOLDS_H

#include <stdint.h>

#include "case.h"
#include "types.h"

/* Is an object of kind `kind` (a zo_kind, or -1 when unknown) with type
 * bits `types` a token: a token object, or a card with the token type
 * (CR 111.1; FaB 8.1.8a)? */
static inline int zo_holds_is_token(const zo_type_classes *t, int kind, uint64_t types) {
  return kind == ZK_TOKEN || (types & t->token) != 0;
}

/* Is it a FaB deck-card (FaB 1.3.2: a card with a deck-card type)? Never
 * outside FaB (t->deck_card is 0 there). */
static inline int zo_holds_is_deck_card(const zo_type_classes *t, int kind, uint64_t types) {
  return kind == ZK_CARD && (types & t->deck_card) != 0;
}

/* Is it a FaB permanent (FaB 1.3.3) in a zone of type zt (NULL: in no
 * zone)? Tokens and macros are (1.5.1); hero-, arena- and token-cards are;
 * a deck-card is when it has a permanent subtype, except in a zone that
 * holds attack-proxies (the combat chain). Abilities and proxies are not. */
static inline int zo_holds_is_fab_permanent(const zo_type_classes *t, int kind, uint64_t types,
                                            const zo_zone_type *zt) {
  if (kind == ZK_TOKEN || kind == ZK_MACRO) return 1; /* 1.5.1 */
  if (kind != ZK_CARD && kind != ZK_COPY) return 0;
  if (!zo_holds_is_deck_card(t, kind, types)) return 1; /* hero-, arena-, token-cards */
  if (zt && (zt->holds.value & ZH_PROXIES)) return 0; /* not a permanent on the combat chain */
  return (types & t->perm_sub) != 0;
}

/* The first `holds:` limit of zone type zt that an object of this kind and
 * types does not meet, as its ZH_* bit, in the order deck-cards (FaB
 * 1.3.2c), cards, permanents (1.3.3), hero (3.11.2), equipment of its
 * kind, its `holds_types:` (ZH_TYPES); 0 when zt can hold it (FaB 3.0.11),
 * whoever owns it. `equip` and `only`: the types zt equips and the types of
 * its holds_types:, in the object's bits. ZH_NO_INSTANTS (CR 400.4a) is not
 * decided here: an instant that would enter stays where it is, which the
 * caller tells apart from a zone that can't hold it. */
static inline unsigned zo_holds_refusal(const zo_type_classes *t, const zo_zone_type *zt,
                                        int kind, uint64_t types, uint64_t equip,
                                        uint64_t only) {
  unsigned holds = (unsigned)zt->holds.value;
  if ((holds & ZH_DECK_CARDS) && !zo_holds_is_deck_card(t, kind, types)) return ZH_DECK_CARDS;
  if ((holds & ZH_CARDS) &&
      !(kind == ZK_CARD || kind == ZK_TOKEN || kind == ZK_COPY ||
        ((holds & ZH_PROXIES) && kind == ZK_PROXY)))
    return ZH_CARDS;
  if ((holds & ZH_PERMANENTS) && !zo_holds_is_fab_permanent(t, kind, types, zt))
    return ZH_PERMANENTS;
  if ((holds & ZH_HERO) && !(types & t->hero)) return ZH_HERO;
  if ((holds & ZH_EQUIP) && !(types & equip)) return ZH_EQUIP;
  if ((holds & ZH_TYPES) && !(types & only)) return ZH_TYPES;
  return 0;
}

#endif
