/* test_model.c: unit tests of the reference model (oracle/src/model/) and rule sets,
 * driven directly rather than through case expectations: identities, the
 * owner redirect, FaB capacity and two-handed weapons, repeatable shuffles,
 * rule hits, the invariant checker catching a broken state, rule set
 * files with `extends` and their errors, watches and replacements that name
 * a player's zone, the final expect of a case without steps, the order of
 * the arrivals of a move_together, a resolving copy becoming a token, and
 * the APNAP order of objects put on the stack together, an effect
 * rearranging a library, attachments, (issue 12) a step's performing
 * player, a look at a face-down exiled card and a revealed library card,
 * effect durations (G4), a watch on a move's cause (G8) and an Aura attached
 * to a player, printed back as written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "decoder.h"
#include "model_int.h"
#include "runner.h"
#include "util.h"

typedef struct {
  zo_case *c;
  zo_game *g;
} fixture;

/* Load a case text and start its game under rule set `rs`. (Weapons start
 * in the graveyard: a hand holds only deck-cards, FaB 3.9.2.) */
static fixture start(const char *rs, const char *text) {
  fixture f = {0};
  zo_error err;
  memset(&err, 0, sizeof err);
  if (zo_case_load_mem("t.yaml", text, strlen(text), &f.c, &err))
    fail_msg("load: %d:%d: %s", err.line, err.column, err.message);
  if (zo_game_new(zo_ruleset_find(rs), f.c, &f.g, &err)) fail_msg("setup: %s", err.message);
  return f;
}

static void stop(fixture *f) {
  zo_game_free(f->g);
  zo_case_free(f->c);
}

static zo_outcome step(fixture *f, int i, zo_step_error *e) {
  zo_step_result r;
  zo_game_apply(f->g, &f->c->steps[i], &r);
  zo_outcome o = r.outcome;
  if (e) *e = r.error;
  zo_step_result_free(&r);
  zo_violation v;
  if (zo_game_check(f->g, f->c->steps[i].kind == ST_STATE_CHECK, &v))
    fail_msg("invariant %s after step %d: %s", v.invariant, i + 1, v.detail);
  return o;
}

static int hits_of(const fixture *f, const char *rule) {
  int i = zo_ruleset_rule(f->g->rs, rule);
  assert_true(i >= 0);
  return zo_game_hits(f->g)[i];
}

static void zone_of(const fixture *f, int h, char *buf, size_t cap) {
  zo_game_zone_name(f->g, f->g->objs[h].zone, buf, cap);
}

#define HEAD(rs) "id: t/x\ntitle: t\nrulesets: [" rs "]\nrules: [\"CR 400.7\"]\nplayers: [alice, bob]\n"

static void test_every_mtg_move_is_a_new_object(void **state) {
  (void)state;
  fixture f = start("mtg-2011", HEAD("mtg-2011")
                    "cards:\n  x: {owner: alice, zone: battlefield}\n"
                    "steps:\n  - move: {card: x, to: exile}\n  - move: {card: x, to: exile}\n"
                    "  - move: {card: x, to: graveyard}\n");
  uint64_t ids[4];
  ids[0] = f.g->objs[0].id;
  assert_int_equal(step(&f, 0, NULL), ZO_OUTCOME_MOVED);
  ids[1] = f.g->objs[0].id;
  assert_int_equal(step(&f, 1, NULL), ZO_OUTCOME_NEW_OBJECT_IN_PLACE); /* 400.8 */
  ids[2] = f.g->objs[0].id;
  assert_int_equal(step(&f, 2, NULL), ZO_OUTCOME_MOVED);
  ids[3] = f.g->objs[0].id;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < i; j++) assert_true(ids[i] != ids[j]);
  assert_true(hits_of(&f, "CR 400.8") == 1);
  assert_true(hits_of(&f, "CR 400.7") >= 2);
  stop(&f);
}

static void test_fab_identity_kept_inside_arena(void **state) {
  (void)state;
  fixture f = start("fab", "id: t/x\ntitle: t\nrulesets: [fab]\nrules: [\"FaB 3.0.9\"]\nplayers: [alice, bob]\n"
                    "cards:\n  x: {owner: alice, zone: permanent, types: [action], subtypes: [aura]}\n"
                    "steps:\n  - move: {card: x, to: combat_chain}\n  - move: {card: x, to: permanent}\n"
                    "  - move: {card: x, to: graveyard}\n");
  uint64_t id0 = f.g->objs[0].id;
  assert_int_equal(step(&f, 0, NULL), ZO_OUTCOME_MOVED);
  assert_true(f.g->objs[0].id == id0); /* arena to arena: same object */
  assert_int_equal(step(&f, 1, NULL), ZO_OUTCOME_MOVED);
  assert_true(f.g->objs[0].id == id0);
  assert_int_equal(step(&f, 2, NULL), ZO_OUTCOME_MOVED);
  assert_true(f.g->objs[0].id != id0); /* outside the arena: new */
  assert_int_equal(f.g->objs[0].controller, -1);
  stop(&f);
}

static void test_owner_redirect_and_fab_refusal(void **state) {
  (void)state;
  const char *mtg = HEAD("mtg-2011")
      "cards:\n  x: {owner: bob, zone: battlefield, controller: alice}\n"
      "steps:\n  - move: {card: x, to: alice.graveyard}\n";
  fixture f = start("mtg-2011", mtg);
  assert_int_equal(step(&f, 0, NULL), ZO_OUTCOME_REDIRECTED); /* 400.3 */
  char z[64];
  zone_of(&f, 0, z, sizeof z);
  assert_string_equal(z, "bob.graveyard");
  assert_int_equal(hits_of(&f, "CR 400.3"), 2); /* the switch and the zone */
  stop(&f);
  const char *fab = "id: t/x\ntitle: t\nrulesets: [fab]\nrules: [\"FaB 3.0.11\"]\nplayers: [alice, bob]\n"
      "cards:\n  x: {owner: bob, zone: permanent, types: [action], subtypes: [item]}\n"
      "steps:\n  - move: {card: x, to: alice.graveyard}\n"
      "  - move: {card: x, to: alice.graveyard, by: rule}\n";
  f = start("fab", fab);
  zo_step_error e;
  assert_int_equal(step(&f, 0, &e), ZO_OUTCOME_FAILED); /* an effect fails */
  assert_int_equal(e, ZO_E_CANNOT_HOLD);
  zone_of(&f, 0, z, sizeof z);
  assert_string_equal(z, "permanent");
  assert_int_equal(step(&f, 1, NULL), ZO_OUTCOME_CLEARED); /* a rule clears */
  zone_of(&f, 0, z, sizeof z);
  assert_string_equal(z, "bob.graveyard");
  stop(&f);
}

static void test_two_handed_weapon_and_quiver(void **state) {
  (void)state;
  const char *text = "id: t/x\ntitle: t\nrulesets: [fab]\nrules: [\"FaB 3.16.2a\"]\nplayers: [alice]\n"
      "cards:\n"
      "  bow: {owner: alice, zone: graveyard, types: [weapon], subtypes: [2h, bow]}\n"
      "  q: {owner: alice, zone: graveyard, types: [equipment], subtypes: [quiver]}\n"
      "  shield: {owner: alice, zone: graveyard, types: [equipment], subtypes: [off-hand]}\n"
      "  sword: {owner: alice, zone: graveyard, types: [weapon], subtypes: [1h]}\n"
      "steps:\n"
      "  - move: {card: bow, to: alice.weapon.1}\n"
      "  - move: {card: shield, to: alice.weapon.2}\n"
      "  - move: {card: q, to: alice.weapon.2}\n"
      "  - move: {card: sword, to: alice.weapon.2}\n";
  fixture f = start("fab", text);
  assert_int_equal(step(&f, 0, NULL), ZO_OUTCOME_MOVED);
  zo_step_error e;
  assert_int_equal(step(&f, 1, &e), ZO_OUTCOME_FAILED); /* 8.2.2: zone taken */
  assert_int_equal(e, ZO_E_CAPACITY);
  assert_int_equal(step(&f, 2, NULL), ZO_OUTCOME_MOVED); /* 8.2.15 */
  assert_int_equal(step(&f, 3, &e), ZO_OUTCOME_FAILED);
  assert_int_equal(e, ZO_E_CAPACITY);
  stop(&f);
}

static void test_shuffle_is_repeatable(void **state) {
  (void)state;
  char text[4096];
  int n = snprintf(text, sizeof text, HEAD("mtg-2011") "cards:\n");
  for (int i = 0; i < 20; i++)
    n += snprintf(text + n, sizeof text - (size_t)n, "  c%d: {owner: alice, zone: library}\n", i);
  snprintf(text + n, sizeof text - (size_t)n,
           "steps:\n  - shuffle: {zone: alice.library, seed: 7}\n  - shuffle: {zone: alice.library, seed: 8}\n");
  fixture a = start("mtg-2011", text), b = start("mtg-2011", text);
  step(&a, 0, NULL);
  step(&b, 0, NULL);
  int lib = a.g->objs[0].zone;
  assert_memory_equal(a.g->zones[lib].objs, b.g->zones[lib].objs, 20 * sizeof(int));
  int moved = 0, seen[20] = {0};
  for (int i = 0; i < 20; i++) {
    moved += a.g->zones[lib].objs[i] != i;
    seen[a.g->zones[lib].objs[i]]++;
  }
  assert_true(moved > 0);
  for (int i = 0; i < 20; i++) assert_int_equal(seen[i], 1); /* a permutation */
  step(&b, 1, NULL);
  assert_memory_not_equal(a.g->zones[lib].objs, b.g->zones[lib].objs, 20 * sizeof(int));
  stop(&a);
  stop(&b);
}

static void test_check_catches_broken_states(void **state) {
  (void)state;
  fixture f = start("mtg-2011", HEAD("mtg-2011")
                    "cards:\n  t: {owner: alice, zone: battlefield, kind: token}\n"
                    "  x: {owner: alice, zone: hand}\nsteps:\n  - move: {card: t, to: graveyard}\n"
                    "  - state_check: {}\n");
  zo_violation v;
  assert_int_equal(zo_game_check(f.g, 1, &v), 0);
  zo_step_result r;
  zo_game_apply(f.g, &f.c->steps[0], &r);
  zo_step_result_free(&r);
  assert_int_equal(zo_game_check(f.g, 0, &v), 0);   /* not at rest yet */
  assert_int_equal(zo_game_check(f.g, 1, &v), 1);   /* at rest: broken */
  assert_string_equal(v.invariant, "tokens-in-arena");
  zo_game_apply(f.g, &f.c->steps[1], &r);
  assert_int_equal(r.outcome, ZO_OUTCOME_CEASED);  /* 704.5d */
  zo_step_result_free(&r);
  assert_int_equal(zo_game_check(f.g, 1, &v), 0);
  /* break it by hand: a card vanishes */
  f.g->objs[1].exists = 0;
  assert_int_equal(zo_game_check(f.g, 0, &v), 1);
  stop(&f);
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

/* Messages cite only what the rule set stands behind: its own rules and
 * its game's rule book; another game's numbers are dropped (issue 31). */
static void test_cite_keeps_the_rule_sets_own_rules(void **state) {
  (void)state;
  static const char text[] = "id: pocket\ntitle: t\ngame: pocket\nzones:\n  deck: {role: library}\n"
                             "rules:\n  - {id: \"P 1\", text: a}\n";
  zo_ruleset *rs = NULL;
  zo_error err;
  memset(&err, 0, sizeof err);
  if (zo_ruleset_load_mem("pocket.yaml", text, sizeof text - 1, &rs, &err)) fail_msg("%s", err.message);
  char buf[96];
  assert_string_equal(zo_ruleset_cite(rs, "CR 400.1; FaB 3.0.1", buf, sizeof buf), "");
  assert_string_equal(zo_ruleset_cite(rs, "FaB 3.0.11; P 1", buf, sizeof buf), "P 1");
  zo_ruleset_free(rs);
  const zo_ruleset *mtg = zo_ruleset_find("mtg-2011"), *fab = zo_ruleset_find("fab");
  assert_non_null(mtg);
  assert_non_null(fab);
  assert_string_equal(zo_ruleset_cite(mtg, "CR 303.4, 301.5; FaB 3.0.14", buf, sizeof buf),
                      "CR 303.4; CR 301.5");
  assert_string_equal(zo_ruleset_cite(fab, "CR 400.1; FaB 3.0.1", buf, sizeof buf), "FaB 3.0.1");
  assert_string_equal(zo_ruleset_cite(mtg, "CR 704.5d", buf, sizeof buf), "CR 704.5d");
}

static void test_ruleset_file_extends_and_errors(void **state) {
  (void)state;
  char dir[] = "/tmp/zo-rs-XXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[256];
  snprintf(path, sizeof path, "%s/my.yaml", dir);
  write_file(path, "id: my-game\ntitle: a variant\nextends: mtg-2011\n"
                   "switches:\n  draw_empty: {value: fails, rule: \"CR 120.4\"}\n");
  zo_ruleset *rs = NULL;
  zo_error err;
  memset(&err, 0, sizeof err);
  if (zo_ruleset_load_file(path, &rs, &err)) fail_msg("%s", err.message);
  assert_string_equal(zo_ruleset_id(rs), "my-game");
  assert_int_equal(rs->sw[SW_DRAW_EMPTY].value, ZS_FAILS);
  assert_int_equal(rs->sw[SW_WRONG_OWNER].value, ZS_REDIRECT); /* inherited */
  assert_true(zo_ruleset_zone(rs, "exile") >= 0);
  zo_ruleset_free(rs);
  write_file(path, "id: my-game\ntitle: t\nextends: mtg-2011\nzones:\n  hand:\n    ordred: {value: true, rule: null}\n");
  assert_int_equal(zo_ruleset_load_file(path, &rs, &err), ZO_ERR_SCHEMA);
  assert_int_equal(err.line, 6);
  assert_int_equal(err.column, 5);
  assert_non_null(strstr(err.message, "did you mean 'ordered'"));
  write_file(path, "id: g\ntitle: t\ngame: mtg\nzones:\n  deck:\n    ordered: {value: true, rule: \"X 1\"}\n");
  assert_int_equal(zo_ruleset_load_file(path, &rs, &err), ZO_ERR_SCHEMA);
  assert_non_null(strstr(err.message, "not listed under rules"));
  /* any game named by a word (issue 31); a slip of mtg or fab is refused */
  write_file(path, "id: g\ntitle: t\ngame: pokemon\nzones:\n  deck: {role: library}\n");
  if (zo_ruleset_load_file(path, &rs, &err)) fail_msg("%s", err.message);
  assert_string_equal(rs->game, "pokemon");
  zo_ruleset_free(rs);
  write_file(path, "id: g\ntitle: t\ngame: mgt\nzones:\n  deck: {role: library}\n");
  assert_int_equal(zo_ruleset_load_file(path, &rs, &err), ZO_ERR_SCHEMA);
  assert_non_null(strstr(err.message, "did you mean 'mtg'?"));
  assert_int_equal(err.line, 3);
  assert_int_equal(err.column, 7);
  /* an equip: citation is resolved into the zone type (it was written
     through a pointer to a dead local: ASan's detect_stack_use_after_return) */
  write_file(path, "id: g2\ntitle: t\ngame: fab\nzones:\n  rack:\n    role: other\n"
                   "    holds: {value: [equip], rule: \"G 1\"}\n"
                   "    equip: {value: [sword_kind, weapon], rule: [\"G 1\", \"G 2\"]}\n"
                   "rules:\n  - {id: \"G 1\", text: a}\n  - {id: \"G 2\", text: b}\n");
  if (zo_ruleset_load_file(path, &rs, &err)) fail_msg("%s", err.message);
  assert_int_equal(rs->zones[0].equip.nrules, 2);
  assert_int_equal(rs->zones[0].equip.rules[1], zo_ruleset_rule(rs, "G 2"));
  assert_int_equal(rs->nxtypes, 1); /* sword_kind: the rule set's own word */
  assert_string_equal(rs->xtypes[0], "sword_kind");
  assert_true(rs->zones[0].equip_types == (zo_type_bit("weapon") | ((uint64_t)1 << ZO_NVOCAB)));
  zo_ruleset_free(rs);
  unlink(path);
  rmdir(dir);
}

static void test_embedded_rulesets_cite_only_listed_rules(void **state) {
  (void)state;
  assert_int_equal(zo_ruleset_count(), 8);
  /* seed_rules: an extending rule set names its own seed rules */
  const zo_ruleset *r08 = zo_ruleset_find("mtg-2008");
  assert_int_equal(zo_ruleset_rule_is_seed(r08, (size_t)zo_ruleset_rule(r08, "CR 217.1f")), 1);
  assert_int_equal(zo_ruleset_rule_is_seed(r08, (size_t)zo_ruleset_rule(r08, "CR 217.2a")), 0);
  assert_int_equal(zo_ruleset_find("mtg-1999")->nzones, 8); /* Z.1.1 */
  for (size_t i = 0; i < zo_ruleset_count(); i++) {
    const zo_ruleset *rs = zo_ruleset_at(i);
    for (int s = 0; s < SW_COUNT; s++)
      for (int k = 0; k < rs->sw[s].nrules; k++)
        assert_true(rs->sw[s].rules[k] >= 0 && rs->sw[s].rules[k] < rs->nrules);
    int seeds = 0, outs = 0, gaps = 0;
    for (size_t r = 0; r < zo_ruleset_rule_count(rs); r++) {
      int seed = zo_ruleset_rule_is_seed(rs, r);
      const char *out = zo_ruleset_rule_out_of_scope(rs, r), *gap = zo_ruleset_rule_language_gap(rs, r);
      seeds += seed;
      outs += out != NULL;
      gaps += gap != NULL;
      /* a rule is at most one of: seed, out of scope, a language gap */
      assert_true(seed + (out != NULL) + (gap != NULL) <= 1);
      if (!strcmp(zo_ruleset_id(rs), "mtg-current")) {
        /* today's sections that issue 12 names: every rule accounted for */
        const char *id = zo_ruleset_rule_id(rs, r);
        static const char *const fam[] = {"CR 400.", "CR 401.", "CR 402.", "CR 403.", "CR 404.",
                                          "CR 405.", "CR 406.", "CR 111.", "CR 707.", "CR 708.",
                                          "CR 614.", "CR 616.", "CR 702.26"};
        for (size_t f = 0; f < sizeof fam / sizeof *fam; f++)
          if (!strncmp(id, fam[f], strlen(fam[f]))) {
            if (!(seed || out || gap)) fail_msg("%s: neither seed, out_of_scope nor language_gap", id);
          }
      }
    }
    /* every rule set has rules a case must cite; mtg-current (no seed text)
       names them itself and accounts for the rest of today's sections: the
       case language writes every zone rule of them (no language gap left) */
    assert_true(seeds > 0);
    if (!strcmp(zo_ruleset_id(rs), "mtg-current")) {
      assert_true(outs > 0);
      assert_int_equal(gaps, 0);
    }
  }
  assert_int_equal(zo_ruleset_find("fab")->nzones, 15); /* FaB 3.0.1 */
  assert_int_equal(zo_ruleset_find("mtg-2011")->nzones, 8); /* 400.1 + ante */
}

/* A watch's from:/to: and a replacement's when: name a player's zone: a
 * move to another player's zone of that type does not match (CR 603.2,
 * 614.1; the zones of CR 400.3 belong to a player). */
static void test_watch_and_replace_honour_the_player(void **state) {
  (void)state;
  fixture f = start("mtg-2011", HEAD("mtg-2011")
                    "cards:\n  x: {owner: alice, zone: battlefield}\n  y: {owner: alice, zone: hand}\n"
                    "steps:\n  - watch: {as: tb, card: x, to: bob.graveyard}\n"
                    "  - watch: {as: ta, card: x, to: alice.graveyard}\n"
                    "  - watch: {as: tf, card: x, from: bob.library}\n"
                    "  - move: {card: x, to: graveyard}\n"
                    "  - replace: {as: rb, card: y, when: {from: bob.hand}, instead: {to: exile}}\n"
                    "  - move: {card: y, to: graveyard}\n"
                    "  - move: {card: y, to: hand}\n"
                    "  - replace: {as: ra, card: y, when: {from: alice.hand}, instead: {to: exile}}\n"
                    "  - move: {card: y, to: graveyard}\n");
  for (int i = 0; i < 3; i++) step(&f, i, NULL);
  assert_int_equal(step(&f, 3, NULL), ZO_OUTCOME_MOVED);
  assert_int_equal(f.g->trig[0].fired, 0); /* bob's graveyard: not where x went */
  assert_int_equal(f.g->trig[1].fired, 1);
  assert_int_equal(f.g->trig[2].fired, 0); /* it came from the battlefield */
  step(&f, 4, NULL);
  assert_int_equal(step(&f, 5, NULL), ZO_OUTCOME_MOVED); /* from alice's hand: rb ignores it */
  char z[64];
  zone_of(&f, 1, z, sizeof z);
  assert_string_equal(z, "alice.graveyard");
  step(&f, 6, NULL);
  step(&f, 7, NULL);
  assert_int_equal(step(&f, 8, NULL), ZO_OUTCOME_REPLACED);
  zone_of(&f, 1, z, sizeof z);
  assert_string_equal(z, "exile");
  stop(&f);
}

/* With steps: [] the top-level expect: holds of the setup itself and is
 * compared: a false one fails the case (it used to pass unread). */
static void test_final_expect_without_steps_is_compared(void **state) {
  (void)state;
  const char *text = HEAD("mtg-2011") "cards:\n  x: {owner: alice, zone: hand}\nsteps: []\n"
                     "expect:\n  x: {zone: alice.graveyard}\n";
  zo_case *c = NULL;
  zo_error err;
  memset(&err, 0, sizeof err);
  if (zo_case_load_mem("t.yaml", text, strlen(text), &c, &err)) fail_msg("%s", err.message);
  zo_engine *e = zo_engine_oracle_new();
  zo_run_options opt;
  memset(&opt, 0, sizeof opt);
  zo_case_result r;
  zo_run_case(e, c, zo_ruleset_find("mtg-2011"), &opt, &r);
  assert_int_equal(r.status, RS_FAIL);
  assert_int_equal(r.line, 10);
  assert_string_equal(r.what, "x.zone");
  zo_run run = {0};
  run.results = zo_xcalloc(1, sizeof *run.results);
  run.results[0] = r;
  run.n = 1;
  zo_run_free(&run);
  zo_case_free(c);
  /* true of the setup: passes */
  text = HEAD("mtg-2011") "cards:\n  x: {owner: alice, zone: hand}\nsteps: []\n"
         "expect:\n  x: {zone: alice.hand, new_object: false}\n";
  if (zo_case_load_mem("t.yaml", text, strlen(text), &c, &err)) fail_msg("%s", err.message);
  zo_run_case(e, c, zo_ruleset_find("mtg-2011"), &opt, &r);
  assert_int_equal(r.status, RS_PASS);
  run = (zo_run){0};
  run.results = zo_xcalloc(1, sizeof *run.results);
  run.results[0] = r;
  run.n = 1;
  zo_run_free(&run);
  zo_case_free(c);
  zo_engine_oracle_free(e);
}

/* move_together orders only the members that arrived (CR 400.5, 401.4):
 * one that failed to move keeps its place, also when the chosen order
 * names it, and when a long order list grows the step's scratch. */
static void test_move_together_orders_only_arrivals(void **state) {
  (void)state;
  fixture f = start("mtg-2011", HEAD("mtg-2011")
                    "cards:\n  a: {owner: alice, zone: library}\n  b: {owner: alice, zone: library}\n"
                    "  c: {owner: alice, zone: hand}\n"
                    "steps:\n  - move_together:\n      moves:\n"
                    "        - {card: b, from: hand, to: library}\n"
                    "        - {card: c, from: hand, to: library}\n"
                    "      order: {alice.library: [b, c, b, c, b, c, b, c, b]}\n");
  uint64_t b_id = f.g->objs[1].id;
  int cap = f.g->order_cap;
  assert_int_equal(step(&f, 0, NULL), ZO_OUTCOME_MOVED);
  assert_true(f.g->order_cap > cap); /* the scratch grew to the order list */
  const zo_zone *lib = &f.g->zones[f.g->objs[0].zone];
  assert_int_equal(lib->n, 3);
  assert_int_equal(lib->objs[0], 2); /* c arrived on top */
  assert_int_equal(lib->objs[1], 0); /* a and b kept their places */
  assert_int_equal(lib->objs[2], 1);
  assert_true(f.g->objs[1].id == b_id);
  stop(&f);
}

/* A copy of a spell that resolves becomes a token where the rule set says
 * so (CR 110.5 of 2011), and stays a copy where it is silent (mtg-2004). */
static void test_resolving_copy_becomes_token(void **state) {
  (void)state;
  fixture f = start("mtg-2011", HEAD("mtg-2011")
                    "cards:\n  x: {owner: alice, zone: stack, kind: copy, types: [creature]}\n"
                    "steps:\n  - move: {card: x, to: battlefield}\n  - move: {card: x, to: graveyard}\n");
  assert_int_equal(f.g->objs[0].kind, ZK_COPY);
  assert_int_equal(step(&f, 0, NULL), ZO_OUTCOME_MOVED);
  assert_int_equal(f.g->objs[0].kind, ZK_TOKEN);
  assert_int_equal(hits_of(&f, "CR 110.5"), 1);
  assert_int_equal(step(&f, 1, NULL), ZO_OUTCOME_MOVED);
  assert_true(f.g->objs[0].left_arena); /* 110.5g applies from now on */
  stop(&f);
  f = start("mtg-2004", "id: t/x\ntitle: t\nrulesets: [mtg-2004]\nrules: [\"CR 217.1c\"]\n"
            "players: [alice, bob]\n"
            "cards:\n  x: {owner: alice, zone: stack, kind: copy, types: [creature]}\n"
            "steps:\n  - move: {card: x, to: in_play}\n");
  assert_int_equal(step(&f, 0, NULL), ZO_OUTCOME_MOVED);
  assert_int_equal(f.g->objs[0].kind, ZK_COPY);
  stop(&f);
}

/* Objects put on the stack together: APNAP order in mtg-current (CR
 * 405.3), the active player's lowest whatever the list says, each player's
 * own in their chosen order (mtg-2011 too: 405.3 of June 2011); the list
 * order in mtg-2004, whose text is silent (and counts no hit). */
static void test_stack_arrivals_apnap(void **state) {
  (void)state;
  const char *body = "players: [alice, bob, carol]\n"
                     "cards:\n  a1: {owner: alice, zone: hand}\n  b1: {owner: bob, zone: hand}\n"
                     "  a2: {owner: alice, zone: hand}\n  c1: {owner: carol, zone: hand}\n"
                     "steps:\n  - move_together:\n      moves: [{card: c1, to: stack}, "
                     "{card: a1, to: stack}, {card: b1, to: stack}, {card: a2, to: stack}]\n"
                     "      order: {stack: [a1, c1, a2]}\n";
  char text[1024];
  snprintf(text, sizeof text, "id: t/x\ntitle: t\nrulesets: [mtg-current]\nrules: [\"CR 405.3\"]\n%s", body);
  fixture f = start("mtg-current", text);
  assert_int_equal(step(&f, 0, NULL), ZO_OUTCOME_MOVED);
  int stack = f.g->objs[0].zone;
  const int want[] = {3, 1, 0, 2}; /* c1, b1, a1, a2: a1 above a2 as chosen */
  assert_int_equal(f.g->zones[stack].n, 4);
  for (int i = 0; i < 4; i++) assert_int_equal(f.g->zones[stack].objs[i], want[i]);
  assert_int_equal(hits_of(&f, "CR 405.3"), 1);
  stop(&f);
  /* mtg-2004 is silent (its 217.6b puts one object on top at a time) */
  snprintf(text, sizeof text, "id: t/x\ntitle: t\nrulesets: [mtg-2004]\nrules: [\"CR 217.6b\"]\n%s", body);
  f = start("mtg-2004", text);
  assert_int_equal(step(&f, 0, NULL), ZO_OUTCOME_MOVED);
  stack = f.g->objs[0].zone;
  /* the chosen order as it is (a1, c1, a2), b1 left where it arrived */
  const int listed[] = {0, 1, 3, 2};
  for (int i = 0; i < 4; i++) assert_int_equal(f.g->zones[stack].objs[i], listed[i]);
  stop(&f);
}

/* An effect may rearrange a library that no player may (CR 400.5; by:
 * effect): the same objects, in the new order, and the citation of
 * effect_reorder counts the hit; a player's reorder is refused. */
static void test_effect_reorders_library(void **state) {
  (void)state;
  fixture f = start("mtg-2011", "id: t/x\ntitle: t\nrulesets: [mtg-2011]\nrules: [\"CR 400.5\"]\n"
                    "players: [alice, bob]\n"
                    "cards:\n  a: {owner: alice, zone: library}\n  b: {owner: alice, zone: library}\n"
                    "steps:\n  - reorder: {zone: alice.library, order: [b, a]}\n"
                    "  - reorder: {zone: alice.library, order: [b, a], by: effect}\n");
  uint64_t ida = f.g->objs[0].id, idb = f.g->objs[1].id;
  zo_step_error e;
  assert_int_equal(step(&f, 0, &e), ZO_OUTCOME_REJECTED);
  assert_int_equal(e, ZO_E_ORDERED);
  int before = hits_of(&f, "CR 400.5");
  assert_int_equal(step(&f, 1, &e), ZO_OUTCOME_NO_MOVE);
  int lib = f.g->objs[0].zone;
  assert_int_equal(f.g->zones[lib].objs[0], 1);
  assert_int_equal(f.g->zones[lib].objs[1], 0);
  assert_true(f.g->objs[0].id == ida && f.g->objs[1].id == idb); /* no new object */
  assert_int_equal(hits_of(&f, "CR 400.5"), before + 1);
  stop(&f);
}

/* replace category: self: an applicable self-replacement effect goes before
 * one made earlier (CR 616.1a; FaB 6.5), which then no longer applies, and
 * counts a hit on the switch's rule; in mtg-1999 (replace_order none,
 * unspecified) the order of creation alone decides. A self-replacement
 * that another one makes applicable still applies after it (CR 616.2). */
static void test_self_replacement_goes_first(void **state) {
  (void)state;
  static const char *const body =
      "cards:\n  x: {owner: alice, zone: hand}\n  y: {owner: alice, zone: hand}\n"
      "steps:\n  - replace: {as: other, card: any, when: {to: graveyard}, instead: {to: library}}\n"
      "  - replace: {as: own, card: x, category: self, when: {to: graveyard}, instead: {to: hand}}\n"
      "  - replace: {as: back, card: y, category: self, when: {to: library}, instead: {to: hand}}\n"
      "  - move: {card: x, to: graveyard}\n"
      "  - move: {card: y, to: graveyard}\n";
  char text[1024];
  snprintf(text, sizeof text, "%s%s", HEAD("mtg-current"), body);
  fixture f = start("mtg-current", text);
  for (int i = 0; i < 3; i++) step(&f, i, NULL);
  int before = hits_of(&f, "CR 616.1a");
  assert_int_equal(step(&f, 3, NULL), ZO_OUTCOME_NO_MOVE); /* own: back to its hand */
  char z[64];
  zone_of(&f, 0, z, sizeof z);
  assert_string_equal(z, "alice.hand");
  assert_true(hits_of(&f, "CR 616.1a") > before);
  assert_int_equal(step(&f, 4, NULL), ZO_OUTCOME_NO_MOVE); /* other, then back (616.2) */
  zone_of(&f, 1, z, sizeof z);
  assert_string_equal(z, "alice.hand");
  stop(&f);
  snprintf(text, sizeof text, "%s%s",
           "id: t/x\ntitle: t\nrulesets: [mtg-1999]\nrules: [\"Z.6.5\"]\nplayers: [alice, bob]\n", body);
  f = start("mtg-1999", text);
  for (int i = 0; i < 3; i++) step(&f, i, NULL);
  assert_int_equal(step(&f, 3, NULL), ZO_OUTCOME_REPLACED); /* other first: the library */
  zone_of(&f, 0, z, sizeof z);
  assert_string_equal(z, "alice.library");
  stop(&f);
}

/* ---- issue 12: the performing player (G3), look (G5), reveal (G7) ---- */

/* Only the owner antes (CR 217.9d): bob's move of alice's card is
 * rejected and nothing changes, the citation of owner_puts counts; who
 * arranges cards bob puts on alice's library together: bob in mtg-2004
 * (217.2.Ruling.1, putter_orders), alice in mtg-2011 (401.4). */
static void test_performing_player(void **state) {
  (void)state;
  const char *text = "id: t/x\ntitle: t\nrulesets: [mtg-2004, mtg-2011]\nrules: [\"CR 401.4\"]\n"
                     "players: [alice, bob]\n"
                     "cards:\n  a: {owner: alice, zone: graveyard}\n  b: {owner: alice, zone: graveyard}\n"
                     "steps:\n  - move: {card: a, to: ante, player: bob}\n"
                     "  - move_together: {player: bob, order_by: bob, order: {alice.library: [b, a]},"
                     " moves: [{card: a, to: library}, {card: b, to: library}]}\n";
  fixture f = start("mtg-2004", text);
  uint64_t id = f.g->objs[0].id;
  int gy = f.g->objs[0].zone;
  zo_step_error e;
  int before = hits_of(&f, "CR 217.9d");
  assert_int_equal(step(&f, 0, &e), ZO_OUTCOME_REJECTED);
  assert_int_equal(e, ZO_E_WRONG_PLAYER);
  assert_true(f.g->objs[0].id == id && f.g->objs[0].zone == gy);
  assert_int_equal(hits_of(&f, "CR 217.9d"), before + 1);
  assert_int_equal(step(&f, 1, &e), ZO_OUTCOME_MOVED); /* bob arranges: 217.2.Ruling.1 */
  int lib = f.g->objs[0].zone;
  assert_int_equal(f.g->zones[lib].objs[0], 1);
  assert_int_equal(f.g->zones[lib].objs[1], 0);
  stop(&f);
  f = start("mtg-2011", text);
  assert_int_equal(step(&f, 1, &e), ZO_OUTCOME_REJECTED); /* alice arranges: 401.4 */
  assert_int_equal(e, ZO_E_WRONG_PLAYER);
  assert_int_equal(f.g->objs[0].zone, gy);
  stop(&f);
}

/* A look shows a face-down exiled card to one player until it is exiled
 * again (a new object, CR 400.8); mtg-1999 refuses it (Z.8.4). A reveal
 * makes a library card public to all, and drawing it ends that (400.7). */
static void test_look_and_reveal(void **state) {
  (void)state;
  fixture f = start("mtg-2011", "id: t/x\ntitle: t\nrulesets: [mtg-2011]\nrules: [\"CR 406.3\"]\n"
                    "players: [alice, bob]\n"
                    "cards:\n  x: {owner: alice, zone: exile, face: down}\n  top: {owner: bob, zone: library}\n"
                    "steps:\n  - look: {card: x, player: bob}\n  - move: {card: x, to: exile, face: down}\n"
                    "  - reveal: {card: top}\n  - draw: {player: bob}\n");
  assert_false(zo_game_sees(f.g, 1, 0));
  assert_int_equal(step(&f, 0, NULL), ZO_OUTCOME_NO_MOVE);
  assert_true(zo_game_sees(f.g, 1, 0));
  assert_false(zo_game_sees(f.g, 0, 0));
  assert_false(zo_game_obj_public(f.g, 0));
  assert_int_equal(step(&f, 1, NULL), ZO_OUTCOME_NEW_OBJECT_IN_PLACE);
  assert_false(zo_game_sees(f.g, 1, 0));
  assert_int_equal(step(&f, 2, NULL), ZO_OUTCOME_NO_MOVE); /* deck-hidden lets it be seen */
  assert_true(zo_game_obj_public(f.g, 1) && zo_game_sees(f.g, 0, 1));
  assert_int_equal(step(&f, 3, NULL), ZO_OUTCOME_MOVED);
  assert_false(zo_game_obj_public(f.g, 1));
  assert_false(zo_game_sees(f.g, 0, 1));
  stop(&f);
  f = start("mtg-1999", "id: t/x\ntitle: t\nrulesets: [mtg-1999]\nrules: [\"Z.8.4\"]\n"
            "players: [alice, bob]\n"
            "cards:\n  x: {owner: alice, zone: removed, face: down}\n"
            "steps:\n  - look: {card: x, player: bob}\n");
  zo_step_error e;
  assert_int_equal(step(&f, 0, &e), ZO_OUTCOME_REJECTED);
  assert_int_equal(e, ZO_E_UNSUPPORTED);
  assert_false(zo_game_sees(f.g, 1, 0));
  stop(&f);
}

/* attach to_player (feature attach_player, CR 303.4b, 701.3b): an Aura
 * attached to a player, the same player again doing nothing, an Equipment
 * refused; the printer writes the step back as the case language says it
 * (gen/print.c), and the text it writes loads as the same step. */
static void test_attach_player(void **state) {
  (void)state;
  fixture f = start("mtg-current", "id: t/x\ntitle: t\nrulesets: [mtg-current]\nrules: [\"CR 303.4b\"]\n"
                    "players: [alice, bob]\n"
                    "cards:\n  curse: {owner: alice, zone: battlefield, types: [enchantment], subtypes: [aura]}\n"
                    "  sword: {owner: alice, zone: battlefield, types: [artifact], subtypes: [equipment]}\n"
                    "  hex: {owner: bob, zone: graveyard, types: [enchantment], subtypes: [aura]}\n"
                    "steps:\n  - attach: {card: curse, to_player: bob}\n  - attach: {card: curse, to_player: bob}\n"
                    "  - attach: {card: sword, to_player: bob}\n"
                    "  - move: {card: hex, to: battlefield, attached_to_player: alice}\n");
  const int curse = 0, sword = 1, hex = 2, bob = 1;
  zo_step_error e;
  assert_int_equal(step(&f, 0, NULL), ZO_OUTCOME_NO_MOVE);
  assert_int_equal(zo_attached_player(f.g, curse), bob);
  assert_int_equal(zo_attached_to(f.g, curse), -1);
  assert_int_equal(hits_of(&f, "CR 303.4b"), 1);
  uint64_t id = f.g->objs[curse].id;
  assert_int_equal(step(&f, 1, NULL), ZO_OUTCOME_NO_MOVE); /* 701.3b: nothing happens */
  assert_true(f.g->objs[curse].id == id);
  assert_int_equal(step(&f, 2, &e), ZO_OUTCOME_FAILED);
  assert_int_equal(e, ZO_E_CANNOT_HOLD);
  assert_int_equal(zo_attached_player(f.g, sword), -1);
  assert_int_equal(step(&f, 3, NULL), ZO_OUTCOME_MOVED); /* CR 303.4f */
  assert_int_equal(zo_attached_player(f.g, hex), 0);
  /* printed, then read back */
  zo_fuzz fz;
  memset(&fz, 0, sizeof fz);
  fz.c = f.c;
  fz.rs = zo_ruleset_find("mtg-current");
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  assert_non_null(out);
  zo_fuzz_print_step(&fz, &f.c->steps[0], out);
  fputs("\n  - ", out);
  zo_fuzz_print_step(&fz, &f.c->steps[3], out);
  fclose(out);
  assert_string_equal(text, "attach: {card: curse, to_player: bob}\n"
                            "  - move: {card: hex, to: battlefield, attached_to_player: alice}");
  char again[512];
  snprintf(again, sizeof again, "id: t/y\ntitle: t\nrulesets: [mtg-current]\nrules: [\"CR 303.4b\"]\n"
           "players: [alice, bob]\ncards:\n  curse: {owner: alice, zone: battlefield, types: [enchantment], "
           "subtypes: [aura]}\n  hex: {owner: bob, zone: graveyard, types: [enchantment], subtypes: [aura]}\n"
           "steps:\n  - %s\n", text);
  free(text);
  zo_case *c2 = NULL;
  zo_error err;
  memset(&err, 0, sizeof err);
  if (zo_case_load_mem("t2.yaml", again, strlen(again), &c2, &err))
    fail_msg("reload: %d:%d: %s", err.line, err.column, err.message);
  assert_int_equal(c2->steps[0].kind, ST_ATTACH);
  assert_int_equal(c2->steps[0].player, bob);
  assert_int_equal(c2->steps[0].attach_to, -1);
  assert_int_equal(c2->steps[1].kind, ST_MOVE);
  assert_int_equal(c2->steps[1].attach_player, 0);
  assert_int_equal(c2->steps[1].attach_to, -1);
  zo_case_free(c2);
  stop(&f);
}

/* Attachments (attached.c): an attach step records both identities; in
 * mtg-2004 what is attached goes into the phased-out zone with its
 * permanent and back (502.15i, one hit per attachment each way); a zone
 * change of the permanent ends the attachment without touching the
 * attached object, and the state check then puts the Aura into its owner's
 * graveyard (420.5d) and leaves the Equipment, unattached (420.5k).
 * FaB rejects the step. */
static void test_attachments(void **state) {
  (void)state;
  fixture f = start("mtg-2004", "id: t/x\ntitle: t\nrulesets: [mtg-2004]\nrules: [\"CR 420.5d\"]\n"
                    "players: [alice, bob]\n"
                    "cards:\n  bear: {owner: alice, zone: in_play, types: [creature]}\n"
                    "  aura: {owner: bob, zone: in_play, types: [enchantment], subtypes: [aura]}\n"
                    "  sword: {owner: alice, zone: in_play, types: [artifact], subtypes: [equipment]}\n"
                    "steps:\n  - attach: {card: aura, to: bear}\n  - attach: {card: sword, to: bear}\n"
                    "  - phase: {card: bear, out: true}\n  - phase: {card: bear, out: false}\n"
                    "  - move: {card: bear, to: graveyard}\n  - state_check: {}\n"
                    "  - attach: {card: aura, to: aura}\n");
  const int bear = 0, aura = 1, sword = 2;
  assert_int_equal(zo_attached_to(f.g, aura), -1);
  assert_int_equal(step(&f, 0, NULL), ZO_OUTCOME_NO_MOVE);
  assert_int_equal(step(&f, 1, NULL), ZO_OUTCOME_NO_MOVE);
  assert_int_equal(zo_attached_to(f.g, aura), bear);
  assert_int_equal(zo_attached_to(f.g, bear), -1);
  int in_play = f.g->objs[bear].zone;
  uint64_t aura_id = f.g->objs[aura].id;
  assert_int_equal(step(&f, 2, NULL), ZO_OUTCOME_MOVED);
  assert_int_equal(f.g->objs[aura].zone, f.g->objs[bear].zone); /* the phased-out zone */
  assert_int_equal(f.g->objs[aura].phased_with, bear);
  assert_int_equal(zo_attached_to(f.g, sword), bear);
  assert_int_equal(hits_of(&f, "CR 502.15i"), 2);
  assert_int_equal(step(&f, 3, NULL), ZO_OUTCOME_MOVED);
  assert_int_equal(f.g->objs[aura].zone, in_play);
  assert_int_equal(f.g->objs[aura].phased_with, -1);
  assert_true(f.g->objs[aura].id == aura_id); /* the same object throughout */
  assert_int_equal(hits_of(&f, "CR 502.15i"), 4);
  assert_int_equal(step(&f, 4, NULL), ZO_OUTCOME_MOVED);
  assert_int_equal(f.g->objs[aura].attached, bear); /* ended by identity alone */
  assert_int_equal(zo_attached_to(f.g, aura), -1);
  assert_int_equal(zo_attached_to(f.g, sword), -1);
  assert_int_equal(hits_of(&f, "CR 420.5d"), 0);
  assert_int_equal(hits_of(&f, "CR 420.5k"), 0);
  assert_int_equal(step(&f, 5, NULL), ZO_OUTCOME_MOVED);
  assert_int_equal(hits_of(&f, "CR 420.5d"), 1);
  assert_int_equal(hits_of(&f, "CR 420.5k"), 1);
  assert_true(f.g->objs[aura].id != aura_id);
  assert_int_equal(f.g->objs[sword].zone, in_play);
  assert_int_equal(f.g->objs[sword].attached, -1);
  char z[64];
  zone_of(&f, aura, z, sizeof z);
  assert_string_equal(z, "bob.graveyard");
  zo_step_error e;
  assert_int_equal(step(&f, 6, &e), ZO_OUTCOME_FAILED);
  assert_int_equal(e, ZO_E_CANNOT_HOLD); /* itself, wherever it is */
  stop(&f);
  f = start("fab", "id: t/x\ntitle: t\nrulesets: [fab]\nrules: [\"FaB 3.0.9\"]\nplayers: [alice, bob]\n"
            "cards:\n  a: {owner: alice, zone: permanent, types: [action], subtypes: [aura]}\n"
            "  b: {owner: alice, zone: permanent, types: [action], subtypes: [ally]}\n"
            "steps:\n  - attach: {card: a, to: b}\n");
  assert_int_equal(step(&f, 0, &e), ZO_OUTCOME_REJECTED);
  assert_int_equal(e, ZO_E_UNSUPPORTED);
  stop(&f);
}

/* G4 (issue 12): durations. A control effect until end of turn is tied to
 * the object's identity (CR 400.7) and returns it at end_turn to the
 * controller before the first such effect (CR 514.2), also while phased
 * out (702.26f; in the zone eras the controller it will phase in under,
 * 502.15h); phasing out ends limited-duration marks only where the rule set
 * says so (502.15g), and counts a hit on that switch's rules. */
static void test_durations_control_and_phasing(void **state) {
  (void)state;
  fixture f = start("mtg-current", HEAD("mtg-current")
                    "cards:\n  x: {owner: bob, zone: battlefield}\n"
                    "steps:\n  - control: {card: x, player: alice, until: end_of_turn}\n"
                    "  - control: {card: x, player: bob, until: end_of_turn}\n"
                    "  - mark: {card: x, as: pump, kind: effect, until: end_of_turn}\n"
                    "  - mark: {card: x, as: forever, kind: effect}\n"
                    "  - phase: {card: x}\n"
                    "  - end_turn: {}\n");
  for (int i = 0; i < 2; i++) assert_int_equal(step(&f, i, NULL), ZO_OUTCOME_NO_MOVE);
  assert_int_equal(f.g->objs[0].ctrl_base, 1); /* bob's before the first effect */
  f.g->objs[0].controller = 0;                 /* whoever: end_turn restores the base */
  for (int i = 2; i < 5; i++) step(&f, i, NULL);
  assert_true(f.g->marks[0].alive);             /* 702.26d: phasing ends nothing */
  assert_int_equal(hits_of(&f, "CR 702.26f"), 1);
  assert_int_equal(step(&f, 5, NULL), ZO_OUTCOME_NO_MOVE);
  assert_int_equal(f.g->objs[0].controller, 1);
  assert_true(f.g->objs[0].phased_out);
  assert_false(f.g->marks[0].alive); /* until end of turn: ended */
  assert_true(f.g->marks[1].alive);  /* no duration: the game (611.2a) */
  assert_false(f.g->objs[0].ctrl_until);
  stop(&f);
  f = start("mtg-2004", "id: t/x\ntitle: t\nrulesets: [mtg-2004]\nrules: [\"CR 502.15g\"]\n"
            "players: [alice, bob]\n"
            "cards:\n  x: {owner: bob, zone: in_play}\n"
            "steps:\n  - control: {card: x, player: alice, until: end_of_turn}\n"
            "  - mark: {card: x, as: pump, kind: effect, until: end_of_turn}\n"
            "  - mark: {card: x, as: forever, kind: effect}\n"
            "  - phase: {card: x}\n  - end_turn: {}\n  - phase: {card: x, out: false}\n");
  for (int i = 0; i < 3; i++) step(&f, i, NULL);
  assert_int_equal(step(&f, 3, NULL), ZO_OUTCOME_MOVED);
  assert_false(f.g->marks[0].alive); /* 502.15g: a limited duration is lost */
  assert_true(f.g->marks[1].alive);  /* an unlimited one is kept */
  assert_int_equal(f.g->objs[0].phase_controller, 0);
  step(&f, 4, NULL);
  assert_int_equal(f.g->objs[0].phase_controller, 1); /* 502.15h: expired while out */
  assert_int_equal(step(&f, 5, NULL), ZO_OUTCOME_MOVED);
  assert_int_equal(f.g->objs[0].controller, 1);
  stop(&f);
}

/* G8 (issue 12): a watch with a cause fires only on a move with that cause
 * (a replacement's own cause word wins over the move's), and never on a
 * move a replacement turned into no move (regeneration, 701.19b). */
static void test_watch_cause(void **state) {
  (void)state;
  fixture f = start("mtg-current", HEAD("mtg-current")
                    "cards:\n  x: {owner: alice, zone: battlefield}\n  y: {owner: alice, zone: battlefield}\n"
                    "steps:\n  - watch: {as: dx, card: x, to: graveyard, cause: destroy}\n"
                    "  - watch: {as: dy, card: y, to: graveyard, cause: destroy}\n"
                    "  - watch: {as: ey, card: y, to: exile, cause: exile}\n"
                    "  - replace: {as: r, card: y, when: {cause: destroy}, instead: {to: exile, cause: exile}}\n"
                    "  - move: {card: x, to: graveyard, cause: sacrifice}\n"
                    "  - move: {card: y, to: graveyard, cause: destroy}\n");
  for (int i = 0; i < 4; i++) step(&f, i, NULL);
  assert_string_equal(f.g->trig[0].cause, "destroy");
  assert_int_equal(step(&f, 4, NULL), ZO_OUTCOME_MOVED);
  assert_false(f.g->trig[0].fired); /* 701.21a: a sacrifice is no destroy */
  assert_int_equal(step(&f, 5, NULL), ZO_OUTCOME_REPLACED);
  assert_false(f.g->trig[1].fired); /* it never reached the graveyard */
  assert_true(f.g->trig[2].fired);  /* the event, as replaced, is an exile */
  stop(&f);
}

/* "Can't" effects (CR 614.17): every move of one object obeys them (a
 * member of move_together, a draw), a forbidden move fires no trigger and
 * runs no then:, an ordinary replacement that turns a move into one that
 * can't happen makes it fail, older Magic rule sets accept the step, and
 * Flesh and Blood rejects it. */
static void test_cant(void **state) {
  (void)state;
  zo_step_error e;
  fixture f = start("mtg-2011", HEAD("mtg-2011")
                    "cards:\n  a: {owner: alice, zone: graveyard, types: [creature]}\n"
                    "  b: {owner: alice, zone: graveyard, types: [land]}\n"
                    "  top: {owner: bob, zone: library}\n"
                    "  c: {owner: alice, zone: hand, types: [creature]}\n"
                    "steps:\n  - cant: {card: any, when: {to: battlefield}, types: [creature]}\n"
                    "  - watch: {as: w, card: a, from: graveyard}\n"
                    "  - move_together: {moves: [{card: a, to: battlefield}, {card: b, to: battlefield}]}\n"
                    "  - move: {card: a, to: battlefield, then: {move: {to: exile}}}\n"
                    "  - cant: {card: top, when: {from: library, to: hand}}\n"
                    "  - draw: {player: bob}\n"
                    "  - replace: {as: r, card: c, when: {to: graveyard}, instead: {to: battlefield}}\n"
                    "  - move: {card: c, to: graveyard, cause: discard}\n");
  assert_int_equal(step(&f, 0, NULL), ZO_OUTCOME_NO_MOVE);
  step(&f, 1, NULL);
  assert_int_equal(step(&f, 2, NULL), ZO_OUTCOME_MOVED); /* b moved, a did not */
  char z[64];
  zone_of(&f, 0, z, sizeof z);
  assert_string_equal(z, "alice.graveyard");
  zone_of(&f, 1, z, sizeof z);
  assert_string_equal(z, "battlefield");
  assert_false(f.g->trig[0].fired);
  assert_int_equal(step(&f, 3, &e), ZO_OUTCOME_FAILED);
  assert_int_equal(e, ZO_E_FORBIDDEN);
  zone_of(&f, 0, z, sizeof z);
  assert_string_equal(z, "alice.graveyard"); /* no then: either */
  step(&f, 4, NULL);
  step(&f, 5, NULL);
  zone_of(&f, 2, z, sizeof z);
  assert_string_equal(z, "bob.library");
  step(&f, 6, NULL);
  assert_int_equal(step(&f, 7, &e), ZO_OUTCOME_FAILED); /* replaced into a forbidden move */
  assert_int_equal(e, ZO_E_FORBIDDEN);
  zone_of(&f, 3, z, sizeof z);
  assert_string_equal(z, "alice.hand");
  stop(&f);
  f = start("fab", "id: t/x\ntitle: t\nrulesets: [fab]\nrules: [\"FaB 3.0.7\"]\nplayers: [alice, bob]\n"
                   "cards:\n  x: {owner: alice, zone: graveyard, types: [action]}\n"
                   "steps:\n  - cant: {card: any}\n  - move: {card: x, to: banished}\n");
  assert_int_equal(step(&f, 0, &e), ZO_OUTCOME_REJECTED);
  assert_int_equal(e, ZO_E_UNSUPPORTED);
  assert_int_equal(step(&f, 1, NULL), ZO_OUTCOME_MOVED);
  stop(&f);
}

/* Draw replacements (CR 614.11): the first in the chosen order applies,
 * a once effect ends as it applies, its own draws are not replaced by it
 * again (614.5) but may be by another, and fab rejects the step. */
static void test_replace_draw(void **state) {
  (void)state;
  zo_step_error e;
  fixture f = start("mtg-2011", HEAD("mtg-2011")
                    "cards:\n  a: {owner: alice, zone: library}\n  b: {owner: alice, zone: library}\n"
                    "  c: {owner: alice, zone: library}\n  g: {owner: alice, zone: graveyard}\n"
                    "steps:\n  - replace_draw: {as: twice, player: alice, once: true, instead: [{draw: {player: alice, count: 2}}]}\n"
                    "  - replace_draw: {as: back, player: alice, once: true, instead: [{move: {card: g, to: hand}}]}\n"
                    "  - choose_replacement: {order: [back, twice]}\n"
                    "  - draw: {player: alice}\n"
                    "  - draw: {player: alice}\n"
                    "  - draw: {player: bob}\n");
  for (int i = 0; i < 3; i++) step(&f, i, NULL);
  char z[64];
  assert_int_equal(step(&f, 3, NULL), ZO_OUTCOME_REPLACED); /* back, chosen first */
  zone_of(&f, 3, z, sizeof z);
  assert_string_equal(z, "alice.hand");
  assert_int_equal(f.g->zones[zo_zone_of_role(f.g, ZR_LIBRARY, 0)].n, 3);
  /* twice: its own two draws are not replaced by it (614.5), and it is used up */
  assert_int_equal(step(&f, 4, NULL), ZO_OUTCOME_REPLACED);
  assert_int_equal(f.g->zones[zo_zone_of_role(f.g, ZR_LIBRARY, 0)].n, 1);
  assert_int_equal(f.g->nactive_repl, 0);
  assert_int_equal(step(&f, 5, NULL), ZO_OUTCOME_NO_MOVE); /* bob's library is empty */
  assert_true(f.g->drew_empty[1]);
  assert_false(f.g->drew_empty[0]);
  stop(&f);
  f = start("fab", "id: t/x\ntitle: t\nrulesets: [fab]\nrules: [\"FaB 3.0.7\"]\nplayers: [alice, bob]\n"
                   "cards: {}\nsteps:\n  - replace_draw: {as: r, player: alice, instead: []}\n"
                   "  - draw: {player: alice}\n");
  assert_int_equal(step(&f, 0, &e), ZO_OUTCOME_REJECTED);
  assert_int_equal(e, ZO_E_UNSUPPORTED);
  assert_int_equal(step(&f, 1, &e), ZO_OUTCOME_FAILED); /* FaB 8.5.6, not replaced */
  assert_int_equal(e, ZO_E_EMPTY);
  stop(&f);
}

/* The untap step and a player leaving (CR 702.26a, 800.4a): where phasing
 * is a zone (mtg-2004) the untap step moves permanents both ways; a
 * departed player's own steps are rejected; a token they own ceases and a
 * spell copy they control on the stack ceases; fab rejects both steps. */
static void test_untap_and_leaving(void **state) {
  (void)state;
  zo_step_error e;
  char z[64];
  fixture f = start("mtg-2004", "id: t/x\ntitle: t\nrulesets: [mtg-2004]\nrules: [\"CR 217.8a\"]\n"
                    "players: [alice, bob]\n"
                    "cards:\n  s: {owner: alice, zone: in_play, types: [creature]}\n"
                    "  w: {owner: alice, zone: in_play, types: [creature]}\n"
                    "steps:\n  - phase: {card: w}\n"
                    "  - untap: {player: alice, phasing: [s]}\n");
  step(&f, 0, NULL);
  assert_int_equal(step(&f, 1, NULL), ZO_OUTCOME_MOVED);
  zone_of(&f, 0, z, sizeof z);
  assert_string_equal(z, "phased_out"); /* 2004: one shared zone */
  zone_of(&f, 1, z, sizeof z);
  assert_string_equal(z, "in_play");
  stop(&f);
  f = start("mtg-current", "id: t/x\ntitle: t\nrulesets: [mtg-current]\nrules: [\"CR 800.4a\"]\n"
                           "players: [alice, bob, carol]\n"
                           "cards:\n  c: {owner: alice, zone: stack, kind: copy, controller: carol}\n"
                           "  l: {owner: carol, zone: library}\n"
                           "steps:\n  - create: {as: t, owner: carol, zone: battlefield}\n"
                           "  - leave_game: {player: carol}\n  - draw: {player: carol}\n"
                           "  - untap: {player: carol}\n  - create: {as: u, owner: alice, controller: carol, zone: battlefield}\n");
  step(&f, 0, NULL);
  assert_int_equal(step(&f, 1, NULL), ZO_OUTCOME_NO_MOVE);
  assert_false(f.g->objs[0].exists); /* a copy on the stack that carol controlled */
  assert_false(f.g->objs[1].exists); /* her card left the game */
  assert_false(f.g->objs[2].exists); /* her token */
  for (int i = 2; i < 5; i++) {
    assert_int_equal(step(&f, i, &e), ZO_OUTCOME_REJECTED); /* 800.4b, 800.4d, 800.4k */
    assert_int_equal(e, ZO_E_WRONG_PLAYER);
  }
  assert_false(f.g->objs[3].exists);
  stop(&f);
  f = start("fab", "id: t/x\ntitle: t\nrulesets: [fab]\nrules: [\"FaB 3.0.7\"]\nplayers: [alice, bob, carol]\n"
                   "cards: {}\nsteps:\n  - untap: {player: alice}\n  - leave_game: {player: carol}\n");
  for (int i = 0; i < 2; i++) {
    assert_int_equal(step(&f, i, &e), ZO_OUTCOME_REJECTED);
    assert_int_equal(e, ZO_E_UNSUPPORTED);
  }
  stop(&f);
}

/* As-enters effects (CR 614.13): they run on every entering by a move,
 * not on a create; what they moved can't be chosen again in the event,
 * and is again in the next; fab rejects the step. */
static void test_as_enters(void **state) {
  (void)state;
  zo_step_error e;
  char z[64];
  fixture f = start("mtg-current", HEAD("mtg-current")
                    "cards:\n  g: {owner: alice, zone: hand, types: [creature]}\n"
                    "  x: {owner: alice, zone: graveyard}\n"
                    "steps:\n  - as_enters: {card: g, steps: [{move: {card: x, to: exile}}, {move: {card: x, to: hand}}]}\n"
                    "  - move: {card: g, to: battlefield}\n  - move: {card: g, to: hand}\n"
                    "  - move: {card: g, to: battlefield}\n");
  step(&f, 0, NULL);
  assert_int_equal(step(&f, 1, NULL), ZO_OUTCOME_MOVED);
  zone_of(&f, 1, z, sizeof z);
  assert_string_equal(z, "exile"); /* 614.13b: not taken on to the hand */
  step(&f, 2, NULL);
  assert_int_equal(step(&f, 3, NULL), ZO_OUTCOME_MOVED); /* a new event: chosen anew */
  zone_of(&f, 1, z, sizeof z);
  assert_string_equal(z, "alice.hand");
  stop(&f);
  f = start("fab", "id: t/x\ntitle: t\nrulesets: [fab]\nrules: [\"FaB 3.0.7\"]\nplayers: [alice, bob]\n"
                   "cards:\n  x: {owner: alice, zone: graveyard, types: [action]}\n"
                   "steps:\n  - as_enters: {card: x, steps: [{move: {card: x, to: banished}}]}\n");
  assert_int_equal(step(&f, 0, &e), ZO_OUTCOME_REJECTED);
  assert_int_equal(e, ZO_E_UNSUPPORTED);
  stop(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_mtg_move_is_a_new_object),
      cmocka_unit_test(test_fab_identity_kept_inside_arena),
      cmocka_unit_test(test_owner_redirect_and_fab_refusal),
      cmocka_unit_test(test_two_handed_weapon_and_quiver),
      cmocka_unit_test(test_shuffle_is_repeatable),
      cmocka_unit_test(test_check_catches_broken_states),
      cmocka_unit_test(test_ruleset_file_extends_and_errors),
      cmocka_unit_test(test_cite_keeps_the_rule_sets_own_rules),
      cmocka_unit_test(test_embedded_rulesets_cite_only_listed_rules),
      cmocka_unit_test(test_watch_and_replace_honour_the_player),
      cmocka_unit_test(test_final_expect_without_steps_is_compared),
      cmocka_unit_test(test_move_together_orders_only_arrivals),
      cmocka_unit_test(test_resolving_copy_becomes_token),
      cmocka_unit_test(test_stack_arrivals_apnap),
      cmocka_unit_test(test_effect_reorders_library),
      cmocka_unit_test(test_self_replacement_goes_first),
      cmocka_unit_test(test_performing_player),
      cmocka_unit_test(test_look_and_reveal),
      cmocka_unit_test(test_attachments),
      cmocka_unit_test(test_attach_player),
      cmocka_unit_test(test_durations_control_and_phasing),
      cmocka_unit_test(test_watch_cause),
      cmocka_unit_test(test_cant),
      cmocka_unit_test(test_replace_draw),
      cmocka_unit_test(test_untap_and_leaving),
      cmocka_unit_test(test_as_enters),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
