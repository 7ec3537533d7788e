/* test_obs_check.c: unit tests of zo_observation_check (obs_check.c), the
 * INVARIANTS.md checks on what an engine shows. Each test runs the oracle's
 * game on a small case, takes its real observations (which must be sound),
 * then corrupts one field the way a broken engine would and asserts the
 * checker names the right invariant and object; where an invariant holds
 * only at rest or only without a shuffle, the same corruption is shown to
 * pass where the rules allow it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model_int.h"
#include "obs_check.h"

typedef struct {
  zo_case *c;
  zo_game *g;
  zo_obs_checker *k;
  zo_observation ob;   /* the latest observation (corrupt it, then check) */
  zo_step_result r;    /* the latest step's result */
  const zo_step *s;    /* the latest step, NULL after the setup */
  int next;            /* next step index */
} fixture;

/* A case head for a Magic rule set, and for FaB (each cites a rule of its
 * own rule set); cases with no steps say `steps: []` (NOSTEPS). */
#define HEAD(rs) "id: t/x\ntitle: t\nrulesets: [" rs "]\nrules: [\"CR 400.7\"]\nplayers: [alice, bob]\n"
#define FAB "id: t/x\ntitle: t\nrulesets: [fab]\nrules: [\"FaB 3.0.9\"]\nplayers: [alice, bob]\n"
#define NOSTEPS "steps: []\n"

/* Load a case, start the game, observe the setup (not yet checked). */
static fixture start(const char *rs, const char *text) {
  fixture f;
  memset(&f, 0, sizeof f);
  zo_error err;
  memset(&err, 0, sizeof err);
  if (zo_case_load_mem("t.yaml", text, strlen(text), &f.c, &err))
    fail_msg("load: %d:%d: %s", err.line, err.column, err.message);
  if (zo_game_new(zo_ruleset_find(rs), f.c, &f.g, &err)) fail_msg("setup: %s", err.message);
  f.k = zo_obs_checker_new(zo_ruleset_find(rs), f.c);
  zo_game_observe(f.g, &f.ob);
  return f;
}

static void stop(fixture *f) {
  zo_observation_free(&f->ob);
  zo_step_result_free(&f->r);
  zo_obs_checker_free(f->k);
  zo_game_free(f->g);
  zo_case_free(f->c);
}

/* Check the latest observation: 0 sound, else the violation's id. */
static const char *check(fixture *f, zo_obs_violation *v) {
  zo_obs_violation tmp;
  if (!v) v = &tmp;
  return zo_observation_check(f->k, f->s, f->s ? &f->r : NULL, &f->ob, v) ? v->invariant : NULL;
}

/* The latest observation is sound (the oracle's own). */
static void sound(fixture *f) {
  zo_obs_violation v;
  if (check(f, &v)) fail_msg("the oracle broke %s (%s): %s", v.invariant, v.rule, v.detail);
}

/* Apply the next step and observe (not yet checked). */
static void step(fixture *f) {
  zo_step_result_free(&f->r);
  zo_observation_free(&f->ob);
  f->s = &f->c->steps[f->next++];
  zo_game_apply(f->g, f->s, &f->r);
  zo_game_observe(f->g, &f->ob);
}

static int H(const fixture *f, const char *name) {
  for (int h = 0; h < f->c->nhandles; h++)
    if (!strcmp(f->c->handles[h], name)) return h;
  fail_msg("no handle %s", name);
  return -1;
}

static zo_obj_obs *O(fixture *f, const char *name) { return &f->ob.objs[H(f, name)]; }

static void set_zone(zo_obj_obs *o, const char *zone) { snprintf(o->zone, sizeof o->zone, "%s", zone); }

/* assert the violation's id and that it names the object */
static void assert_caught(fixture *f, const char *id, const char *handle) {
  zo_obs_violation v;
  const char *got = check(f, &v);
  if (!got) fail_msg("expected %s, the observation passed", id);
  if (strcmp(got, id)) fail_msg("expected %s, got %s: %s", id, got, v.detail);
  assert_non_null(v.rule);
  if (handle) {
    assert_int_equal(v.handle, H(f, handle));
    assert_non_null(strstr(v.detail, handle));
  }
}

static const char *MTG_TWO = HEAD("mtg-current")
    "cards:\n"
    "  bear: {owner: alice, zone: battlefield, types: [creature]}\n"
    "  elk: {owner: alice, zone: graveyard, types: [creature]}\n"
    "steps:\n"
    "  - move: {card: bear, to: graveyard}\n"
    "  - move: {card: bear, to: exile}\n";

static void test_in_a_zone(void **state) {
  (void)state;
  fixture f = start("mtg-current", MTG_TWO);
  set_zone(O(&f, "bear"), "");
  assert_caught(&f, "in-a-zone", "bear");
  stop(&f);
  f = start("mtg-current", MTG_TWO);
  set_zone(O(&f, "elk"), "alice.sideboard"); /* no such zone type */
  assert_caught(&f, "in-a-zone", "elk");
  stop(&f);
  f = start("mtg-current", MTG_TWO);
  set_zone(O(&f, "elk"), "graveyard"); /* a per-player type without its player */
  assert_caught(&f, "in-a-zone", "elk");
  stop(&f);
  /* only a card may be outside the game (CR 400.10) */
  f = start("mtg-current", HEAD("mtg-current") "cards:\n"
            "  t: {owner: alice, zone: battlefield, kind: token, types: [creature]}\n"
            "  c: {owner: alice, zone: outside}\n" NOSTEPS);
  sound(&f);
  stop(&f);
  f = start("mtg-current", HEAD("mtg-current") "cards:\n"
            "  t: {owner: alice, zone: battlefield, kind: token, types: [creature]}\n" NOSTEPS);
  set_zone(O(&f, "t"), "outside");
  O(&f, "t")->controller = -1;
  assert_caught(&f, "in-a-zone", "t");
  stop(&f);
}

static void test_one_zone(void **state) {
  (void)state;
  fixture f = start("mtg-current", MTG_TWO);
  O(&f, "elk")->object = O(&f, "bear")->object;
  assert_caught(&f, "one-zone", NULL);
  stop(&f);
}

static void test_tokens_in_arena(void **state) {
  (void)state;
  const char *text = HEAD("mtg-current") "cards:\n"
      "  t: {owner: alice, zone: battlefield, kind: token, types: [creature]}\n"
      "  u: {owner: alice, zone: battlefield, kind: token, types: [creature]}\n"
      "steps:\n  - move: {card: t, to: graveyard}\n  - state_check: {}\n";
  fixture f = start("mtg-current", text);
  sound(&f);
  step(&f); /* before state-based actions a token may sit in a graveyard */
  assert_string_equal(O(&f, "t")->zone, "alice.graveyard");
  sound(&f);
  step(&f); /* at rest: the oracle ceased it; an engine shows the other one there */
  assert_false(O(&f, "t")->exists);
  set_zone(O(&f, "u"), "alice.graveyard");
  O(&f, "u")->controller = -1;
  assert_caught(&f, "tokens-in-arena", "u");
  stop(&f);
  /* FaB: always at rest (8.1.8a), from the setup on */
  f = start("fab", FAB "cards:\n"
            "  t: {owner: alice, zone: permanent, kind: token, types: [token], subtypes: [aura]}\n" NOSTEPS);
  set_zone(O(&f, "t"), "alice.graveyard");
  O(&f, "t")->controller = -1;
  assert_caught(&f, "tokens-in-arena", "t");
  stop(&f);
}

static void test_copies_on_stack(void **state) {
  (void)state;
  fixture f = start("mtg-current", HEAD("mtg-current") "cards:\n"
                    "  a: {owner: alice, zone: stack, kind: ability}\n" NOSTEPS);
  set_zone(O(&f, "a"), "alice.graveyard");
  O(&f, "a")->controller = -1;
  assert_caught(&f, "copies-on-stack", "a");
  stop(&f);
  const char *text = HEAD("mtg-2011") "cards:\n"
      "  cp: {owner: alice, zone: stack, kind: copy, types: [instant]}\n"
      "  x: {owner: alice, zone: hand}\n"
      "steps:\n  - move: {card: x, to: graveyard}\n  - state_check: {}\n";
  f = start("mtg-2011", text);
  sound(&f);
  step(&f); /* not at rest: a copy off the stack is allowed for now */
  set_zone(O(&f, "cp"), "alice.graveyard");
  O(&f, "cp")->controller = -1;
  O(&f, "cp")->position = 0;
  O(&f, "x")->position = 1;
  sound(&f);
  stop(&f);
  f = start("mtg-2011", text);
  sound(&f);
  step(&f);
  sound(&f);
  step(&f); /* at rest (CR 704.5e) */
  set_zone(O(&f, "cp"), "exile");
  O(&f, "cp")->controller = -1;
  O(&f, "cp")->position = -1;
  assert_caught(&f, "copies-on-stack", "cp");
  stop(&f);
}

static void test_cards_conserved(void **state) {
  (void)state;
  fixture f = start("mtg-current", MTG_TWO);
  sound(&f);
  step(&f);
  O(&f, "elk")->exists = 0;
  assert_caught(&f, "cards-conserved", "elk");
  stop(&f);
}

static void test_owner_zones(void **state) {
  (void)state;
  fixture f = start("mtg-current", MTG_TWO);
  set_zone(O(&f, "elk"), "bob.graveyard");
  assert_caught(&f, "owner-zones", "elk");
  stop(&f);
}

static void test_capacity(void **state) {
  (void)state;
  const char *text = FAB "cards:\n"
      "  a: {owner: alice, zone: arsenal, types: [action]}\n"
      "  b: {owner: alice, zone: hand, types: [action]}\n" NOSTEPS;
  fixture f = start("fab", text);
  sound(&f);
  stop(&f);
  f = start("fab", text);
  set_zone(O(&f, "b"), "alice.arsenal");
  assert_caught(&f, "capacity", NULL);
  stop(&f);
}

static void test_can_hold(void **state) {
  (void)state;
  fixture f = start("mtg-current", HEAD("mtg-current") "cards:\n"
                    "  bolt: {owner: alice, zone: graveyard, types: [instant]}\n" NOSTEPS);
  set_zone(O(&f, "bolt"), "battlefield"); /* CR 400.4a */
  O(&f, "bolt")->position = -1;
  O(&f, "bolt")->controller = 0;
  assert_caught(&f, "can-hold", "bolt");
  stop(&f);
  f = start("fab", FAB "cards:\n"
            "  helm: {owner: alice, zone: graveyard, types: [equipment], subtypes: [arms]}\n" NOSTEPS);
  set_zone(O(&f, "helm"), "alice.head"); /* FaB 3.10.2a: an arms piece */
  O(&f, "helm")->controller = 0;
  assert_caught(&f, "can-hold", "helm");
  stop(&f);
}

static void test_fresh_ids(void **state) {
  (void)state;
  fixture f = start("mtg-current", MTG_TWO);
  uint64_t first = O(&f, "bear")->object;
  sound(&f);
  step(&f);
  sound(&f);
  step(&f); /* the bear shows its setup identity again */
  O(&f, "bear")->object = first;
  assert_caught(&f, "fresh-ids", "bear");
  stop(&f);
  f = start("mtg-current", MTG_TWO);
  first = O(&f, "bear")->object;
  sound(&f);
  step(&f); /* the elk shows the bear's retired identity */
  O(&f, "elk")->object = first;
  assert_caught(&f, "fresh-ids", "elk");
  stop(&f);
}

static void test_identity_rule(void **state) {
  (void)state;
  /* Magic: every move makes a new object (CR 400.7) */
  fixture f = start("mtg-current", MTG_TWO);
  uint64_t before = O(&f, "bear")->object;
  sound(&f);
  step(&f);
  O(&f, "bear")->object = before;
  assert_caught(&f, "identity-rule", "bear");
  stop(&f);
  /* an identity change the step's events don't mention */
  f = start("mtg-current", MTG_TWO);
  sound(&f);
  step(&f);
  O(&f, "elk")->object = 999999;
  assert_caught(&f, "identity-rule", "elk");
  stop(&f);
  /* FaB 3.0.9: arena to arena keeps the object; new there is wrong */
  const char *fab = FAB "cards:\n"
      "  a: {owner: alice, zone: stack, types: [action], subtypes: [aura]}\n"
      "steps:\n  - move: {card: a, to: permanent}\n";
  f = start("fab", fab);
  sound(&f);
  step(&f);
  sound(&f);
  stop(&f);
  f = start("fab", fab);
  sound(&f);
  step(&f);
  O(&f, "a")->object = 999999;
  assert_caught(&f, "identity-rule", "a");
  stop(&f);
}

static void test_stale_refs(void **state) {
  (void)state;
  const char *text = HEAD("mtg-current") "cards:\n"
      "  bear: {owner: alice, zone: battlefield, types: [creature]}\n"
      "steps:\n  - remember: {card: bear, as: it}\n  - move: {card: bear, to: graveyard}\n";
  fixture f = start("mtg-current", text);
  sound(&f);
  step(&f);
  assert_true(f.ob.ref_found[0]);
  sound(&f);
  step(&f); /* CR 400.7d: the new object is not the one remembered */
  assert_false(f.ob.ref_found[0]);
  f.ob.ref_found[0] = 1;
  assert_caught(&f, "stale-refs", "bear");
  stop(&f);
}

static void test_stack_layers(void **state) {
  (void)state;
  const char *text = FAB "cards:\n"
      "  a: {owner: alice, zone: stack, types: [action]}\n"
      "  b: {owner: alice, zone: stack, types: [action]}\n" NOSTEPS;
  fixture f = start("fab", text);
  assert_int_equal(O(&f, "a")->layer + O(&f, "b")->layer, 3);
  O(&f, "b")->position = 2; /* a gap */
  assert_caught(&f, "stack-layers", "b");
  stop(&f);
  f = start("fab", text);
  O(&f, "a")->layer = O(&f, "b")->layer; /* two layers alike */
  assert_caught(&f, "stack-layers", NULL);
  stop(&f);
}

static void test_no_controller(void **state) {
  (void)state;
  fixture f = start("mtg-current", MTG_TWO);
  O(&f, "elk")->controller = 1;
  assert_caught(&f, "no-controller", "elk");
  stop(&f);
}

static void test_sub_cards(void **state) {
  (void)state;
  const char *text = FAB "cards:\n"
      "  hero: {owner: alice, zone: hero, types: [hero]}\n"
      "  soul: {owner: alice, zone: hero, under: hero, types: [action]}\n" NOSTEPS;
  fixture f = start("fab", text);
  sound(&f);
  stop(&f);
  f = start("fab", text);
  set_zone(O(&f, "soul"), "alice.graveyard"); /* away from its top-card */
  assert_caught(&f, "sub-cards", "soul");
  stop(&f);
  f = start("fab", text);
  O(&f, "hero")->exists = 0; /* a top-card that does not exist */
  assert_caught(&f, "sub-cards", "soul");
  stop(&f);
  /* Magic has no sub-cards */
  f = start("mtg-current", MTG_TWO);
  O(&f, "elk")->under = H(&f, "bear");
  set_zone(O(&f, "elk"), "battlefield");
  O(&f, "elk")->position = -1;
  assert_caught(&f, "sub-cards", "elk");
  stop(&f);
}

/* attachments: to an existing other permanent beside it (CR 303.4),
 * phased out together (702.26g), only where the rule set attaches */
static void test_attachments(void **state) {
  (void)state;
  const char *text = HEAD("mtg-current") "cards:\n"
      "  bear: {owner: alice, zone: battlefield, types: [creature]}\n"
      "  rancor: {owner: alice, zone: battlefield, types: [enchantment], subtypes: [aura]}\n"
      "  gone: {owner: alice, zone: graveyard, types: [creature]}\n"
      "steps:\n  - attach: {card: rancor, to: bear}\n  - phase: {card: bear}\n";
  fixture f = start("mtg-current", text);
  step(&f);
  assert_int_equal(O(&f, "rancor")->attached_to, H(&f, "bear"));
  sound(&f);
  step(&f);
  sound(&f); /* phased out together */
  O(&f, "rancor")->phased_out = 0; /* left behind */
  assert_caught(&f, "attachments", "rancor");
  stop(&f);
  f = start("mtg-current", text);
  O(&f, "rancor")->attached_to = H(&f, "gone"); /* to a card in a graveyard */
  assert_caught(&f, "attachments", "rancor");
  stop(&f);
  f = start("mtg-current", text);
  O(&f, "rancor")->attached_to = H(&f, "rancor"); /* to itself */
  assert_caught(&f, "attachments", "rancor");
  stop(&f);
  /* to a player (CR 303.4b): an Aura on the battlefield, nothing else */
  f = start("mtg-current", text);
  O(&f, "rancor")->attached_player = 1;
  sound(&f);
  O(&f, "rancor")->attached_to = H(&f, "bear"); /* and to a permanent at once */
  assert_caught(&f, "attachments", "rancor");
  stop(&f);
  f = start("mtg-current", text);
  O(&f, "bear")->attached_player = 1; /* a creature */
  assert_caught(&f, "attachments", "bear");
  stop(&f);
  f = start("mtg-current", text);
  O(&f, "gone")->attached_player = 0; /* off the battlefield */
  assert_caught(&f, "attachments", "gone");
  stop(&f);
  f = start("fab", FAB "cards:\n"
            "  a: {owner: alice, zone: permanent, types: [action], subtypes: [aura]}\n"
            "  b: {owner: alice, zone: permanent, types: [action], subtypes: [ally]}\n" NOSTEPS);
  sound(&f);
  O(&f, "a")->attached_to = H(&f, "b"); /* FaB attaches nothing to a permanent */
  assert_caught(&f, "attachments", "a");
  O(&f, "a")->attached_to = -1;
  O(&f, "a")->attached_player = 0; /* nor to a player */
  assert_caught(&f, "attachments", "a");
  stop(&f);
}

static void test_deck_hidden(void **state) {
  (void)state;
  const char *text = HEAD("mtg-current") "cards:\n"
      "  top: {owner: alice, zone: library}\n"
      "  card: {owner: alice, zone: hand}\n" NOSTEPS;
  fixture f = start("mtg-current", text);
  assert_true(f.ob.sees[0 * f.ob.nhandles + H(&f, "card")]); /* her own hand: fine */
  sound(&f);
  stop(&f);
  f = start("mtg-current", text);
  f.ob.sees[0 * f.ob.nhandles + H(&f, "top")] = 1;
  assert_caught(&f, "deck-hidden", "top");
  stop(&f);
  f = start("fab", FAB "cards:\n  top: {owner: alice, zone: deck, types: [action]}\n" NOSTEPS);
  O(&f, "top")->visibility = 1;
  assert_caught(&f, "deck-hidden", "top");
  stop(&f);
}

static void test_order_kept(void **state) {
  (void)state;
  const char *text = HEAD("mtg-current") "cards:\n"
      "  l1: {owner: alice, zone: library}\n"
      "  l2: {owner: alice, zone: library}\n"
      "  l3: {owner: alice, zone: library}\n"
      "  bear: {owner: alice, zone: battlefield, types: [creature]}\n"
      "steps:\n  - move: {card: bear, to: graveyard}\n"
      "  - shuffle: {zone: alice.library, seed: 7}\n";
  fixture f = start("mtg-current", text);
  sound(&f);
  step(&f); /* the library was not touched: swapping two is a violation */
  int p1 = O(&f, "l1")->position;
  O(&f, "l1")->position = O(&f, "l2")->position;
  O(&f, "l2")->position = p1;
  assert_caught(&f, "order-kept", NULL);
  stop(&f);
  f = start("mtg-current", text);
  sound(&f);
  step(&f);
  sound(&f);
  step(&f); /* a shuffle may reorder anything */
  p1 = O(&f, "l1")->position;
  O(&f, "l1")->position = O(&f, "l2")->position;
  O(&f, "l2")->position = p1;
  sound(&f);
  stop(&f);
}

/* issue 31: at_index: (the Pendulum Zones) a kind of card shown in a zone
 * of another index breaks can-hold, and so does a Token shown face down
 * (face_up_only:), and a card shown in a zone its player's seat lacks
 * (seats:) breaks in-a-zone;
 * wrong_owner: cannot_hold on a zone type (the Pokemon Bench):
 * an object shown redirected into it breaks wrong-owner; follows_control
 * (the Yu-Gi-Oh! Monster Zones): an object whose controller changed, shown
 * still in its old controller's zone, breaks follows-control. */
static void test_zone_rules2(void **state) {
  (void)state;
  fixture f = start("pokemon", "id: t/x\ntitle: t\nrulesets: [pokemon]\nrules: [\"PTCG 10 Bench\"]\n"
                    "players: [alice, bob]\ncards:\n"
                    "  pika: {owner: alice, zone: hand, types: [pokemon]}\n"
                    "steps:\n  - move: {card: pika, to: bob.bench}\n");
  sound(&f);
  step(&f); /* refused: it stays in the hand; shown redirected instead */
  set_zone(O(&f, "pika"), "alice.bench");
  O(&f, "pika")->object = f.ob.objs[H(&f, "pika")].object + 1000; /* a new object there */
  f.r.nevents = 0;
  event(&f.r, H(&f, "pika"), ZO_OUTCOME_REDIRECTED);
  f.r.outcome = ZO_OUTCOME_REDIRECTED;
  assert_caught(&f, "wrong-owner", "pika");
  stop(&f);
  const char *ygo = "id: t/x\ntitle: t\nrulesets: [yugioh]\nrules: [\"YGO 49 Control\"]\n"
                    "players: [alice, bob]\ncards:\n"
                    "  m: {owner: bob, zone: bob.monster.2, types: [monster]}\n"
                    "steps:\n  - control: {card: m, player: alice}\n";
  f = start("yugioh", ygo);
  sound(&f);
  step(&f);
  sound(&f); /* moved to alice.monster.1 */
  stop(&f);
  f = start("yugioh", ygo);
  sound(&f);
  step(&f); /* shown still on bob's side */
  set_zone(O(&f, "m"), "bob.monster.2");
  assert_caught(&f, "follows-control", "m");
  stop(&f);
  /* at_index: a Pendulum Monster only in Spell & Trap Zones 1 and 5 */
  f = start("yugioh", "id: t/x\ntitle: t\nrulesets: [yugioh]\nrules: [\"YGO 16 Pendulum Zones\"]\n"
            "players: [alice, bob]\ncards:\n"
            "  p: {owner: alice, zone: alice.spell_trap.5, types: [monster, pendulum]}\n" NOSTEPS);
  sound(&f);
  set_zone(O(&f, "p"), "alice.spell_trap.3");
  assert_caught(&f, "can-hold", "p");
  stop(&f);
  /* seats: a card shown in a zone its player's seat lacks */
  const char *game = "id: seat-test\ntitle: t\ngame: seats\nzones:\n"
                     "  hq: {role: hand, per_player: {value: true, rule: \"S 1\"}, seats: {value: [1], rule: \"S 1\"}}\n"
                     "  grip: {per_player: {value: true, rule: \"S 1\"}, seats: {value: [2], rule: \"S 1\"}}\n"
                     "rules:\n  - {id: \"S 1\", text: \"The first player has an HQ, the second a grip.\"}\n";
  zo_ruleset *seat_rs;
  zo_error err;
  memset(&err, 0, sizeof err);
  if (zo_ruleset_load_mem("seat-test.yaml", game, strlen(game), &seat_rs, &err) ||
      zo_ruleset_register(seat_rs, &err))
    fail_msg("rule set: %s", err.message);
  f = start("seat-test", "id: t/x\ntitle: t\nrulesets: [seat-test]\nrules: [\"S 1\"]\n"
            "players: [corp, runner]\ncards:\n  c: {owner: corp, zone: corp.hq}\n" NOSTEPS);
  sound(&f);
  set_zone(O(&f, "c"), "runner.hq");
  assert_caught(&f, "in-a-zone", "c");
  stop(&f);
  /* face_up_only: a Token shown face down in a Monster Zone */
  f = start("yugioh", "id: t/x\ntitle: t\nrulesets: [yugioh]\nrules: [\"YGO 49 Tokens\"]\n"
            "players: [alice, bob]\ncards:\n"
            "  tok: {owner: alice, zone: alice.monster.1, kind: token, types: [monster]}\n" NOSTEPS);
  sound(&f);
  O(&f, "tok")->face_down = 1;
  assert_caught(&f, "can-hold", "tok");
  stop(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_in_a_zone),       cmocka_unit_test(test_one_zone),
      cmocka_unit_test(test_tokens_in_arena), cmocka_unit_test(test_copies_on_stack),
      cmocka_unit_test(test_cards_conserved), cmocka_unit_test(test_owner_zones),
      cmocka_unit_test(test_capacity),        cmocka_unit_test(test_can_hold),
      cmocka_unit_test(test_fresh_ids),       cmocka_unit_test(test_identity_rule),
      cmocka_unit_test(test_stale_refs),      cmocka_unit_test(test_stack_layers),
      cmocka_unit_test(test_no_controller),   cmocka_unit_test(test_sub_cards),
      cmocka_unit_test(test_deck_hidden),     cmocka_unit_test(test_order_kept),
      cmocka_unit_test(test_attachments),     cmocka_unit_test(test_zone_rules2),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
