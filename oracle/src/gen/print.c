/* print.c: a decoded fuzz input printed as a YAML case (zoneoracle replay).
 *
 * The case has the rule set, players and starting position the decoder
 * chose, every step it decoded with the outcome the oracle gave as that
 * step's expectation, and a final expect of every object's zone, so a
 * person can read what happened and the suite can keep it as a regression.
 * It uses only the case language, so `zoneoracle check` accepts it.
 */
#include <string.h>

#include "decoder.h"
#include "diff.h"

static const char *zname(const zo_fuzz *f, const zo_zone_spec *z, char *buf, size_t cap) {
  if (z->type == ZO_ZT_OUTSIDE) return "outside";
  if (z->type == ZO_ZT_ANY) return "any";
  if (z->type == ZO_ZT_ARENA) return "arena";
  if (z->type < 0) return "?";
  const char *t = f->c->ztypes[z->type];
  if (z->player >= 0 && z->index) snprintf(buf, cap, "%s.%s.%d", f->c->players[z->player], t, z->index);
  else if (z->player >= 0) snprintf(buf, cap, "%s.%s", f->c->players[z->player], t);
  else snprintf(buf, cap, "%s", t);
  return buf;
}

static const char *H(const zo_fuzz *f, int h) { return f->c->handles[h]; }

static void types(const zo_fuzz *f, uint64_t bits, FILE *out) {
  fputs("[", out);
  int first = 1;
  for (int i = 0; i < 64; i++)
    if (bits & ((uint64_t)1 << i) && zo_type_word(i)) {
      fprintf(out, "%s%s", first ? "" : ", ", zo_type_word(i));
      first = 0;
    }
  fputs("]", out);
  (void)f;
}

static void move_body(const zo_fuzz *f, const zo_step *s, int with_card, FILE *out) {
  char b[96];
  fputs("{", out);
  if (with_card) fprintf(out, "card: %s, ", H(f, s->card));
  fprintf(out, "to: %s", zname(f, &s->to, b, sizeof b));
  if (s->position == ZO_POS_BOTTOM) fputs(", position: bottom", out);
  else if (s->position >= 0) fprintf(out, ", position: %d", s->position);
  if (s->face >= 0) fprintf(out, ", face: %s", s->face ? "down" : "up");
  if (s->by_rule) fputs(", by: rule", out);
  if (s->cause[0]) fprintf(out, ", cause: %s", s->cause);
  if (s->choose) fprintf(out, ", choose: %d", s->choose);
  if (s->then) fprintf(out, ", then: {mark: {as: %s, kind: effect}}", f->c->marknames[s->then->as]);
  fputs("}", out);
}

static void step(const zo_fuzz *f, const zo_step *s, FILE *out) {
  char b[96], b2[96];
  const zo_case *c = f->c;
  switch (s->kind) {
  case ST_MOVE:
    fprintf(out, "%s: ", zo_step_kind_name(s->kind));
    move_body(f, s, 1, out);
    break;
  case ST_MOVE_TOGETHER:
    fprintf(out, "%s: {moves: [", zo_step_kind_name(s->kind));
    for (int i = 0; i < s->nmoves; i++) {
      if (i) fputs(", ", out);
      move_body(f, &s->moves[i], 1, out);
    }
    fputs("]}", out);
    break;
  case ST_CREATE:
    fprintf(out, "%s: {as: %s, kind: %s, owner: %s, zone: %s, types: ", zo_step_kind_name(s->kind), H(f, s->as),
            zo_kind_name(s->kind_of), c->players[s->owner], zname(f, &s->zone, b, sizeof b));
    types(f, s->types, out);
    fputs("}", out);
    break;
  case ST_CONTROL:
    fprintf(out, "%s: {card: %s, player: %s}", zo_step_kind_name(s->kind), H(f, s->card), c->players[s->player]);
    break;
  case ST_PHASE:
    fprintf(out, "%s: {card: %s, out: %s}", zo_step_kind_name(s->kind), H(f, s->card), s->out ? "true" : "false");
    break;
  case ST_TURN_FACE:
    fprintf(out, "%s: {card: %s, face: %s}", zo_step_kind_name(s->kind), H(f, s->card), s->face ? "down" : "up");
    break;
  case ST_REORDER:
    fprintf(out, "%s: {zone: %s, order: [", zo_step_kind_name(s->kind), zname(f, &s->zone, b, sizeof b));
    for (int i = 0; i < s->norder; i++) fprintf(out, "%s%s", i ? ", " : "", H(f, s->order_zone_handles[i]));
    fputs("]}", out);
    break;
  case ST_SHUFFLE:
    fprintf(out, "%s: {zone: %s, seed: %llu}", zo_step_kind_name(s->kind), zname(f, &s->zone, b, sizeof b),
            (unsigned long long)s->seed);
    break;
  case ST_DRAW:
  case ST_MILL:
    fprintf(out, "%s: {player: %s, count: %d}", zo_step_kind_name(s->kind), c->players[s->player],
            s->count);
    break;
  case ST_PUT_UNDER:
    fprintf(out, "%s: {card: %s, under: %s}", zo_step_kind_name(s->kind), H(f, s->card), H(f, s->under));
    break;
  case ST_ZONE_CREATE:
  case ST_ZONE_REMOVE:
    fprintf(out, "%s: {zone: %s", zo_step_kind_name(s->kind), zname(f, &s->zone, b, sizeof b));
    if (s->choose) fprintf(out, ", choose: %d", s->choose);
    fputs("}", out);
    break;
  case ST_STATE_CHECK:
    fprintf(out, "%s: {}", zo_step_kind_name(s->kind));
    break;
  case ST_END_GAME:
    fprintf(out, "%s: {winner: %s}", zo_step_kind_name(s->kind), c->players[s->winner]);
    break;
  case ST_WATCH:
    fprintf(out, "%s: {as: %s, card: %s, from: %s, to: %s}", zo_step_kind_name(s->kind), c->triggers[s->as], H(f, s->card),
            zname(f, &s->from, b, sizeof b), zname(f, &s->to, b2, sizeof b2));
    break;
  case ST_RESOLVE:
    fprintf(out, "%s: {trigger: %s", zo_step_kind_name(s->kind), c->triggers[s->trigger]);
    if (s->then) {
      fputs(", do: {move: ", out);
      move_body(f, s->then, 0, out);
      fputs("}", out);
    }
    fputs("}", out);
    break;
  case ST_REMEMBER:
    fprintf(out, "%s: {as: %s, card: %s}", zo_step_kind_name(s->kind), c->refs[s->as], H(f, s->card));
    break;
  case ST_REPLACE:
    fprintf(out, "%s: {as: %s, card: %s, when: {to: %s}, instead: ", zo_step_kind_name(s->kind), c->replacements[s->as],
            s->replace_any ? "any" : H(f, s->card), zname(f, &s->when_to, b, sizeof b));
    move_body(f, s->then, 0, out);
    fputs("}", out);
    break;
  case ST_CHOOSE_REPLACEMENT:
    fprintf(out, "%s: {order: [", zo_step_kind_name(s->kind));
    for (int i = 0; i < s->norder; i++)
      fprintf(out, "%s%s", i ? ", " : "", c->replacements[s->order_zone_handles[i]]);
    fputs("]", out);
    if (s->player >= 0) fprintf(out, ", player: %s, card: %s", c->players[s->player], H(f, s->card));
    fputs("}", out);
    break;
  case ST_MARK:
    fprintf(out, "%s: {card: %s, as: %s, kind: %s}", zo_step_kind_name(s->kind), H(f, s->card), c->marknames[s->as],
            zo_mark_kind_names[s->mark_kind]);
    break;
  default:
    fprintf(out, "%s: {}", zo_step_kind_name(s->kind));
  }
}

void zo_fuzz_print_step(const zo_fuzz *f, const zo_step *s, FILE *out) { step(f, s, out); }

int zo_fuzz_print_yaml(const zo_fuzz *f, const zo_outcome *outcomes,
                       const zo_step_error *errors, const char *id,
                       const char *rule, const char *note, FILE *out) {
  return zo_fuzz_print_yaml_ex(f, outcomes, errors, id, rule, note, NULL, 0, out);
}

/* Is d a property of one object that the final expect does not already
   show (its zone, or that it no longer exists)? */
static int object_extra(const zo_obs_difference *d) {
  return d && d->expect[0] && d->handle >= 0 && strcmp(d->what, "zone") &&
         strcmp(d->what, "exists") && strcmp(d->what, "visible");
}

int zo_fuzz_print_yaml_ex(const zo_fuzz *f, const zo_outcome *outcomes,
                          const zo_step_error *errors, const char *id, const char *rule,
                          const char *note, const zo_obs_difference *d, int dstep,
                          FILE *out) {
  const zo_case *c = f->c;
  char b[96];
  fprintf(out, "id: %s\n", id);
  fprintf(out, "title: \"%s\"\n", note ? note : "decoded fuzz input");
  fprintf(out, "rulesets: [%s]\n", f->rs->id);
  fprintf(out, "rules: [\"%s\"]\n", rule ? rule : c->rules[0]);
  fprintf(out, "source: \"%s\"\n", note ? note : "zoneoracle replay");
  fputs("players: [", out);
  for (int p = 0; p < c->nplayers; p++) fprintf(out, "%s%s", p ? ", " : "", c->players[p]);
  fputs("]\ncards:\n", out);
  if (!c->ncards) fputs("  {}\n", out);
  for (int i = 0; i < c->ncards; i++) {
    const zo_card_setup *cs = &c->cards[i];
    fprintf(out, "  %s: {owner: %s, zone: %s", H(f, cs->handle), c->players[cs->owner],
            zname(f, &cs->zone, b, sizeof b));
    if (cs->kind != ZK_CARD) fprintf(out, ", kind: %s", zo_kind_name(cs->kind));
    if (cs->types) {
      fputs(", types: ", out);
      types(f, cs->types, out);
    }
    if (cs->face_down) fputs(", face: down", out);
    fputs("}\n", out);
  }
  fputs("steps:\n", out);
  if (!c->nsteps) fputs("  []\n", out);
  for (int i = 0; i < c->nsteps; i++) {
    fputs("  - ", out);
    step(f, &c->steps[i], out);
    fputs("\n", out);
    int extra = d && d->expect[0] && dstep == i + 1 && strcmp(d->what, "outcome") &&
                strcmp(d->what, "error");
    if (outcomes && outcomes[i] != ZO_OUTCOME_NONE) {
      fprintf(out, "    expect: {outcome: %s", zo_outcome_name(outcomes[i]));
      if (errors && errors[i]) fprintf(out, ", error: %s", zo_step_error_name(errors[i]));
      if (extra) fprintf(out, ", %s", d->expect);
      fputs("}\n", out);
    } else if (extra) {
      fprintf(out, "    expect: {%s}\n", d->expect);
    }
  }
  /* what the oracle observes at the end */
  fputs("expect:\n", out);
  int any = 0;
  for (int h = 0; h < c->nhandles; h++) {
    int exists = zo_game_obj_exists(f->g, h);
    if (h >= c->nsetup && !exists && zo_game_obj_identity(f->g, h) == 0) continue; /* never created */
    any = 1;
    if (!exists) {
      fprintf(out, "  %s: {exists: false}\n", H(f, h));
      continue;
    }
    zo_game_zone_name(f->g, zo_game_obj_zone(f->g, h), b, sizeof b);
    if (dstep == 0 && object_extra(d) && d->handle == h)
      fprintf(out, "  %s: {zone: %s, %s: %s}\n", H(f, h), b, d->what, d->oracle);
    else fprintf(out, "  %s: {zone: %s}\n", H(f, h), b);
  }
  if (dstep == 0 && d && d->expect[0] && (d->handle < 0 || !strcmp(d->what, "visible")) &&
      strcmp(d->what, "outcome") && strcmp(d->what, "error")) {
    fprintf(out, "  %s\n", d->expect);
    any = 1;
  }
  if (!any) fputs("  {}\n", out);
  return ferror(out) ? -1 : 0;
}
