/* visibility.c: who may look at an object. A zone decides the visibility of
 * what it holds (CR 400.2: public and hidden zones), or each object has its
 * own (FaB 3.0.3, switch visibility: per_object); a face-down object is
 * private. Who may look at a private object: its owner or the zone's
 * player (FaB 3.0.3a, never into a deck), or, in Magic, a hand's owner and
 * a face-down permanent's or spell's controller (CR 402.3, 406.3, 708.5).
 */
#include "model_int.h"

int zo_game_obj_public(const zo_game *g, int obj) {
  const zo_obj *o = &g->objs[obj];
  if (o->zone == ZO_ZONE_OUTSIDE) return 0;
  if (o->zone < 0) return 0;
  if (SW(g, SW_VISIBILITY) == ZS_PER_OBJECT) return o->pub;
  if (o->revealed && zo_obj_revealed(g, obj)) return 1; /* CR 701.20a, 217.2e */
  if (g->top_revealed && zo_obj_top_revealed(g, obj)) return 1; /* CR 401.5 */
  return ZT(g, o->zone)->pub.value && !o->face_down;
}

/* May `player` look at object `obj`? (CR 400.2, 402.3, 406.3; FaB 3.0.3a) */
int zo_game_sees(const zo_game *g, int player, int obj) {
  const zo_obj *o = &g->objs[obj];
  if (!o->exists || o->zone < 0) return 0;
  if (zo_game_obj_public(g, obj)) return 1;
  if (o->look_mask && zo_obj_looks(g, obj, player)) return 1; /* CR 406.3; FaB 3.7.4 */
  const zo_zone_type *zt = ZT(g, o->zone);
  if (SW(g, SW_LOOK) == ZS_OWNER_NOT_DECK) {
    if (zt->role == ZR_LIBRARY) return 0;
    return o->owner == player || g->zones[o->zone].player == player;
  }
  /* Magic: a hand is seen by its owner; a face-down permanent or spell by
     its controller; libraries and face-down exiled cards by nobody */
  if (zt->role == ZR_HAND) return g->zones[o->zone].player == player;
  if (o->face_down && zt->controller.value) return o->controller == player;
  return 0;
}
