/* types.h: the type classes the zone rules read. An object's types are
 * bits (ruleset.h, "Types and subtypes"); a zone rule asks whether an
 * object is an instant or sorcery (CR 400.4a), a hero (FaB 3.11.2), a
 * token card (FaB 8.1.8a), two-handed (8.2.2), a bow or a quiver
 * (8.2.15), a deck-card (1.3.2) or a card of a permanent subtype (1.3.3).
 * Each class is a set of vocabulary words, so its bits are the same for
 * every case and rule set; only which game the rule set is for changes a
 * class (deck-cards exist in Flesh and Blood alone). The model and the
 * observation checker (run/obs_check.c) both take their classes from here,
 * so the words are written once. */
#ifndef ZO_TYPES_H
#define ZO_TYPES_H

#include <stdint.h>

#include "ruleset.h"

/* Each class as a mask of type bits (an object is in the class when its
 * types share a bit with the mask). Plain values, no ownership. */
typedef struct {
  uint64_t instant_sorcery; /* CR 400.4a: can't be on the battlefield */
  uint64_t hero;            /* FaB 3.11.2: what a hero zone holds */
  uint64_t token;           /* a token card (FaB 8.1.8a: only in the arena) */
  uint64_t two_handed;      /* FaB 8.2.2: equipped to two zones */
  uint64_t bow, quiver;     /* FaB 8.2.15: a quiver beside a two-handed bow */
  uint64_t deck_card;       /* FaB 1.3.2: action, attack reaction, block,
                               defense reaction, instant, mentor, resource;
                               0 outside FaB */
  uint64_t perm_sub;        /* FaB 1.3.3: the subtypes that make a deck-card a
                               permanent (ally, aura, item, landmark...) */
  uint64_t land;            /* CR 305.1: played, not cast (400.7i) */
  uint64_t aura;            /* CR 303.4, 704.5m: an Aura, put into its owner's
                               graveyard when attached to nothing (the
                               other attachments stay, 704.5n) */
  uint64_t attachment;      /* CR 303.4h: an Aura or Equipment, the permanents
                               that may enter attached; a Fortification too,
                               whose word no rule set's vocabulary has: the
                               model adds a case's own (model/setup.c) */
  uint64_t creature;        /* CR 708.2a: all a face-down permanent or spell
                               is (a "can't" effect judges it so, 614.17d) */
} zo_type_classes;

/* Fill *t with the classes of rule set rs (rs->game decides deck_card: a
 * rule set whose game is not "fab" has none). Never fails. */
void zo_type_classes_init(zo_type_classes *t, const zo_ruleset *rs);

#endif
