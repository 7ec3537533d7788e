/* encode.c: a loaded case as decoder input (zo_fuzz_encode, decoder.h),
 * the inverse of decoder.c for the steps the byte layout can express
 * (layout.h, fuzz/README.md), so `zoneoracle corpus` seeds the fuzzers
 * with every behaviour the suite knows: its watch-move-resolve and
 * replacement sequences included. Where the layout picks an object among
 * those that exist (the k-th live handle), the handle is written as k:
 * exact while the objects before it exist, close otherwise. */
#include <stdlib.h>
#include <string.h>

#include "decoder.h"
#include "layout.h"
#include "util.h"

typedef struct {
  uint8_t *b;
  size_t n, cap;
} bytes;

static void put(bytes *o, int v) {
  if (o->n == o->cap) o->b = zo_xrealloc(o->b, o->cap = o->cap ? o->cap * 2 : 256);
  o->b[o->n++] = (uint8_t)v;
}

/* The palette row whose types the card has (most types matched): the
 * game's rows, then one per own type word of the rule set rs (the case c
 * numbers its own words its way: matched by word). */
static int palette_of(const zo_ruleset *rs, const zo_case *c, uint64_t types) {
  int fab = strcmp(rs->game, "fab") == 0;
  int best = 0, bestn = -1, rows = fab ? ZO_FUZZ_NFAB : ZO_FUZZ_NMTG;
  for (int i = 0; i < rows; i++) {
    const char *const *row = fab ? zo_fuzz_fab_types[i] : zo_fuzz_mtg_types[i];
    int n = 0, ok = 1;
    for (int k = 0; k < 3 && row[k]; k++) {
      if (types & zo_type_bit(row[k])) n++;
      else ok = 0;
    }
    if (ok && n > bestn) best = i, bestn = n;
  }
  for (int k = 0; k < rs->nxtypes && bestn < 1; k++)
    for (int i = 0; i < c->nxtypes; i++)
      if (types & ((uint64_t)1 << (ZO_NVOCAB + i)) && !strcmp(c->xtypes[i], rs->xtypes[k]))
        best = rows + k, bestn = 1;
  return best;
}

static int rs_zone(const zo_ruleset *rs, const zo_case *c, int ztype) {
  if (ztype < 0 || ztype >= c->nztypes) return 0;
  int z = zo_ruleset_zone(rs, c->ztypes[ztype]);
  return z < 0 ? 0 : z;
}

/* What an encoding needs besides the bytes. */
typedef struct {
  const zo_ruleset *rs;
  const zo_case *c;
  int np, watches, repls;
} enc;

/* The byte of a replace's when: to and category, as gen_replace reads it:
 * bit 0 any, else bits 1-5 the zone modulo the zone count, bits 6-7 the
 * category (CR 616.1a; FaB 6.5). */
static int replace_when_byte(const enc *x, const zo_step *s) {
  int cat = (int)s->repl_category % RC_COUNT;
  if (s->when_to.type == ZO_ZT_ANY) return 1 | cat << 6;
  int n = x->rs->nzones > 0 ? x->rs->nzones : 1, z = rs_zone(x->rs, x->c, s->when_to.type);
  int v = cat * 32 + ((z - cat * 32) % n + n) % n; /* v % n == z, v >> 5 == cat */
  return v << 1;
}

/* A move's three option bytes (decoder_gen.c, zo_fuzz_move_opts): destination and
 * choose; cause and player; position, face, by and (bit 7) from:. */
static void move_bytes(bytes *o, const enc *x, const zo_step *s, int with_from) {
  int cause = 0;
  for (int k = 0; k < ZO_FUZZ_NCAUSES; k++)
    if (!strcmp(zo_fuzz_causes[k], s->cause)) cause = k;
  int zone = s->to.type == ZO_ZT_OUTSIDE ? 22 : rs_zone(x->rs, x->c, s->to.type), a = zone;
  for (int v = 128; s->choose && zone != 22 && v < 256; v++) /* bit 7 and bit 5: choose 1 or 2 */
    if (v % 23 != 22 && v % x->rs->nzones == zone && ((v >> 5) & 1) == s->choose - 1) {
      a = v;
      break;
    }
  put(o, a);
  put(o, (cause << 4) | (s->to.player >= 0 ? 3 | (s->to.player << 2) : 0));
  int pos = s->position == ZO_POS_BOTTOM ? 1 : s->position >= 0 ? 2 | ((s->position & 3) << 2) : 0;
  int face = s->face == 0 ? 0x10 : s->face == 1 ? 0x20 : 0;
  int from = with_from && s->from.type != ZO_ZT_UNSET && s->from.type != ZO_ZT_ANY;
  put(o, pos | face | (s->by_rule ? 0x40 : 0) | (from ? 0x80 : 0));
  if (from) put(o, s->from.type == ZO_ZT_OUTSIDE ? 0 : 2 | (rs_zone(x->rs, x->c, s->from.type) << 2));
}

/* A watch's zone filter byte: bit 0 any, else the type (or outside, past
 * the types) shifted by one. */
static int watch_zone(const enc *x, const zo_zone_spec *z) {
  if (z->type == ZO_ZT_ANY || z->type == ZO_ZT_UNSET) return 1;
  if (z->type == ZO_ZT_OUTSIDE) return x->rs->nzones << 1;
  return rs_zone(x->rs, x->c, z->type) << 1;
}

/* create's zone byte: low two bits 0 (no fallback), the type modulo the
 * rule set's count. */
static int create_zone(const enc *x, int type) {
  for (int m = 0; m < 4; m++) {
    int z = type + m * x->rs->nzones;
    if (z % 4 == 0 && z < 256) return z;
  }
  return 1; /* the kind's fallback zone */
}

/* A step of a generated kind (steps.def) as OP_GENERIC's bytes
 * (decoder_gen.c, zo_fuzz_gen_generic): the kind among the generated ones,
 * then a byte per option (bit 7: an optional one given); 0 when a value
 * has no byte (a reference for card:, a count past 3, a list). */
static int generic_bytes(bytes *o, enc *x, const zo_step *s) {
  int idx = 0, n = 0;
  for (int k = 0; k < ST_COUNT; k++)
    if (zo_step_kind_generated((zo_step_kind)k)) {
      if (k == (int)s->kind) idx = n;
      n++;
    }
  size_t no;
  const zo_step_option *opt = zo_step_options(s->kind, &no);
  zo_step d;
  zo_step_defaults(&d, s->kind);
  size_t at = o->n;
  put(o, OP_GENERIC);
  put(o, idx);
  for (size_t i = 0; i < no; i++) {
    const void *field = (const char *)s + opt[i].offset, *dfield = (const char *)&d + opt[i].offset;
    int b = 0, given = zo_step_option_given(s, &d, &opt[i]);
    if (opt[i].type == OT_REF) {
      if (given) goto no_form; /* the layout names objects by handle */
      continue;
    }
    const int *ip = field; /* read only for the options of one int */
    switch (opt[i].type) {
    case OT_CARD:
    case OT_HANDLE:
    case OT_PLAYER: given = *ip >= 0, b = *ip; break;
    case OT_BOOL:
    case OT_FACE: b = *ip & 1; break;
    case OT_AMOUNT: b = *ip; break;
    case OT_CHOOSE: b = *ip - 1; break;
    case OT_CAUSE:
      for (int k = 0; given && k < ZO_FUZZ_NCAUSES; k++)
        if (!strcmp(zo_fuzz_causes[k], field)) b = k;
      break;
    case OT_ZONE: {
      const zo_zone_spec *z = field;
      given = z->type != ZO_ZT_UNSET && z->type != ((const zo_zone_spec *)dfield)->type;
      b = z->type == ZO_ZT_OUTSIDE ? 22 : rs_zone(x->rs, x->c, z->type);
      break;
    }
    default: /* no byte: only its default can be written */
      if (given) goto no_form;
    }
    if (given && (b < 0 || b > 0x7f || (opt[i].type == OT_AMOUNT && b > 3))) goto no_form;
    if (opt[i].flags & (OPT_REQ | OPT_OBJECT)) put(o, given ? b : 0);
    else put(o, given ? 0x80 | b : 0);
  }
  return 1;
no_form:
  o->n = at;
  return 0;
}

/* One step; 0 when the layout has no form for it. */
static int step_bytes(bytes *o, enc *x, const zo_step *s) {
  int fab = strcmp(x->rs->game, "fab") == 0;
  int h = s->card >= 0 ? s->card : 0;
  if (zo_step_kind_generated(s->kind)) return generic_bytes(o, x, s);
  switch (s->kind) {
  case ST_MOVE:
    put(o, s->player >= 0 ? OP_MOVE_BY : OP_MOVE);
    put(o, h);
    move_bytes(o, x, s, 1);
    if (s->player >= 0) put(o, s->player); /* issue 12, G3 */
    return 1;
  case ST_MOVE_TOGETHER: {
    if (!s->nmoves) return 0;
    int by = s->player >= 0 || s->order_by >= 0;
    put(o, by ? OP_TOGETHER_BY : OP_TOGETHER);
    put(o, s->nmoves > 2 ? 1 : 0);
    put(o, s->moves[0].card >= 0 ? s->moves[0].card : 0);
    move_bytes(o, x, &s->moves[0], 0);
    if (by) { /* issue 12, G3: player, and (bit 7) order_by in bits 3-6 */
      int p = s->player >= 0 ? s->player : 0, a = p;
      for (int v = 128; s->order_by >= 0 && v < 256; v++)
        if (v % x->np == p && (v >> 3) % x->np == s->order_by) {
          a = v;
          break;
        }
      put(o, a);
    }
    return 1;
  }
  case ST_LOOK: put(o, OP_LOOK); put(o, h); put(o, s->player >= 0 ? s->player : 0); return 1;
  case ST_REVEAL: /* bit 1: top_of (the player from bit 2; decoder_gen.c, zo_fuzz_gen_reveal) */
    put(o, OP_REVEAL);
    put(o, h);
    put(o, (s->end ? 1 : 0) | (zo_reveal_top_of(s) >= 0 ? 2 | (zo_reveal_top_of(s) << 2) : 0));
    return 1;
  case ST_CREATE: {
    int k = s->kind_of == ZK_ABILITY ? 3 : s->kind_of == ZK_COPY && !fab ? 2 : 0;
    put(o, OP_CREATE);
    put(o, k | ((s->owner >= 0 ? s->owner : 0) << 2));
    put(o, create_zone(x, rs_zone(x->rs, x->c, s->zone.type)));
    put(o, palette_of(x->rs, x->c, s->types));
    return 1;
  }
  case ST_STATE_CHECK: put(o, OP_STATE_CHECK); return 1;
  case ST_END_GAME:
    put(o, OP_END_GAME);
    put(o, 0); /* not turned into a state check */
    put(o, s->winner >= 0 ? s->winner : 0);
    return 1;
  case ST_DRAW:
  case ST_MILL:
    put(o, s->kind == ST_DRAW ? OP_DRAW : OP_MILL);
    put(o, s->player);
    put(o, s->count > 0 ? s->count - 1 : 0);
    return 1;
  case ST_SHUFFLE:
    put(o, OP_SHUFFLE);
    put(o, rs_zone(x->rs, x->c, s->zone.type));
    put(o, s->zone.player >= 0 ? s->zone.player : 0);
    put(o, (int)(s->seed & 0xff));
    return 1;
  case ST_ZONE_CREATE:
  case ST_ZONE_REMOVE: {
    put(o, s->kind == ST_ZONE_CREATE ? OP_ZONE_CREATE : OP_ZONE_REMOVE);
    put(o, rs_zone(x->rs, x->c, s->zone.type));
    int pl = s->zone.player >= 0 ? s->zone.player : 0, p = pl;
    for (int v = 128; s->choose && v < 256; v++) /* bit 7 and bit 5: choose 1 or 2 */
      if (v % x->np == pl && ((v >> 5) & 1) == s->choose - 1) {
        p = v;
        break;
      }
    put(o, p);
    return 1;
  }
  case ST_PHASE: put(o, OP_PHASE); put(o, h); put(o, s->out ? 0 : 1); return 1;
  case ST_TURN_FACE: put(o, OP_TURN); put(o, h); put(o, s->face); return 1;
  case ST_CONTROL: { /* until the next turn of the player gaining control: bit 6 */
    int p = s->player;
    for (int v = 64; s->until == ZO_UNTIL_NEXT_TURN && v < 128; v++)
      if (v % x->np == s->player) {
        p = v;
        break;
      }
    put(o, OP_CONTROL);
    put(o, h);
    put(o, p | (s->until ? 0x80 : 0));
    return 1;
  }
  case ST_MARK: /* the kinds kept_marks adds from bit 6 (decoder_gen.c, zo_fuzz_gen_mark) */
    put(o, OP_MARK);
    put(o, h);
    put(o, (s->mark_kind >= MK_STICKER ? 0x40 | ((int)s->mark_kind - MK_STICKER) : (int)s->mark_kind) |
               (s->until ? 0x80 : 0) |
               (s->until == ZO_UNTIL_NEXT_TURN ? 0x20 | (s->turn_of & 7) << 2 : 0));
    return 1;
  case ST_END_TURN: put(o, OP_END_TURN); return 1; /* G4 */
  case ST_CANT: { /* gen_cant's bytes; a types: list becomes [creature] or none */
    put(o, OP_CANT);
    put(o, s->replace_any ? 1 : h << 1);
    int n = x->rs->nzones > 0 ? x->rs->nzones : 1;
    int to = s->when_to.type == ZO_ZT_ANY ? 1 : (rs_zone(x->rs, x->c, s->when_to.type) % n) << 1;
    int from = s->when_from.type == ZO_ZT_ANY ? 1 : (rs_zone(x->rs, x->c, s->when_from.type) % n) << 1;
    put(o, to | (s->types ? 0x80 : 0));
    put(o, from);
    return 1;
  }
  case ST_REMEMBER: put(o, OP_REMEMBER); put(o, h); return 1;
  case ST_PUT_UNDER: put(o, OP_PUT_UNDER); put(o, h); put(o, s->under); return 1;
  case ST_ATTACH: /* the third byte 0: the attach alone (gen_attach) */
    /* to_player: (feature attach_player) is deliberately not generated:
       gen_attach's bytes name two handles and have no room for a player
       without changing what every encoded input decodes to (the corpus);
       the cases in cases/ cover it. Such a step has no form here */
    if (s->attach_to < 0) return 0;
    put(o, OP_ATTACH); put(o, h); put(o, s->attach_to); put(o, 0); return 1;
  case ST_UNTAP: /* gen_untap's bytes: the player, the count, the cards */
    put(o, OP_UNTAP);
    put(o, s->player);
    put(o, s->norder < 3 ? s->norder : 2);
    for (int i = 0; i < s->norder && i < 2; i++) put(o, s->order_zone_handles[i]);
    return 1;
  case ST_LEAVE_GAME: put(o, OP_LEAVE_GAME); put(o, s->player); return 1;
  case ST_WATCH: {
    if (s->on_phase) { /* gen_watch_phase: the card */
      put(o, OP_WATCH_PHASE);
      put(o, h);
      x->watches++;
      return 1;
    }
    if (s->aura >= 0) { /* the watch alone (zo_fuzz_seq_aura_trigger, flags 0) */
      put(o, OP_WATCH_AURA);
      put(o, h);
      put(o, s->aura);
      put(o, 0);
      put(o, watch_zone(x, &s->from));
      put(o, watch_zone(x, &s->to));
      x->watches++;
      return 1;
    }
    int cause = 0; /* G8: a cause word the decoder knows (else none) */
    for (int k = 1; k < ZO_FUZZ_NCAUSES; k++)
      if (!strcmp(zo_fuzz_causes[k], s->cause)) cause = k;
    put(o, cause ? OP_WATCH_CAUSE : OP_WATCH);
    put(o, h);
    put(o, watch_zone(x, &s->from));
    put(o, watch_zone(x, &s->to));
    if (cause) put(o, cause - 1);
    x->watches++;
    return 1;
  }
  case ST_RESOLVE:
    if (!x->watches) return 0;
    put(o, OP_RESOLVE);
    put(o, (s->trigger >= 0 ? s->trigger % x->watches : 0) | (s->then ? 0x80 : 0));
    if (s->then) move_bytes(o, x, s->then, 0);
    return 1;
  case ST_REPLACE:
    if (!s->then) return 0;
    put(o, OP_REPLACE);
    put(o, s->replace_any ? 1 : h << 1);
    put(o, replace_when_byte(x, s));
    move_bytes(o, x, s->then, 0);
    x->repls++;
    return 1;
  case ST_CHOOSE_REPLACEMENT: {
    if (!x->repls || !s->norder) return 0;
    /* the order is a rotation starting at order[0]; bit 7 adds player and card */
    int base = s->player >= 0 ? 128 : 0, first = s->order_zone_handles[0] % x->repls, a = base;
    while (a % x->repls != first) a++;
    put(o, OP_CHOOSE);
    put(o, a);
    if (s->player >= 0) {
      put(o, s->player);
      put(o, h);
    }
    return 1;
  }
  case ST_REORDER: {
    /* zone byte: the type modulo the rule set's count, bit 7 by: effect
       (decoder_gen.c, zo_fuzz_gen_reorder); the order is the zone as decoded, rotated
       by one (the top object to the bottom), the commonest rearrangement */
    int z = rs_zone(x->rs, x->c, s->zone.type), zb = z;
    for (int v = 0; v < 256; v++)
      if (v % x->rs->nzones == z && ((v >> 7) & 1) == (s->by_effect != 0)) {
        zb = v;
        break;
      }
    put(o, OP_REORDER);
    put(o, zb);
    put(o, s->zone.player >= 0 ? s->zone.player : 0);
    put(o, 1);
    return 1;
  }
  default: return 0;
  }
}

uint8_t *zo_fuzz_encode(const zo_case *c, int rs_index, size_t *size) {
  const zo_ruleset *rs = zo_ruleset_at((size_t)rs_index);
  bytes o = {0};
  put(&o, rs_index);
  int np = c->nplayers < 2 ? 2 : c->nplayers > 4 ? 4 : c->nplayers;
  put(&o, np - 2);
  int n = c->ncards < 1 ? 1 : c->ncards > ZO_FUZZ_MAX_CARDS ? ZO_FUZZ_MAX_CARDS : c->ncards;
  put(&o, n - 1);
  for (int i = 0; i < n; i++) {
    const zo_card_setup *cs = i < c->ncards ? &c->cards[i] : NULL;
    int kind = !cs ? 0 : cs->kind == ZK_TOKEN ? 5 : cs->kind == ZK_CARD ? 0 : 6;
    int extra = cs && (cs->kind == ZK_MACRO || cs->kind == ZK_COPY) ? 0x40 : 0;
    put(&o, kind | ((cs ? cs->owner % np : 0) << 3) | extra);
    put(&o, cs ? rs_zone(rs, c, cs->zone.type) : 0);
    put(&o, (cs ? palette_of(rs, c, cs->types) : 0) | (cs && cs->face_down ? 0x80 : 0));
  }
  enc x = {.rs = rs, .c = c, .np = np};
  for (int i = 0; i < c->nsteps; i++) step_bytes(&o, &x, &c->steps[i]);
  *size = o.n;
  return o.b;
}
