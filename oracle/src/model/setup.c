/* setup.c: a case's starting position under a rule set -> a game
 * (model_int.h says what a game is).
 *
 * Setting up: the game and its fixed tables in one block; the case's zone
 * types mapped onto the rule set's; the zone instances made; each starting
 * card placed (sub-cards after their top-cards), checked against the rule
 * set (the setup checks of cases/README.md: a position the rule set forbids
 * is an error at the card's line, or at the key that contradicts it); then
 * explicit positions. A lenient set-up (the fuzz decoder's) moves a card the
 * rule set forbids to a zone that always holds its kind instead.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "model_int.h"

/* ---- set-up errors ------------------------------------------------------ */

/* A set-up error (ZO_ERR_SETUP, returned) into err (when not NULL): the
 * message names the rule set rs; it points at the card's key `key` when the
 * case wrote it (zo_card_setup.at; the key is what contradicts the rule
 * set), else at the card (-1: the card); the note names the card. */
static zo_status setup_fail(zo_error *err, const zo_case *c, const zo_card_setup *cs, int key,
                            const char *rs, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
static zo_status setup_fail(zo_error *err, const zo_case *c, const zo_card_setup *cs, int key,
                            const char *rs, const char *fmt, ...) {
  if (!err) return ZO_ERR_SETUP;
  int line = cs ? cs->line : 1, column = cs ? cs->col : 1;
  if (cs && key >= 0 && cs->at[key].line > 0) {
    line = cs->at[key].line;
    column = cs->at[key].col;
  }
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  zo_vsnprintf_utf8(msg, sizeof msg, fmt, ap);
  va_end(ap);
  zo_error_set(err, ZO_ERR_SETUP, c->file, line, column, "%s (rule set %s)", msg, rs);
  zo_error_note(err, "while setting up card '%s'", cs ? c->handles[cs->handle] : "?");
  return ZO_ERR_SETUP;
}

/* pre + the first rule a cited attribute or switch rests on in rs + post,
 * or "" where the rules text is silent, written into buf (cap bytes), which
 * is returned: a set-up error cites the rule set's own rule. */
static const char *cite(const zo_ruleset *rs, const zo_cited *ci, const char *pre,
                        const char *post, char *buf, size_t cap) {
  if (ci->nrules > 0 && ci->rules[0] >= 0 && ci->rules[0] < rs->nrules)
    snprintf(buf, cap, "%s%s%s", pre, rs->rules[ci->rules[0]].id, post);
  else buf[0] = 0;
  return buf;
}

/* pre + the rules of `rules` (another game's dropped: zo_ruleset_cite) +
 * post in buf, or "" when rs stands behind none of them (issue 31: a
 * user's game is not told FaB's numbers). */
static const char *book(const zo_ruleset *rs, const char *rules, const char *pre,
                        const char *post, char *buf, size_t cap) {
  char kept[96];
  if (zo_ruleset_cite(rs, rules, kept, sizeof kept)[0]) snprintf(buf, cap, "%s%s%s", pre, kept, post);
  else buf[0] = 0;
  return buf;
}

/* The full name of zone instance `zone` in buf (cap bytes), made only when
 * there is an error to write it into (err); buf is returned. */
static const char *zone_label(const zo_game *g, int zone, const zo_error *err, char *buf,
                              size_t cap) {
  if (err) zo_game_zone_name(g, zone, buf, cap);
  return buf;
}

/* ---- placing one starting card ------------------------------------------ */

/* The case zone type of a zone that can always hold an object of this
 * kind: the battlefield/arena for tokens and macros, the stack for
 * abilities and copies, the graveyard for cards. */
static int fallback_type(const zo_game *g, zo_kind k, int owner) {
  zo_zone_role role = k == ZK_TOKEN || k == ZK_MACRO || k == ZK_PROXY ? ZR_BATTLEFIELD
                      : k == ZK_ABILITY || k == ZK_COPY            ? ZR_STACK
                                                                   : ZR_GRAVEYARD;
  for (int t = 0; t < g->c->nztypes; t++) {
    const zo_zone_type *zt = g->zmap[t] >= 0 ? &g->rs->zones[g->zmap[t]] : NULL;
    /* issue 31 (seats:): a zone type the owner's seat has */
    if (zt && zt->role == role &&
        (!zt->seats.value || (owner >= 0 && owner < 32 && (zt->seat_bits >> owner & 1u))))
      return t;
  }
  return 0;
}

/* Keys of a starting card in zone instance `zone` (type zt) that the rule
 * set makes contradictory, or ignored if they were let pass: a position in a
 * zone that is not ordered (CR 400.5 / the zone's `ordered` citation);
 * visibility: where the zone decides it (switch visibility: per_zone); where
 * each object has it (FaB 3.0.3), face: down with visibility: public, face:
 * up with visibility: private, and a public or face-up object in a deck
 * (FaB 3.7.5). ZO_OK, or ZO_ERR_SETUP with err at the key (when err). */
static zo_status setup_contradictions(zo_game *g, const zo_card_setup *cs,
                                      const zo_zone_type *zt, int zone, zo_error *err) {
  const zo_case *c = g->c;
  const zo_ruleset *rs = g->rs;
  const char *hn = c->handles[cs->handle];
  char zname[64] = "", why[64], bk[128];
  zone_label(g, zone, err, zname, sizeof zname);
  if (cs->position >= 0 && !zt->ordered.value)
    return setup_fail(err, c, cs, CK_POSITION, rs->id, "card '%s': position: is for ordered "
                      "zones, and %s is not ordered%s", hn, zname,
                      cite(rs, &zt->ordered, " (", ")", why, sizeof why));
  int per_object = SW(g, SW_VISIBILITY) == ZS_PER_OBJECT;
  if (cs->visibility >= 0 && !per_object)
    return setup_fail(err, c, cs, CK_VISIBILITY, rs->id, "'%s' has visibility: %s, but here a "
                      "zone decides the visibility of what it holds (switch visibility is "
                      "per_zone%s): leave it out", hn, cs->visibility ? "public" : "private",
                      cite(rs, &rs->sw[SW_VISIBILITY], ", ", "", why, sizeof why));
  if (!per_object) return ZO_OK;
  int face_written = cs->at[CK_FACE].line > 0;
  if (zt->role == ZR_LIBRARY && (cs->visibility == 1 || (face_written && !cs->face_down))) {
    int vis = cs->visibility == 1;
    return setup_fail(err, c, cs, vis ? CK_VISIBILITY : CK_FACE, rs->id, "'%s' is in %s, a "
                      "deck: objects in a deck are private and face down%s: leave "
                      "out %s", hn, zname, book(rs, "FaB 3.7.5", " (", ")", bk, sizeof bk),
                      vis ? "visibility: public" : "face: up");
  }
  if (face_written && cs->visibility >= 0 && cs->face_down == cs->visibility)
    return setup_fail(err, c, cs, CK_VISIBILITY, rs->id, "'%s': face: %s and visibility: %s "
                      "contradict each other: here a face-down object is private and a "
                      "face-up one public (visibility per object%s)", hn,
                      cs->face_down ? "down" : "up", cs->visibility ? "public" : "private",
                      book(rs, "FaB 3.0.3", ", ", "", bk, sizeof bk));
  return ZO_OK;
}

/* A starting sub-card (FaB 3.0.14, as put_under: only a card or a token
 * goes under, and only under a permanent in the arena or a card on the
 * stack; in its top-card's zone, with its visibility). */
static zo_status place_sub_card(zo_game *g, const zo_card_setup *cs, zo_error *err) {
  const zo_case *c = g->c;
  const zo_ruleset *rs = g->rs;
  zo_obj *o = &g->objs[cs->handle];
  const zo_obj *t = &g->objs[cs->under];
  const char *hn = c->handles[cs->handle];
  char fab[128]; /* room for every rule book() keeps */
  book(rs, "FaB 3.0.14", " (", ")", fab, sizeof fab);
  if (rs->sw[SW_SUB_CARDS].value != ZS_YES)
    return setup_fail(err, c, cs, -1, rs->id, "card '%s': sub-cards (under:) "
                      "are not part of this rule set", hn);
  /* FaB 3.0.14, as put_under: only a card or a token goes under, and
     only under a permanent in the arena or a card on the stack */
  if (o->kind != ZK_CARD && o->kind != ZK_TOKEN)
    return setup_fail(err, c, cs, CK_KIND, rs->id, "'%s' is of kind %s: only cards and "
                      "tokens can be sub-cards%s", hn, zo_kind_name(o->kind), fab);
  if (!t->exists || t->under >= 0 ||
      !((is_arena(g, t->zone) &&
         zo_holds_is_fab_permanent(&g->classes, (int)t->kind, t->types, ZT(g, t->zone))) ||
        (is_stack(g, t->zone) && (t->kind == ZK_CARD || t->kind == ZK_TOKEN))))
    return setup_fail(err, c, cs, CK_UNDER, rs->id, "card '%s' is under '%s', which "
                      "is not a permanent in the arena or a card on the "
                      "stack%s", hn, c->handles[cs->under], fab);
  if (cs->zone.type != ZO_ZT_UNSET) { /* written: it must be the top-card's zone */
    int red;
    zo_step_error e;
    int z = cs->zone.type == ZO_ZT_OUTSIDE ? ZO_ZONE_OUTSIDE
                                           : resolve_dest(g, cs->handle, &cs->zone, 0, &red, &e);
    if (z != t->zone) {
      char tz[64] = "";
      zone_label(g, t->zone, err, tz, sizeof tz);
      return setup_fail(err, c, cs, CK_ZONE, rs->id, "card '%s' is under '%s', which is in "
                        "%s: a sub-card is in its top-card's zone%s, so zone: must "
                        "say %s or be left out", hn, c->handles[cs->under], tz, fab, tz);
    }
  }
  /* limits: among sub-cards (issue 31): the set-up may not break one */
  if (ZT(g, t->zone)->limits.value && zo_under_limit(g, cs->under, cs->handle, 0) >= 0)
    return setup_fail(err, c, cs, CK_UNDER, rs->id, "card '%s' can't be under '%s': '%s' "
                      "would have more sub-cards of this kind than the limits: of its zone allow",
                      hn, c->handles[cs->under], c->handles[cs->under]);
  o->under = cs->under;
  g->has_subs = 1;
  o->zone = t->zone;
  o->pub = t->pub;
  o->face_down = t->face_down; /* its top-card's, as put_under gives it */
  return ZO_OK;
}

/* What zone instance `zone` (type zt) says against holding the starting
 * card: tokens only in the arena, abilities only on the stack, copies on
 * the stack or battlefield, no instant on the battlefield (CR 400.4a), a
 * controller only where objects have one, and zo_zone_refuses. */
static zo_status start_refused(zo_game *g, const zo_card_setup *cs, int zone,
                               const zo_zone_type *zt, zo_error *err) {
  const zo_case *c = g->c;
  const zo_ruleset *rs = g->rs;
  const zo_obj *o = &g->objs[cs->handle];
  const char *hn = c->handles[cs->handle];
  char zname[64] = ""; /* named only for an error message */
  if (is_token(g, o) && !zt->arena.value)
    return setup_fail(err, c, cs, -1, rs->id, "token '%s' can't start in %s: "
                      "tokens exist only on the battlefield / in the arena",
                      hn, zone_label(g, zone, err, zname, sizeof zname));
  if (o->kind == ZK_ABILITY && zt->role != ZR_STACK)
    return setup_fail(err, c, cs, -1, rs->id, "ability '%s' can't start in %s: "
                      "abilities exist only on the stack", hn,
                      zone_label(g, zone, err, zname, sizeof zname));
  if (o->kind == ZK_COPY && zt->role != ZR_STACK && zt->role != ZR_BATTLEFIELD)
    return setup_fail(err, c, cs, -1, rs->id, "copy '%s' can't start in %s: "
                      "copies exist on the stack (or battlefield)", hn,
                      zone_label(g, zone, err, zname, sizeof zname));
  if ((zt->holds.value & ZH_NO_INSTANTS) && (o->types & g->classes.instant_sorcery))
    return setup_fail(err, c, cs, -1, rs->id, "'%s' is an instant or sorcery: "
                      "it can't be on the %s (CR 400.4a)", hn,
                      zone_label(g, zone, err, zname, sizeof zname));
  if (cs->controller >= 0 && !zt->controller.value)
    return setup_fail(err, c, cs, -1, rs->id, "'%s' has a controller but "
                      "objects in %s have none", hn, zone_label(g, zone, err, zname, sizeof zname));
  if (cs->face_down && zo_face_up_only(g, g->zones[zone].type, cs->handle)) /* issue 31 */
    return setup_fail(err, c, cs, -1, rs->id, "'%s' can't start face down in %s: its kind is "
                      "never face down there (face_up_only:)", hn,
                      zone_label(g, zone, err, zname, sizeof zname));
  zo_step_error refuse = zo_zone_refuses(g, zone, cs->handle, 0);
  if (refuse)
    return setup_fail(err, c, cs, -1, rs->id, "'%s' can't start in %s: %s", hn,
                      zone_label(g, zone, err, zname, sizeof zname),
                      refuse != ZO_E_CAPACITY ? "the zone can't hold it"
                      : zt->limits.value      ? "the zone is full (capacity, or its limits: for "
                                                "this kind of card)"
                                              : "the zone is full (capacity)");
  return setup_contradictions(g, cs, zt, zone, err);
}

/* Place one starting card (the setup checks of cases/README.md: a position the
 * rule set forbids is an error at the card's line). Nothing is inserted
 * when it fails. */
static zo_status place_card(zo_game *g, const zo_card_setup *cs, zo_error *err) {
  const zo_case *c = g->c;
  const zo_ruleset *rs = g->rs;
  zo_obj *o = &g->objs[cs->handle];
  o->kind = cs->kind;
  o->owner = cs->owner;
  o->types = cs->types;
  o->exists = 1;
  o->face_down = cs->face_down;
  new_identity(g, cs->handle);
  const char *hn = c->handles[cs->handle];
  if (cs->under >= 0) return place_sub_card(g, cs, err);
  if (cs->zone.type == ZO_ZT_OUTSIDE) {
    if (o->kind != ZK_CARD)
      return setup_fail(err, c, cs, -1, rs->id, "'%s' is a %s: only cards can "
                        "be outside the game", hn, zo_kind_name(o->kind));
    o->zone = ZO_ZONE_OUTSIDE;
    return ZO_OK;
  }
  int red;
  zo_step_error e;
  zo_status rc;
  const zo_zone_type *zt0 = cs->zone.type >= 0 ? &rs->zones[g->zmap[cs->zone.type]] : NULL;
  if (zt0 && zt0->per_player.value && cs->zone.player >= 0 &&
      cs->zone.player != o->owner && zt0->owner_only.value) {
    char zn[64];
    snprintf(zn, sizeof zn, "%s.%s", c->players[cs->zone.player], zt0->name);
    return setup_fail(err, c, cs, -1, rs->id, "'%s' can't start in %s: that "
                      "zone holds only its owner's cards", hn, zn);
  }
  int zone = resolve_dest(g, cs->handle, &cs->zone, 0, &red, &e);
  if (zone < 0) return setup_fail(err, c, cs, -1, rs->id, "card '%s': no such zone", hn);
  const zo_zone_type *zt = ZT(g, zone);
  if ((rc = start_refused(g, cs, zone, zt, err))) return rc;
  int pos = cs->position >= 0 ? cs->position : ZO_POS_BOTTOM;
  zone_insert(g, zone, cs->handle, pos);
  zo_twoh_equip_second(g, zone, cs->handle);
  if (zt->role == ZR_PHASED_OUT) o->phased_out = 1;
  /* a copy of a spell at rest on the battlefield resolved there: it is a
     token where the rule set says so (CR 110.5 of 2011, 111.13) */
  if (o->kind == ZK_COPY && zt->role == ZR_BATTLEFIELD && SW(g, SW_COPY_BECOMES_TOKEN) == ZS_YES)
    o->kind = ZK_TOKEN;
  if (zt->controller.value) o->controller = cs->controller >= 0 ? cs->controller : o->owner;
  o->ctrl_default = o->controller; /* CR 110.2 */
  /* per object (FaB 3.0.3): face down is private, face up (written) is
     public, else the zone's default; a deck is always private (3.7.5) */
  if (SW(g, SW_VISIBILITY) == ZS_PER_OBJECT)
    o->pub = zt->role == ZR_LIBRARY ? 0 /* FaB 3.7.5 */
             : cs->visibility >= 0 ? cs->visibility
             : cs->face_down ? 0
             : cs->at[CK_FACE].line > 0 ? 1 : zt->pub.value;
  else o->pub = zt->pub.value;
  if (SW(g, SW_VISIBILITY) == ZS_PER_OBJECT) o->face_down = !o->pub;
  return ZO_OK;
}

/* Lenient set-up (the fuzz decoder): starting card cs, which the rule set
 * forbids where the case puts it, goes to a zone that always holds its kind
 * instead, and the decoder's own case is changed to say so. */
static void place_fallback(zo_game *g, const zo_card_setup *cs) {
  zo_card_setup fb = *cs;
  zo_card_setup *mut = (zo_card_setup *)cs; /* the decoder's own case */
  fb.zone.type = fallback_type(g, cs->kind, cs->owner);
  fb.zone.player = -1;
  fb.zone.index = 0;
  fb.under = -1;
  fb.face_down = 0;
  fb.controller = -1;
  fb.position = -1;
  fb.visibility = -1;
  g->objs[cs->handle].exists = 0;
  mut->zone = fb.zone;
  mut->under = -1;
  mut->face_down = 0;
  mut->controller = -1;
  mut->position = -1;
  mut->visibility = -1;
  if (place_card(g, &fb, NULL) == ZO_OK) return;
  /* an object no fallback holds (a token that is an instant can't be on
     the battlefield, 400.4a) is set up as a card in the graveyard */
  fb.kind = ZK_CARD;
  fb.zone.type = fallback_type(g, ZK_CARD, cs->owner);
  mut->kind = ZK_CARD;
  mut->zone = fb.zone;
  g->objs[cs->handle].exists = 0;
  if (place_card(g, &fb, NULL) == ZO_OK) return; /* a graveyard holds any card */
  /* issue 31 (seats:): a player whose seat has no graveyard: outside the
     game, where any card may be */
  fb.zone.type = ZO_ZT_OUTSIDE;
  mut->zone = fb.zone;
  g->objs[cs->handle].exists = 0;
  if (place_card(g, &fb, NULL) != ZO_OK) abort();
}

/* ---- the game ------------------------------------------------------------ */

/* The game and its fixed tables in one allocation (a fuzz input builds a
 * game per run), zeroed, its tables pointed at their parts of the block. */
static zo_game *game_alloc(const zo_ruleset *rs, const zo_case *c) {
  size_t nobj = (size_t)c->nhandles + 1, ntrig = (size_t)c->ntriggers + 1,
         nref = (size_t)c->nrefs + 1, nrepl = (size_t)c->nreplacements + 1,
         nmark = (size_t)c->nmarknames + 1;
#define ZO_ALIGN(x) (((x) + 15) & ~(size_t)15)
  size_t off_hits = ZO_ALIGN(sizeof(zo_game));
  size_t off_slots = off_hits + ZO_ALIGN(((size_t)rs->nrules + 1) * sizeof(int));
  size_t off_zmap = off_slots + ZO_ALIGN(((size_t)rs->nslots + 1) * sizeof(int));
  size_t off_objs = off_zmap + ZO_ALIGN(((size_t)c->nztypes + 4) * sizeof(int));
  size_t off_trig = off_objs + ZO_ALIGN(nobj * sizeof(zo_obj));
  size_t off_refs = off_trig + ZO_ALIGN(ntrig * sizeof(zo_trigger));
  size_t off_repl = off_refs + ZO_ALIGN(nref * sizeof(zo_ref));
  size_t off_order = off_repl + ZO_ALIGN(nrepl * sizeof(zo_replacement));
  size_t off_used = off_order + ZO_ALIGN(nrepl * sizeof(int));
  size_t off_marks = off_used + ZO_ALIGN(nrepl);
  size_t total = off_marks + ZO_ALIGN(nmark * sizeof(zo_mark));
#undef ZO_ALIGN
  char *block = zo_xcalloc(1, total);
  zo_game *g = (zo_game *)block;
  g->rs = rs;
  g->c = c;
  g->hits = (int *)(block + off_hits);
  g->slot_hits = (int *)(block + off_slots);
  g->zmap = (int *)(block + off_zmap);
  g->objs = (zo_obj *)(block + off_objs);
  g->trig = (zo_trigger *)(block + off_trig);
  g->refs = (zo_ref *)(block + off_refs);
  g->repl = (zo_replacement *)(block + off_repl);
  g->repl_order = (int *)(block + off_order);
  g->repl_used = (unsigned char *)(block + off_used);
  g->marks = (zo_mark *)(block + off_marks);
  return g;
}

/* The case's zone types as the rule set's (zmap), the two private slots,
 * and the type words the rules read, as this case's bits. */
static void map_types(zo_game *g) {
  const zo_ruleset *rs = g->rs;
  const zo_case *c = g->c;
  for (int i = 0; i < c->nztypes; i++) /* the decoder passes the rule set's own names */
    g->zmap[i] = i < rs->nzones && c->ztypes[i] == rs->zones[i].name ? i
                                                                    : zo_ruleset_zone(rs, c->ztypes[i]);
  /* two private slots for zones the model names without the case */
  g->hand_slot = c->nztypes;
  g->graveyard_slot = c->nztypes + 1;
  g->exile_slot = c->nztypes + 2;
  g->zmap[g->exile_slot] = -1;
  g->displace_slot = c->nztypes + 3; /* set by each displacing move */
  g->zmap[g->displace_slot] = -1;
  for (int z = 0; z < rs->nzones; z++) {
    if (rs->zones[z].role == ZR_HAND) g->zmap[g->hand_slot] = z;
    if (rs->zones[z].role == ZR_GRAVEYARD) g->zmap[g->graveyard_slot] = z;
    if (rs->zones[z].role == ZR_EXILE && g->zmap[g->exile_slot] < 0) g->zmap[g->exile_slot] = z;
  }
  /* the model's type words: fixed vocabulary bits (rules/types.h), looked
     up per game (no process-wide cache) */
  zo_type_classes_init(&g->classes, rs);
  for (int i = 0; i < c->nxtypes; i++) /* CR 303.4h: a Fortification, a case's own word */
    if (!strcmp(c->xtypes[i], "fortification")) g->classes.attachment |= (uint64_t)1 << (ZO_NVOCAB + i);
  /* equip: and keeps: words of rs as this case's bits (a rule set's own
     words are numbered by the rule set, a case's by the case) */
  for (int t = 0; t < rs->nzones; t++) {
    g->equip_types[t] = zo_type_bits_for_case(rs, c, rs->zones[t].equip_types);
    g->keep_types[t] = zo_type_bits_for_case(rs, c, rs->zones[t].keep_types);
    g->only_types[t] = zo_type_bits_for_case(rs, c, rs->zones[t].only_types);
    for (int k = 0; k < rs->zones[t].limits.value && k < ZO_MAX_LIMITS; k++)
      g->limit_types[t][k] = zo_type_bits_for_case(rs, c, rs->zones[t].limit[k].types);
    for (int k = 0; k < rs->zones[t].instead.value && k < ZO_MAX_INSTEAD; k++)
      g->instead_types[t][k] = zo_type_bits_for_case(rs, c, rs->zones[t].inst[k].types);
    for (int k = 0; k < rs->zones[t].at_index.value && k < ZO_MAX_AT_INDEX; k++) /* issue 31 */
      g->at_types[t][k] = zo_type_bits_for_case(rs, c, rs->zones[t].at[k].types);
    g->face_up_types[t] = zo_type_bits_for_case(rs, c, rs->zones[t].face_up_types);
    g->has_instead |= rs->zones[t].instead.value > 0;
    g->has_group |= rs->zones[t].group.value > 0;
    g->has_clears |= rs->zones[t].clears.value != 0;
    /* seats: (issue 31): not every player has a zone of every type, so
       set_up_zone's one instance per player doesn't hold */
    g->zones_changed |= rs->zones[t].seats.value != 0;
  }
}

/* The zone instances of the rule set for the case's players, with room
 * for zones a step creates; and the objects, in no zone yet. */
static void make_zones(zo_game *g) {
  const zo_ruleset *rs = g->rs;
  const zo_case *c = g->c;
  g->nobjs = c->nhandles;
  int nzones = 0; /* size the zone tables once */
  for (int t = 0; t < rs->nzones; t++)
    nzones += rs->zones[t].per_player.value ? c->nplayers * rs->zones[t].count.value : 1;
  g->capzones = nzones + 4; /* room for zones a step creates */
  g->zones = zo_xmalloc((size_t)g->capzones * sizeof *g->zones);
  g->pool = zo_xmalloc((size_t)g->capzones * (size_t)(g->nobjs + 1) * sizeof *g->pool);
  g->zone_scratch = zo_xmalloc((size_t)g->capzones * sizeof *g->zone_scratch);
  /* room for every object's arrival (more only for a step that lists one twice) */
  g->order_cap = g->nobjs + 1;
  g->order_scratch = zo_xmalloc(3 * (size_t)g->order_cap * sizeof *g->order_scratch);
  for (int t = 0; t < rs->nzones; t++) {
    const zo_zone_type *zt = &rs->zones[t];
    g->first_zone[t] = g->nzones;
    if (zt->per_player.value)
      for (int p = 0; p < c->nplayers; p++)
        for (int k = 1; k <= zt->count.value; k++) {
          int z = zo_game_add_zone(g, t, p, k);
          /* issue 31 (seats:): a player in another seat has none; the
             instance is kept, not existing, so that zones stay numbered */
          if (zt->seats.value && !(p < 32 && (zt->seat_bits >> p & 1u))) g->zones[z].exists = 0;
        }
    else zo_game_add_zone(g, t, -1, 1);
    g->has_seats |= zt->seats.value != 0;
  }
  g->ntrig = c->ntriggers;
  g->nrefs = c->nrefs;
  g->nrepl = c->nreplacements;
  for (int i = 0; i < g->nrepl; i++) g->repl_order[i] = i;
  g->nmarks = c->nmarknames;
  for (int i = 0; i < g->nobjs; i++) {
    g->objs[i].zone = -1;
    g->objs[i].under = -1;
    g->objs[i].controller = -1;
    g->objs[i].came_from = -1;
    g->objs[i].phase_controller = -1;
    g->objs[i].attached = g->objs[i].phased_with = -1;
    g->objs[i].ctrl_default = g->objs[i].phased_under = -1;
  }
}

/* Place the cards: sub-cards after their tops; a lenient set-up (the fuzz
 * decoder) moves an impossible card to a zone that always holds its kind
 * instead of failing. */
static zo_status place_cards(zo_game *g, zo_error *err, int lenient) {
  const zo_case *c = g->c;
  if (lenient) /* the decoder writes no keys (and leaves at[] unset) */
    for (int i = 0; i < c->ncards; i++)
      memset(((zo_card_setup *)&c->cards[i])->at, 0, sizeof c->cards[i].at);
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < c->ncards; i++) {
      const zo_card_setup *cs = &c->cards[i];
      if ((cs->under >= 0) != pass) continue;
      if (place_card(g, cs, lenient ? NULL : err) == ZO_OK) continue;
      if (!lenient) return ZO_ERR_SETUP;
      place_fallback(g, cs);
    }
  return ZO_OK;
}

/* Explicit positions of ordered zone z: a stable sort by requested
 * position; positions 0..n-1 of a zone holding n, one object each (CR
 * 400.5), else a set-up error at the card's position. */
static zo_status order_zone(zo_game *g, int z, zo_error *err) {
  const zo_case *c = g->c;
  zo_zone *zn = &g->zones[z];
  int any = 0;
  for (int i = 0; i < c->ncards; i++)
    if (c->cards[i].position >= 0 && g->objs[c->cards[i].handle].zone == z) any = 1;
  if (!any) return ZO_OK;
  int *placed = zo_xcalloc((size_t)zn->n + 1, sizeof *placed);
  for (int i = 0; i < zn->n; i++) placed[i] = -1;
  for (int i = 0; i < c->ncards; i++) {
    int h = c->cards[i].handle;
    int p = c->cards[i].position;
    if (p < 0 || g->objs[h].zone != z) continue;
    if (p >= zn->n || placed[p] >= 0) {
      /* positions 0..n-1 of a zone holding n, one object each (CR 400.5) */
      char zname[64] = "";
      zone_label(g, z, err, zname, sizeof zname);
      if (p >= zn->n)
        setup_fail(err, c, &c->cards[i], CK_POSITION, g->rs->id, "card '%s': position %d is "
                   "past the end of %s, which holds %d (positions 0..%d)", c->handles[h], p,
                   zname, zn->n, zn->n - 1);
      else
        setup_fail(err, c, &c->cards[i], CK_POSITION, g->rs->id, "card '%s': position %d of "
                   "%s is also given to '%s' (one object per position)", c->handles[h], p,
                   zname, c->handles[placed[p]]);
      free(placed);
      return ZO_ERR_SETUP;
    }
    placed[p] = h;
  }
  int k = 0;
  for (int i = 0; i < zn->n; i++) {
    int h = zn->objs[i];
    int explicit_pos = 0;
    for (int j = 0; j < c->ncards; j++)
      if (c->cards[j].handle == h && c->cards[j].position >= 0) explicit_pos = 1;
    if (explicit_pos) continue;
    while (placed[k] >= 0) k++;
    placed[k++] = h;
  }
  memcpy(zn->objs, placed, (size_t)zn->n * sizeof *zn->objs);
  free(placed);
  return ZO_OK;
}

static zo_status game_new(const zo_ruleset *rs, const zo_case *c, zo_game **out,
                          zo_error *err, int lenient) {
  /* the per-player and per-zone-type tables (zo_game.multi, first_zone...)
     are as large as the case's and the rule set's own: refuse what the
     loaders would have, whoever built them */
  if (c->nplayers > ZO_MAX_PLAYERS || rs->nzones > ZO_MAX_ZONE_TYPES)
    return zo_error_set(err, ZO_ERR_SETUP, c->file, 1, 1, "%d players and %d zone types "
                        "(rule set %s): a game has at most %d players and %d zone types",
                        c->nplayers, rs->nzones, rs->id, ZO_MAX_PLAYERS, ZO_MAX_ZONE_TYPES);
  zo_game *g = game_alloc(rs, c);
  map_types(g);
  make_zones(g);
  zo_status rc = place_cards(g, err, lenient);
  for (int z = 0; rc == ZO_OK && z < g->nzones; z++)
    if (g->rs->zones[g->zones[z].type].ordered.value) rc = order_zone(g, z, err);
  if (rc != ZO_OK) {
    zo_game_free(g);
    return rc;
  }
  g->ncards_start = 0;
  for (int i = 0; i < g->nobjs; i++)
    if (g->objs[i].exists && g->objs[i].kind == ZK_CARD && !is_token(g, &g->objs[i]))
      g->ncards_start++; /* cards-conserved counts the cards that can't cease */
  *out = g;
  return ZO_OK;
}

zo_status zo_game_new(const zo_ruleset *rs, const zo_case *c, zo_game **out,
                      zo_error *err) {
  return game_new(rs, c, out, err, 0);
}

zo_status zo_game_new_lenient(const zo_ruleset *rs, zo_case *c, zo_game **out) {
  zo_error err;
  return game_new(rs, c, out, &err, 1);
}

void zo_game_free(zo_game *g) {
  if (!g) return;
  free(g->pool);
  free(g->zones);
  free(g->zone_scratch);
  free(g->zone_life);
  free(g->order_scratch);
  free(g->chk_listed); /* zo_game_check's scratch */
  free(g->id_stamp);
  free(g->cants);
  free(g->ctrls);
  free(g->etb);
  free(g->entering);
  free(g->etb_chosen);
  free(g); /* with its tables (one block) */
}
