/* query.c: what the layers above the model may read of a game without
 * seeing its state (model.h): the case it plays, its objects' existence,
 * zone and identity, and the contents of a zone. The generator (gen/) and
 * the zcp/1 server (engines/zcp_server.c) read a game through these. */
#include "model_int.h"

const zo_case *zo_game_case(const zo_game *g) { return g->c; }

int zo_game_obj_exists(const zo_game *g, int h) {
  return h >= 0 && h < g->nobjs && g->objs[h].exists;
}

int zo_game_live_handle(const zo_game *g, int n, unsigned k) {
  if (n > g->nobjs) n = g->nobjs;
  int live = 0;
  for (int i = 0; i < n; i++) live += g->objs[i].exists;
  if (!live) return -1;
  k %= (unsigned)live;
  for (int i = 0; i < n; i++)
    if (g->objs[i].exists && k-- == 0) return i;
  return -1;
}

int zo_game_obj_zone(const zo_game *g, int h) {
  return h >= 0 && h < g->nobjs ? g->objs[h].zone : -1;
}

uint64_t zo_game_obj_identity(const zo_game *g, int h) {
  return h >= 0 && h < g->nobjs ? g->objs[h].id : 0;
}

int zo_game_zone_find(const zo_game *g, int type, int player) {
  for (int i = 0; i < g->nzones; i++) {
    const zo_zone *z = &g->zones[i];
    if (z->exists && z->type == type && (z->player < 0 || z->player == player)) return i;
  }
  return -1;
}

int zo_game_zone_contents(const zo_game *g, int zone, const int **objs) {
  if (zone < 0 || zone >= g->nzones || !g->zones[zone].exists) {
    *objs = NULL;
    return 0;
  }
  *objs = g->zones[zone].objs;
  return g->zones[zone].n;
}
