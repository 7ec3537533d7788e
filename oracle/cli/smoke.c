/* smoke.c: `zoneoracle smoke --engine CMD | --engine-plugin PATH`, an
 * adapter checked in seconds (ci/protocol/PROTOCOL.md): the handshake (protocol, name,
 * version, rule sets, features), one small built-in case for each feature
 * the engine declares (and one needing none), its answers to malformed
 * requests (a line that is not JSON, an unknown op, a request without id,
 * one without a required field: each must get an error answer, and the
 * engine must go on), and bye (answered, then the process exits).
 *
 * One line per check, `ok` or `FAIL`, with its time, then the count. The
 * cases are built in, so smoke needs no files and runs from anywhere; each
 * runs under the first of its rule sets the engine declares. The time
 * limit per request is the gate's (--timeout), so a hanging engine fails
 * its checks instead of hanging smoke.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "obs_diff.h"
#include "runner.h"
#include "util.h"
#include "cli.h"

/* The built-in cases: `check` is "core" (needs no feature) or the one
 * feature the case needs. Several cases for a check differ in rule sets;
 * the first one the engine can run is used. Each passes on the oracle
 * (`zoneoracle smoke --engine 'zoneoracle serve'` is a test). */
typedef struct {
  const char *check;
  const char *yaml;
} builtin;

static const builtin builtins[] = {
    {"core",
     "id: smoke/core\n"
     "title: \"smoke: a destroyed creature goes to its owner's graveyard as a new object\"\n"
     "rulesets: [mtg-current, mtg-2011]\n"
     "rules: [\"CR 400.7\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  bear: {owner: alice, zone: battlefield, types: [creature]}\n"
     "steps:\n"
     "  - move: {card: bear, to: graveyard, cause: destroy}\n"
     "    expect:\n"
     "      outcome: moved\n"
     "      bear: {zone: alice.graveyard, new_object: true}\n"},
    {"core",
     "id: smoke/core-in-play\n"
     "title: \"smoke: a destroyed creature goes from play to its owner's graveyard\"\n"
     "rulesets: [mtg-2008, mtg-2004, mtg-1999]\n"
     "rules: [\"CR 217.1\", \"Z.1.1\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  bear: {owner: alice, zone: in_play, types: [creature]}\n"
     "steps:\n"
     "  - move: {card: bear, to: graveyard, cause: destroy}\n"
     "    expect:\n"
     "      outcome: moved\n"
     "      bear: {zone: alice.graveyard}\n"},
    {"core",
     "id: smoke/core-fab\n"
     "title: \"smoke: a discarded card goes from hand to its owner's graveyard\"\n"
     "rulesets: [fab]\n"
     "rules: [\"FaB 3.0.9\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  card: {owner: alice, zone: hand, types: [action]}\n"
     "steps:\n"
     "  - move: {card: card, to: graveyard, cause: discard}\n"
     "    expect:\n"
     "      outcome: moved\n"
     "      card: {zone: alice.graveyard, new_object: true}\n"},
    {"triggers",
     "id: smoke/triggers\n"
     "title: \"smoke: a zone-change trigger fires and finds the object in the graveyard\"\n"
     "rulesets: [mtg-current, mtg-2011]\n"
     "rules: [\"CR 603.6\", \"CR 400.7\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  aura: {owner: alice, zone: battlefield, types: [enchantment], subtypes: [aura]}\n"
     "steps:\n"
     "  - watch: {as: t, card: aura, from: battlefield, to: graveyard}\n"
     "  - move: {card: aura, to: graveyard, cause: destroy}\n"
     "    expect:\n"
     "      outcome: moved\n"
     "      triggers: {t: {fired: true}}\n"
     "  - resolve: {trigger: t, do: {move: {to: hand}}}\n"
     "    expect:\n"
     "      outcome: moved\n"
     "      aura: {zone: alice.hand}\n"},
    {"triggers",
     "id: smoke/triggers-fab\n"
     "title: \"smoke: a zone-change trigger fires when a public card goes to the graveyard\"\n"
     "rulesets: [fab]\n"
     "rules: [\"FaB 3.0.8\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  card: {owner: alice, zone: hand, types: [action]}\n"
     "steps:\n"
     "  - watch: {as: t, card: card, from: hand, to: graveyard}\n"
     "  - move: {card: card, to: graveyard, cause: discard}\n"
     "    expect:\n"
     "      outcome: moved\n"
     "      triggers: {t: {fired: true}}\n"},
    {"replacement",
     "id: smoke/replacement\n"
     "title: \"smoke: a replacement effect sends a creature to exile instead of the graveyard\"\n"
     "rulesets: [mtg-current, mtg-2011]\n"
     "rules: [\"CR 614.6\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  bear: {owner: alice, zone: battlefield, types: [creature]}\n"
     "steps:\n"
     "  - replace: {as: r, card: bear, when: {to: graveyard}, instead: {to: exile}}\n"
     "  - move: {card: bear, to: graveyard, cause: destroy}\n"
     "    expect:\n"
     "      outcome: replaced\n"
     "      bear: {zone: exile, new_object: true}\n"},
    {"replacement",
     "id: smoke/replacement-fab\n"
     "title: \"smoke: a replacement effect banishes a card instead of putting it into the graveyard\"\n"
     "rulesets: [fab]\n"
     "rules: [\"FaB 3.0.8\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  card: {owner: alice, zone: hand, types: [action]}\n"
     "steps:\n"
     "  - replace: {as: r, card: card, when: {to: graveyard}, instead: {to: banished}}\n"
     "  - move: {card: card, to: graveyard, cause: discard}\n"
     "    expect:\n"
     "      outcome: replaced\n"
     "      card: {zone: alice.banished}\n"},
    {"phasing",
     "id: smoke/phasing\n"
     "title: \"smoke: a permanent phases out without leaving the battlefield\"\n"
     "rulesets: [mtg-current, mtg-2011]\n"
     "rules: [\"CR 702.26b\", \"CR 702.24d\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  bear: {owner: alice, zone: battlefield, types: [creature]}\n"
     "steps:\n"
     "  - phase: {card: bear, out: true}\n"
     "    expect:\n"
     "      outcome: no_move\n"
     "      bear: {zone: battlefield, new_object: false, phased_out: true}\n"},
    {"face_down",
     "id: smoke/face_down\n"
     "title: \"smoke: a permanent turned face down stays the same object\"\n"
     "rulesets: [mtg-current, mtg-2011]\n"
     "rules: [\"CR 400.9\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  bear: {owner: alice, zone: battlefield, types: [creature]}\n"
     "steps:\n"
     "  - turn_face: {card: bear, face: down}\n"
     "    expect:\n"
     "      outcome: no_move\n"
     "      bear: {zone: battlefield, face: down, new_object: false}\n"},
    {"face_down",
     "id: smoke/face_down-fab\n"
     "title: \"smoke: turning a public card face up fails, it already is\"\n"
     "rulesets: [fab]\n"
     "rules: [\"FaB 3.0.4a\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  card: {owner: alice, zone: graveyard, types: [action]}\n"
     "steps:\n"
     "  - turn_face: {card: card, face: up}\n"
     "    expect:\n"
     "      outcome: failed\n"
     "      error: already\n"
     "      card: {zone: alice.graveyard, new_object: false}\n"},
    {"ante",
     "id: smoke/ante\n"
     "title: \"smoke: the winner of a game for ante becomes the owner of the cards in the ante\"\n"
     "rulesets: [mtg-current, mtg-2011]\n"
     "rules: [\"CR 407.2\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  card: {owner: alice, zone: ante}\n"
     "steps:\n"
     "  - end_game: {winner: bob}\n"
     "    expect:\n"
     "      card: {zone: ante, owner: bob}\n"},
    {"visibility",
     "id: smoke/visibility\n"
     "title: \"smoke: a card in hand is seen by its owner only\"\n"
     "rulesets: [mtg-current, mtg-2011]\n"
     "rules: [\"CR 400.2\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  card: {owner: alice, zone: hand}\n"
     "steps:\n"
     "  - remember: {as: r, card: card}\n"
     "expect:\n"
     "  visible:\n"
     "    alice: {sees: [card]}\n"
     "    bob: {hidden: [card]}\n"},
    {"visibility",
     "id: smoke/visibility-fab\n"
     "title: \"smoke: a card in hand is private: seen by its owner only\"\n"
     "rulesets: [fab]\n"
     "rules: [\"FaB 3.0.3a\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  card: {owner: alice, zone: hand, types: [action]}\n"
     "steps:\n"
     "  - remember: {as: r, card: card}\n"
     "expect:\n"
     "  visible:\n"
     "    alice: {sees: [card]}\n"
     "    bob: {hidden: [card]}\n"},
    {"reorder",
     "id: smoke/reorder\n"
     "title: \"smoke: a player may rearrange their hand; nothing moves\"\n"
     "rulesets: [mtg-current]\n"
     "rules: [\"CR 402.3\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  a: {owner: alice, zone: hand}\n"
     "  b: {owner: alice, zone: hand}\n"
     "steps:\n"
     "  - reorder: {zone: alice.hand, order: [b, a]}\n"
     "    expect:\n"
     "      outcome: no_move\n"
     "      a: {zone: alice.hand, new_object: false}\n"},
    {"reorder",
     "id: smoke/reorder-fab\n"
     "title: \"smoke: a player may rearrange their hand; nothing moves\"\n"
     "rulesets: [fab]\n"
     "rules: [\"FaB 3.9.1\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  a: {owner: alice, zone: hand, types: [action]}\n"
     "  b: {owner: alice, zone: hand, types: [instant]}\n"
     "steps:\n"
     "  - reorder: {zone: alice.hand, order: [b, a]}\n"
     "    expect:\n"
     "      outcome: no_move\n"
     "      a: {zone: alice.hand, new_object: false}\n"},
    {"state_check",
     "id: smoke/state_check\n"
     "title: \"smoke: a token put into the graveyard ceases to exist at the state check\"\n"
     "rulesets: [mtg-current, mtg-2011]\n"
     "rules: [\"CR 704.5d\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  token: {owner: alice, zone: battlefield, kind: token, types: [creature]}\n"
     "steps:\n"
     "  - move: {card: token, to: graveyard, cause: destroy}\n"
     "    expect:\n"
     "      outcome: moved\n"
     "  - state_check: {}\n"
     "    expect:\n"
     "      outcome: ceased\n"
     "      token: {exists: false}\n"},
    {"marks",
     "id: smoke/marks\n"
     "title: \"smoke: a counter stays with its permanent and is gone from the new object in the graveyard\"\n"
     "rulesets: [mtg-current, mtg-2011]\n"
     "rules: [\"CR 400.7\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  bear: {owner: alice, zone: battlefield, types: [creature]}\n"
     "steps:\n"
     "  - mark: {card: bear, as: m, kind: counter}\n"
     "    expect:\n"
     "      bear: {marks: [m]}\n"
     "  - move: {card: bear, to: graveyard, cause: destroy}\n"
     "    expect:\n"
     "      bear: {zone: alice.graveyard, new_object: true, marks: []}\n"},
    {"marks",
     "id: smoke/marks-fab\n"
     "title: \"smoke: an effect mark is gone from the new object in the graveyard\"\n"
     "rulesets: [fab]\n"
     "rules: [\"FaB 3.0.9\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  card: {owner: alice, zone: hand, types: [action]}\n"
     "steps:\n"
     "  - mark: {card: card, as: m, kind: effect}\n"
     "    expect:\n"
     "      card: {marks: [m]}\n"
     "  - move: {card: card, to: graveyard, cause: discard}\n"
     "    expect:\n"
     "      card: {zone: alice.graveyard, new_object: true, marks: []}\n"},
    {"sub_cards",
     "id: smoke/sub_cards\n"
     "title: \"smoke: an aura put under the hero becomes a sub-card, a new object\"\n"
     "rulesets: [fab]\n"
     "rules: [\"FaB 3.0.14b\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  hero: {owner: alice, zone: hero, types: [hero]}\n"
     "  aura: {owner: alice, zone: permanent, types: [action], subtypes: [aura]}\n"
     "steps:\n"
     "  - put_under: {card: aura, under: hero}\n"
     "    expect:\n"
     "      outcome: moved\n"
     "      aura: {under: hero, zone: alice.hero, new_object: true}\n"},
    {"zone_lifecycle",
     "id: smoke/zone_lifecycle\n"
     "title: \"smoke: a second arsenal zone is created, numbered 2\"\n"
     "rulesets: [fab]\n"
     "rules: [\"FaB 3.0.10\"]\n"
     "players: [alice, bob]\n"
     "cards: {}\n"
     "steps:\n"
     "  - zone_create: {zone: alice.arsenal}\n"
     "    expect:\n"
     "      outcome: no_move\n"
     "      counts: {alice.arsenal.1: 0, alice.arsenal.2: 0}\n"},
    {"stack_layers",
     "id: smoke/stack_layers\n"
     "title: \"smoke: two cards on the stack are layers 1 (bottom) and 2\"\n"
     "rulesets: [fab]\n"
     "rules: [\"FaB 3.15.3\"]\n"
     "features: [stack_layers]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  top: {owner: alice, zone: stack, position: 0, types: [instant]}\n"
     "  bottom: {owner: bob, zone: stack, position: 1, types: [instant]}\n"
     "steps:\n"
     "  - remember: {as: r, card: bottom}\n"
     "    expect:\n"
     "      bottom: {layer: 1}\n"
     "      top: {layer: 2}\n"},
    /* issue 12: G3 the performing player, G5 look, G7 reveal */
    {"performer",
     "id: smoke/performer\n"
     "title: \"smoke: only a card's owner may ante it\"\n"
     "rulesets: [mtg-current, mtg-2011]\n"
     "rules: [\"CR 407.4\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  card: {owner: alice, zone: library}\n"
     "steps:\n"
     "  - move: {card: card, to: ante, player: bob}\n"
     "    expect: {outcome: rejected, error: wrong_player}\n"
     "  - move: {card: card, to: ante, player: alice}\n"
     "    expect: {outcome: moved, card: {zone: ante}}\n"},
    {"look",
     "id: smoke/look\n"
     "title: \"smoke: an instruction lets a player look at a face-down exiled card\"\n"
     "rulesets: [mtg-current, mtg-2011]\n"
     "rules: [\"CR 406.3\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  card: {owner: alice, zone: exile, face: down}\n"
     "steps:\n"
     "  - look: {card: card, player: bob}\n"
     "    expect:\n"
     "      outcome: no_move\n"
     "      visible: {bob: {sees: [card]}, alice: {hidden: [card]}}\n"},
    {"reveal",
     "id: smoke/reveal\n"
     "title: \"smoke: a card revealed from a hand is seen by every player\"\n"
     "rulesets: [mtg-current, mtg-2011]\n"
     "rules: [\"CR 402.3\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  card: {owner: alice, zone: hand}\n"
     "steps:\n"
     "  - reveal: {card: card}\n"
     "    expect:\n"
     "      outcome: no_move\n"
     "      card: {visibility: public}\n"
     "      visible: {bob: {sees: [card]}}\n"},
    {"attachments",
     "id: smoke/attachments\n"
     "title: \"smoke: an Aura attached to a creature is attached to nothing once the creature leaves\"\n"
     "rulesets: [mtg-current, mtg-2011]\n"
     "rules: [\"CR 303.4\", \"CR 400.7\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  bear: {owner: alice, zone: battlefield, types: [creature]}\n"
     "  rancor: {owner: alice, zone: battlefield, types: [enchantment], subtypes: [aura]}\n"
     "steps:\n"
     "  - attach: {card: rancor, to: bear}\n"
     "    expect: {outcome: no_move, rancor: {attached_to: bear}}\n"
     "  - move: {card: bear, to: graveyard, cause: destroy}\n"
     "    expect: {outcome: moved, rancor: {zone: battlefield, attached_to: null}}\n"},
    /* G4 (issue 12): durations */
    {"durations",
     "id: smoke/durations\n"
     "title: \"smoke: at end of turn a pump and a control effect until end of turn end\"\n"
     "rulesets: [mtg-current, mtg-2011]\n"
     "rules: [\"CR 514.2\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  bear: {owner: bob, zone: battlefield, types: [creature]}\n"
     "steps:\n"
     "  - mark: {card: bear, as: pump, kind: effect, until: end_of_turn}\n"
     "  - control: {card: bear, player: alice, until: end_of_turn}\n"
     "    expect:\n"
     "      bear: {controller: alice, marks: [pump]}\n"
     "  - end_turn: {}\n"
     "    expect:\n"
     "      outcome: no_move\n"
     "      bear: {controller: bob, marks: []}\n"},
    {"durations",
     "id: smoke/durations-fab\n"
     "title: \"smoke: an effect until end of turn ends at end of turn\"\n"
     "rulesets: [fab]\n"
     "rules: [\"FaB 3.0.9b\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  card: {owner: alice, zone: hand, types: [action]}\n"
     "steps:\n"
     "  - mark: {card: card, as: m, kind: effect, until: end_of_turn}\n"
     "  - end_turn: {}\n"
     "    expect:\n"
     "      card: {marks: []}\n"},
    /* the mark kinds today's 400.7 keeps */
    {"kept_marks",
     "id: smoke/kept-marks\n"
     "title: \"smoke: a sticker stays on a creature that dies, a counter goes\"\n"
     "rulesets: [mtg-current]\n"
     "rules: [\"CR 400.7m\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  bear: {owner: alice, zone: battlefield, types: [creature]}\n"
     "steps:\n"
     "  - mark: {card: bear, as: st, kind: sticker}\n"
     "  - mark: {card: bear, as: ct, kind: counter}\n"
     "  - move: {card: bear, to: graveyard, cause: destroy}\n"
     "    expect: {outcome: moved, bear: {marks: [st]}}\n"},
    {"kept_marks",
     "id: smoke/kept-marks-2011\n"
     "title: \"smoke: in 2011 a sticker goes with the creature that dies\"\n"
     "rulesets: [mtg-2011]\n"
     "rules: [\"CR 400.7\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  bear: {owner: alice, zone: battlefield, types: [creature]}\n"
     "steps:\n"
     "  - mark: {card: bear, as: st, kind: sticker}\n"
     "  - move: {card: bear, to: graveyard, cause: destroy}\n"
     "    expect: {outcome: moved, bear: {marks: []}}\n"},
    /* an Aura's trigger on its permanent leaving finds the Aura */
    {"aura_triggers",
     "id: smoke/aura-triggers\n"
     "title: \"smoke: an Aura's trigger on its creature dying finds the Aura the state check put into the graveyard\"\n"
     "rulesets: [mtg-current]\n"
     "rules: [\"CR 400.7f\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  lion: {owner: bob, zone: battlefield, types: [creature]}\n"
     "  crown: {owner: bob, zone: battlefield, types: [enchantment], subtypes: [aura]}\n"
     "steps:\n"
     "  - attach: {card: crown, to: lion}\n"
     "  - watch: {as: t, card: lion, from: battlefield, aura: crown}\n"
     "  - move: {card: lion, to: graveyard, cause: destroy}\n"
     "  - state_check: {}\n"
     "  - resolve: {trigger: t, do: {move: {to: hand}}}\n"
     "    expect: {outcome: moved, crown: {zone: bob.hand}}\n"},
    {"aura_triggers",
     "id: smoke/aura-triggers-2011\n"
     "title: \"smoke: in 2011 an Aura's trigger on its creature leaving finds no Aura, even one put into the graveyard with it\"\n"
     "rulesets: [mtg-2011]\n"
     "rules: [\"CR 400.7\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  elk: {owner: bob, zone: battlefield, types: [creature]}\n"
     "  shroud: {owner: bob, zone: battlefield, types: [enchantment], subtypes: [aura]}\n"
     "steps:\n"
     "  - attach: {card: shroud, to: elk}\n"
     "  - watch: {as: w, card: elk, from: battlefield, aura: shroud}\n"
     "  - move_together: {moves: [{card: elk, to: graveyard}, {card: shroud, to: graveyard}]}\n"
     "  - resolve: {trigger: w, do: {move: {to: exile}}}\n"
     "    expect: {outcome: not_found, shroud: {zone: bob.graveyard}}\n"},
    /* several permanents phasing out in one event (CR 702.26h) */
    {"phasing_together",
     "id: smoke/phasing_together\n"
     "title: \"smoke: an Aura phasing out in one event with its creature phases in only with it\"\n"
     "rulesets: [mtg-current]\n"
     "rules: [\"CR 702.26h\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  elk: {owner: alice, zone: battlefield, types: [creature]}\n"
     "  shroud: {owner: alice, zone: battlefield, types: [enchantment], subtypes: [aura]}\n"
     "steps:\n"
     "  - attach: {card: shroud, to: elk}\n"
     "  - phase: {card: shroud, with: [elk]}\n"
     "    expect: {shroud: {phased_out: true}, elk: {phased_out: true}}\n"
     "  - phase: {card: shroud, out: false}\n"
     "    expect: {outcome: failed, error: phased_out}\n"},
    /* a discard trigger finds a madness card put into the graveyard */
    {"madness",
     "id: smoke/madness\n"
     "title: \"smoke: a trigger on a discard finds the madness card its trigger put into the graveyard\"\n"
     "rulesets: [mtg-current]\n"
     "rules: [\"CR 400.7k\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  imp: {owner: alice, zone: hand, types: [creature]}\n"
     "steps:\n"
     "  - replace: {as: m, card: imp, when: {from: hand, to: graveyard}, instead: {to: exile}}\n"
     "  - watch: {as: d, card: imp, from: hand, cause: discard}\n"
     "  - move: {card: imp, to: graveyard, cause: discard}\n"
     "  - move: {card: imp, from: exile, to: graveyard, cause: madness}\n"
     "  - resolve: {trigger: d, do: {move: {to: hand}}}\n"
     "    expect: {outcome: moved, imp: {zone: alice.hand}}\n"},
    {"madness",
     "id: smoke/madness-2011\n"
     "title: \"smoke: in 2011 a trigger on a discard finds no madness card moved on from exile\"\n"
     "rulesets: [mtg-2011]\n"
     "rules: [\"CR 400.7\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  imp: {owner: alice, zone: hand, types: [creature]}\n"
     "steps:\n"
     "  - replace: {as: m, card: imp, when: {from: hand, to: graveyard}, instead: {to: exile}}\n"
     "  - watch: {as: d, card: imp, from: hand, cause: discard}\n"
     "  - move: {card: imp, to: graveyard, cause: discard}\n"
     "  - move: {card: imp, from: exile, to: graveyard, cause: madness}\n"
     "  - resolve: {trigger: d, do: {move: {to: hand}}}\n"
     "    expect: {outcome: not_found, imp: {zone: alice.graveyard}}\n"},
    /* a token copy of a gone object; a copy made outside the game */
    {"copies",
     "id: smoke/copies\n"
     "title: \"smoke: no token copy of a creature that died; a copy made outside the game is cast\"\n"
     "rulesets: [mtg-current]\n"
     "rules: [\"CR 111.12\", \"CR 707.13\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  ox: {owner: bob, zone: battlefield, types: [creature]}\n"
     "steps:\n"
     "  - remember: {as: r, card: ox}\n"
     "  - move: {card: ox, to: graveyard, cause: destroy}\n"
     "  - create: {as: t, owner: alice, zone: battlefield, copy_of: r, types: [creature]}\n"
     "    expect: {outcome: not_found, t: {exists: false}}\n"
     "  - create: {as: c, owner: alice, zone: outside, kind: copy, types: [sorcery]}\n"
     "  - state_check: {}\n"
     "    expect: {c: {zone: outside}}\n"
     "  - move: {card: c, from: outside, to: stack, cause: cast}\n"
     "    expect: {outcome: moved, c: {zone: stack, controller: alice}}\n"},
    /* the new top card of a revealed library, hidden while a spell is cast */
    {"casting",
     "id: smoke/casting\n"
     "title: \"smoke: a card on top of a revealed library only while a spell is cast is not revealed\"\n"
     "rulesets: [mtg-current]\n"
     "rules: [\"CR 401.5\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  top: {owner: alice, zone: library}\n"
     "  next: {owner: alice, zone: library}\n"
     "  kept: {owner: alice, zone: hand}\n"
     "steps:\n"
     "  - reveal: {top_of: alice}\n"
     "  - move: {card: top, to: stack, cause: cast, costs: [{move: {card: kept, to: library}}]}\n"
     "  - draw: {player: alice}\n"
     "    expect: {outcome: moved, next: {visibility: public, new_object: false}}\n"},
    /* a "can't" effect: the move fails, and only a self-replacement may
       replace it (CR 614.17, 614.17c) */
    {"cant",
     "id: smoke/cant\n"
     "title: \"smoke: a card that can't enter the battlefield stays, and an ordinary replacement leaves it alone\"\n"
     "rulesets: [mtg-current]\n"
     "rules: [\"CR 614.17\", \"CR 614.17c\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  ghoul: {owner: alice, zone: graveyard, types: [creature]}\n"
     "  cairn: {owner: alice, zone: graveyard, types: [land]}\n"
     "steps:\n"
     "  - replace: {as: r, card: any, when: {to: battlefield}, instead: {to: exile}}\n"
     "  - cant: {card: any, when: {from: graveyard, to: battlefield}, types: [creature]}\n"
     "  - move: {card: ghoul, from: graveyard, to: battlefield}\n"
     "    expect: {outcome: failed, error: forbidden, ghoul: {zone: alice.graveyard}}\n"
     "  - move: {card: cairn, from: graveyard, to: battlefield}\n"
     "    expect: {outcome: replaced, cairn: {zone: exile}}\n"},
    /* a draw replaced although the library is empty (CR 614.11) */
    {"draw_replacement",
     "id: smoke/draw_replacement\n"
     "title: \"smoke: a draw from an empty library replaced by returning a card from the graveyard loses nothing\"\n"
     "rulesets: [mtg-current]\n"
     "rules: [\"CR 614.11\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  troll: {owner: alice, zone: graveyard, types: [creature]}\n"
     "steps:\n"
     "  - replace_draw: {as: d, player: alice, once: true, instead: [{move: {card: troll, to: hand}}]}\n"
     "  - draw: {player: alice}\n"
     "    expect: {outcome: replaced, troll: {zone: alice.hand}}\n"
     "  - state_check: {}\n"
     "    expect: {players: {alice: {lost: false}}}\n"},
    /* the untap step's phasing (CR 702.26a) */
    {"untap_phasing",
     "id: smoke/untap_phasing\n"
     "title: \"smoke: in alice's untap step her permanent with phasing phases out and the one phased out under her phases in\"\n"
     "rulesets: [mtg-current]\n"
     "rules: [\"CR 702.26a\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  sliver: {owner: alice, zone: battlefield, types: [creature]}\n"
     "  wall: {owner: alice, zone: battlefield, types: [creature]}\n"
     "steps:\n"
     "  - phase: {card: wall}\n"
     "  - untap: {player: alice, phasing: [sliver]}\n"
     "    expect: {sliver: {phased_out: true}, wall: {phased_out: false}}\n"},
    /* a player leaving the game (CR 800.4a, 702.26k) */
    {"leave_game",
     "id: smoke/leave_game\n"
     "title: \"smoke: carol leaves: what she owns leaves with her, what she put onto the battlefield is exiled\"\n"
     "rulesets: [mtg-current]\n"
     "rules: [\"CR 800.4a\"]\n"
     "players: [alice, bob, carol]\n"
     "cards:\n"
     "  elk: {owner: carol, zone: battlefield, types: [creature]}\n"
     "  ox: {owner: alice, zone: graveyard, types: [creature]}\n"
     "steps:\n"
     "  - move: {card: ox, to: battlefield, player: carol}\n"
     "  - leave_game: {player: carol}\n"
     "    expect: {elk: {exists: false}, ox: {zone: exile}}\n"},
    /* a trigger on phasing out looks back in time (CR 603.10b) */
    {"phasing_triggers",
     "id: smoke/phasing_triggers\n"
     "title: \"smoke: a trigger on a creature phasing out fires, and no zone-change trigger does\"\n"
     "rulesets: [mtg-current]\n"
     "rules: [\"CR 603.10b\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  bear: {owner: alice, zone: battlefield, types: [creature]}\n"
     "steps:\n"
     "  - watch: {as: out, card: bear, phase: out}\n"
     "  - watch: {as: left, card: bear, from: battlefield}\n"
     "  - phase: {card: bear}\n"
     "    expect: {triggers: {out: {fired: true, controller: alice}, left: {fired: false}}}\n"},
    /* an as-enters effect moving other objects, never what enters with it
       (CR 614.13, 614.13a) */
    {"as_enters",
     "id: smoke/as_enters\n"
     "title: \"smoke: as the ghoul enters, a creature card is exiled from the graveyard, not the bear entering with it\"\n"
     "rulesets: [mtg-current]\n"
     "rules: [\"CR 614.13a\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  ghoul: {owner: alice, zone: graveyard, types: [creature]}\n"
     "  bear: {owner: alice, zone: graveyard, types: [creature]}\n"
     "  imp: {owner: alice, zone: graveyard, types: [creature]}\n"
     "steps:\n"
     "  - as_enters: {card: ghoul, steps: [{move: {card: bear, to: exile}}, {move: {card: imp, to: exile}}]}\n"
     "  - move_together: {moves: [{card: ghoul, to: battlefield}, {card: bear, to: battlefield}]}\n"
     "    expect: {ghoul: {zone: battlefield}, bear: {zone: battlefield}, imp: {zone: exile}}\n"},
    {"shuffle_order",
     "id: smoke/shuffle_order\n"
     "title: \"smoke: a shuffle leaves the library in the order the step gives\"\n"
     "rulesets: [mtg-current, mtg-2011]\n"
     "rules: [\"CR 401.4\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  a: {owner: alice, zone: library}\n"
     "  b: {owner: alice, zone: library}\n"
     "  c: {owner: alice, zone: library}\n"
     "steps:\n"
     "  - shuffle: {zone: alice.library, order: [c, a, b]}\n"
     "    expect: {zones: {alice.library: [c, a, b]}}\n"},
    {"draw_then",
     "id: smoke/draw_then\n"
     "title: \"smoke: the card a draw puts into the hand is then exiled\"\n"
     "rulesets: [mtg-current]\n"
     "rules: [\"CR 614.11b\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  a: {owner: alice, zone: library}\n"
     "  b: {owner: alice, zone: library}\n"
     "steps:\n"
     "  - draw: {player: alice, then: {move: {to: exile}}}\n"
     "    expect: {a: {zone: exile}, b: {zone: alice.library}}\n"},
    {"created_owner",
     "id: smoke/created_owner\n"
     "title: \"smoke: a token created under bob's control is bob's\"\n"
     "rulesets: [mtg-current, mtg-2011]\n"
     "rules: [\"CR 111.2\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  bear: {owner: alice, zone: battlefield, types: [creature]}\n"
     "steps:\n"
     "  - create: {as: soldier, owner: alice, controller: bob, zone: battlefield, types: [creature]}\n"
     "    expect: {soldier: {zone: battlefield, controller: bob, owner: bob}}\n"},
    {"control_effects",
     "id: smoke/control_effects\n"
     "title: \"smoke: a control effect until end of turn on bob's creature spell goes on with the permanent and ends at the cleanup\"\n"
     "rulesets: [mtg-current]\n"
     "rules: [\"CR 400.7a\", \"CR 514.2\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  elk: {owner: bob, zone: hand, types: [creature]}\n"
     "steps:\n"
     "  - move: {card: elk, to: stack, cause: cast, player: bob}\n"
     "  - control: {card: elk, player: alice, until: end_of_turn}\n"
     "  - move: {card: elk, to: battlefield, cause: resolve}\n"
     "    expect: {elk: {zone: battlefield, controller: alice}}\n"
     "  - end_turn: {}\n"
     "    expect: {elk: {zone: battlefield, controller: bob}}\n"},
    {"together_order",
     "id: smoke/together_order\n"
     "title: \"smoke: of two cards put on a library together, the one that did not move keeps its place\"\n"
     "rulesets: [mtg-current, mtg-2011]\n"
     "rules: [\"CR 400.5\", \"CR 401.4\"]\n"
     "players: [alice, bob]\n"
     "cards:\n"
     "  a: {owner: alice, zone: library}\n"
     "  b: {owner: alice, zone: library}\n"
     "  c: {owner: alice, zone: hand}\n"
     "steps:\n"
     "  - move_together: {moves: [{card: b, from: hand, to: library}, {card: c, from: hand, to: library}]}\n"
     "    expect: {zones: {alice.library: [c, a, b]}}\n"},
};

/* ci/protocol/PROTOCOL.md, Features, in its order. */
/* the features, as the case layer lists them (case/steps.def) */
#define NFEATURES ((size_t)FT_COUNT)

typedef struct {
  int ok, failed, skipped;
  double started; /* ms, of the current check */
} tally;

/* A monotonic clock, in milliseconds. */
static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* One check's line: verdict is "ok", "FAIL" or "skip". */
static void say(tally *t, const char *verdict, const char *check, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void say(tally *t, const char *verdict, const char *check, const char *fmt, ...) {
  char what[1200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (!strcmp(verdict, "ok")) t->ok++;
  else if (!strcmp(verdict, "FAIL")) t->failed++;
  else t->skipped++;
  printf("%-4s %s: %s (%.0f ms)\n", verdict, check, what, now_ms() - t->started);
  fflush(stdout);
  t->started = now_ms();
}

/* Whether e declares feature (or, with ruleset, rule set) what. */
static int declares(zo_engine *e, const char *what, int ruleset) {
  return !e->ops->has || e->ops->has(e->self, what, ruleset);
}

/* A list filled up to its size (n bytes) ends in "..." so that a cut shows. */
static void mark_cut(char *buf, size_t n) {
  if (strlen(buf) == n - 1) memcpy(buf + n - 4, "...", 4);
}

/* The handshake's answer, checked field by field. 1 when usable. */
static int check_hello(tally *t, zo_engine *e) {
  const json_t *h = zo_engine_process_hello(e);
  const char *name = json_string_value(json_object_get(h, "engine"));
  const char *version = json_string_value(json_object_get(h, "version"));
  json_t *rss = json_object_get(h, "rulesets"), *fs = json_object_get(h, "features");
  const char *why = NULL;
  if (!json_is_true(json_object_get(h, "ok"))) why = "ok is not true";
  else if (!name || !name[0]) why = "no engine (its name, a non-empty string)";
  else if (!version) why = "no version (a string)";
  else if (!json_is_array(rss) || !json_array_size(rss)) why = "rulesets is not a non-empty list";
  else if (!json_is_array(fs)) why = "features is not a list";
  if (why) {
    say(t, "FAIL", "handshake", "the hello answer is not usable: %s", why);
    return 0;
  }
  char rlist[400] = "", flist[1024] = "", odd[200] = ""; /* every feature name fits */
  size_t i;
  json_t *x;
  json_array_foreach(rss, i, x) {
    const char *id = json_string_value(x);
    if (!id) {
      say(t, "FAIL", "handshake", "rulesets[%zu] is not a string", i);
      return 0;
    }
    snprintf(rlist + strlen(rlist), sizeof rlist - strlen(rlist), "%s%s", i ? ", " : "", id);
  }
  json_array_foreach(fs, i, x) {
    const char *f = json_string_value(x);
    int known = 0;
    for (size_t k = 0; f && k < NFEATURES; k++) known |= !strcmp(f, zo_feature_names[k]);
    if (!known) snprintf(odd, sizeof odd, "%s", f ? f : "(not a string)");
    snprintf(flist + strlen(flist), sizeof flist - strlen(flist), "%s%s", i ? ", " : "", f ? f : "?");
  }
  mark_cut(rlist, sizeof rlist);
  mark_cut(flist, sizeof flist);
  if (odd[0]) {
    say(t, "FAIL", "handshake", "unknown feature '%s' (ci/protocol/PROTOCOL.md lists triggers, replacement, ...)", odd);
    return 0;
  }
  const char *proto = json_string_value(json_object_get(h, "protocol"));
  say(t, "ok", "handshake", "%s %s speaks %s; rule sets: %s; features: %s", name, version, proto ? proto : "zcp/1",
      rlist, flist[0] ? flist : "none");
  return 1;
}

/* The built-in case for `check`, run under the first rule set of it the
 * engine declares. */
static void check_case(tally *t, zo_engine *e, const char *check) {
  char label[64];
  if (strcmp(check, "core")) snprintf(label, sizeof label, "feature %s", check);
  else snprintf(label, sizeof label, "%s case", check);
  zo_feature whole = zo_feature_whole(zo_feature_parse(check));
  const char *of = whole != FT_NONE ? zo_feature_name(whole) : check;
  for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++) {
    if (strcmp(builtins[i].check, of)) continue;
    zo_case *c;
    zo_error err = {0};
    char name[64];
    snprintf(name, sizeof name, "smoke/%s.yaml", of);
    if (zo_case_load_mem(name, builtins[i].yaml, strlen(builtins[i].yaml), &c, &err)) {
      say(t, "FAIL", label, "the built-in case does not load (a zoneoracle bug): %s", err.message);
      return;
    }
    const zo_ruleset *rs = NULL;
    for (int r = 0; r < c->nrulesets && !rs; r++)
      if (declares(e, c->rulesets[r], 1)) rs = zo_ruleset_find(c->rulesets[r]);
    /* a part is checked only by a case that uses it: the whole's case may
       use another part (state_check's token case says nothing of a draw
       from an empty library) */
    zo_feature part = zo_feature_parse(check);
    uint64_t uses = 0;
    for (int k = 0; k < c->nsteps; k++) uses |= zo_case_step_features(c, &c->steps[k]);
    if (rs && whole != FT_NONE && !(uses >> part & 1u)) {
      say(t, "skip", label, "no built-in case uses part %s (case %s uses other parts of %s)", check, c->id, of);
      zo_case_free(c);
      return;
    }
    const char *missing = rs ? zo_case_missing_feature(e, c) : NULL;
    if (missing) {
      say(t, "skip", label, "the built-in case %s also needs %s, which the engine does not declare", c->id, missing);
      zo_case_free(c);
      return;
    }
    if (!rs) {
      zo_case_free(c);
      continue;
    }
    zo_run_options opt = {0};
    zo_run run = {.results = zo_xcalloc(1, sizeof *run.results), .n = 1};
    zo_case_result *res = &run.results[0];
    zo_run_case(e, c, rs, &opt, res);
    if (res->status == RS_PASS)
      say(t, "ok", label, "case %s [%s] passes", c->id, rs->id);
    else
      say(t, "FAIL", label, "case %s [%s]: %s: %s", c->id, rs->id, zo_result_status_name(res->status),
          res->message ? res->message : "");
    zo_run_free(&run);
    zo_case_free(c);
    return;
  }
  say(t, "skip", label, "no built-in case for the rule sets the engine declares");
}

/* `run` (PROTOCOL.md 7.5): the core case sent as one run request, as
 * `gate --fuzz` sends games (observe: delta when the engine chose zcp/2,
 * else each), and each step's answer and observation compared with the
 * oracle's as `gate --strict` compares them. With ahead, the check
 * "requests ahead" (PROTOCOL.md 2): the case's setup, observe and run
 * written twice before any answer is read, as `gate --fuzz` writes the
 * next game, and both games' answers compared with the oracle's. */
static void check_run(tally *t, zo_engine *e, int ahead) {
  const char *label = ahead ? "requests ahead" : "run";
  const json_t *hello = zo_engine_process_hello(e);
  const char *proto = json_string_value(json_object_get(hello, "protocol"));
  const char *mode = proto && !strcmp(proto, "zcp/2") ? "delta" : "each";
  if (ahead && !zo_engine_process_can_send_ahead(e)) {
    say(t, "skip", label, "a plugin in process answers one request at a time");
    return;
  }
  for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++) {
    if (strcmp(builtins[i].check, "core")) continue;
    zo_case *c;
    zo_error err = {0};
    if (zo_case_load_mem("smoke/run.yaml", builtins[i].yaml, strlen(builtins[i].yaml), &c, &err)) {
      say(t, "FAIL", label, "the built-in case does not load (a zoneoracle bug): %s", err.message);
      return;
    }
    const zo_ruleset *rs = NULL;
    for (int r = 0; r < c->nrulesets && !rs; r++)
      if (declares(e, c->rulesets[r], 1)) rs = zo_ruleset_find(c->rulesets[r]);
    if (!rs) {
      zo_case_free(c);
      continue;
    }
    int n = c->nsteps, games = ahead ? 2 : 1;
    zo_observation *ea = zo_xcalloc((size_t)n + 1, sizeof *ea), *ob = zo_xcalloc((size_t)n + 1, sizeof *ob);
    zo_step_result *ra = zo_xcalloc((size_t)n + 1, sizeof *ra), *rb = zo_xcalloc((size_t)n + 1, sizeof *rb);
    zo_engine *o = zo_engine_oracle_new();
    char why[700] = "";
    if (!o->ops->setup(o->self, rs, c, &err)) { /* the oracle's side first */
      o->ops->observe(o->self, &ob[0], &err);
      for (int k = 1; k <= n; k++) {
        o->ops->step(o->self, &c->steps[k - 1], &rb[k], &err);
        o->ops->observe(o->self, &ob[k], &err);
      }
      o->ops->teardown(o->self);
    }
    if (!ahead) {
      if (e->ops->setup(e->self, rs, c, &err))
        snprintf(why, sizeof why, "the setup before the run failed: %s", err.message);
      else if (zo_engine_process_run(e, c, ra, ea, &err))
        snprintf(why, sizeof why, "a run of %d steps (observe: %s) failed (PROTOCOL.md 7.5): %s", n, mode,
                 err.message);
    } else if (zo_engine_process_send_game(e, rs, c, &err) || zo_engine_process_send_game(e, rs, c, &err)) {
      snprintf(why, sizeof why, "two games' requests (setup, observe, run) could not be written: %s", err.message);
    }
    for (int g = 0; g < games && !why[0]; g++) {
      if (ahead && g) {
        for (int k = 0; k <= n; k++) {
          zo_observation_free(&ea[k]);
          zo_step_result_free(&ra[k]);
          memset(&ea[k], 0, sizeof ea[k]);
          memset(&ra[k], 0, sizeof ra[k]);
        }
      }
      if (ahead && zo_engine_process_read_game(e, c, ra, ea, NULL, &err)) {
        snprintf(why, sizeof why, "game %d of 2, written before any answer was read: %s (PROTOCOL.md 2)", g + 1,
                 err.message);
        break;
      }
      for (int k = 0; k <= n && !why[0]; k++) {
        zo_obs_difference d;
        if (zo_observation_diff(c, &ea[k], &ob[k], k ? &ea[k - 1] : NULL, k ? &ob[k - 1] : NULL,
                                k ? &ra[k] : NULL, k ? &rb[k] : NULL, &d)) {
          char what[400];
          zo_obs_difference_format(c, &d, what, sizeof what);
          if (ahead)
            snprintf(why, sizeof why, "game %d of 2, written before any answer was read, differs from the "
                     "oracle at step %d: %s (PROTOCOL.md 2)", g + 1, k, what);
          else
            snprintf(why, sizeof why, "the run's answer for step %d (observe: %s) differs from the oracle's: %s "
                     "(PROTOCOL.md 7.5 and 8)", k, mode, what);
        }
      }
    }
    if (ahead) zo_engine_process_drain(e);
    e->ops->teardown(e->self);
    for (int k = 0; k <= n; k++) {
      zo_observation_free(&ea[k]);
      zo_observation_free(&ob[k]);
      zo_step_result_free(&ra[k]);
      zo_step_result_free(&rb[k]);
    }
    free(ea);
    free(ob);
    free(ra);
    free(rb);
    zo_engine_oracle_free(o);
    if (why[0]) say(t, "FAIL", label, "case %s [%s]: %s", c->id, rs->id, why);
    else if (ahead)
      say(t, "ok", label, "case %s [%s] twice, six requests written before the first answer was read, "
          "answered in order and as the oracle", c->id, rs->id);
    else say(t, "ok", label, "case %s [%s] as one run (observe: %s, %s) agrees with the oracle", c->id, rs->id,
             mode, proto ? proto : "zcp/1");
    zo_case_free(c);
    return;
  }
  say(t, "skip", label, "no built-in case for the rule sets the engine declares");
}

/* Why `a` is not a well-formed error answer with id `id` (NULL: id null),
 * or NULL when it is. */
static const char *not_an_error_answer(json_t *a, const json_t *id, char *buf, size_t cap) {
  json_t *e = json_object_get(a, "error"), *got = json_object_get(a, "id");
  const char *code = json_string_value(json_object_get(e, "code"));
  if (!json_is_false(json_object_get(a, "ok"))) return "the answer does not say ok: false";
  if (!json_is_object(e)) return "the answer has no error object";
  if (!code || (strcmp(code, "bad_request") && strcmp(code, "unsupported") && strcmp(code, "internal")))
    return "error.code is not bad_request, unsupported or internal";
  if (!json_is_string(json_object_get(e, "message"))) return "error.message is not a string";
  if (!got) return "the answer has no id";
  if (id && !json_equal(got, (json_t *)id)) {
    snprintf(buf, cap, "the answer's id is not the request's (%lld)", (long long)json_integer_value(id));
    return buf;
  }
  if (!id && !json_is_null(got)) return "the answer's id is not null (the request had none to echo)";
  return NULL;
}

/* Send a malformed line; it must get an error answer, and the engine must
 * still answer a valid setup afterwards. */
static void check_malformed(tally *t, zo_engine *e, const char *what, const char *line, long id,
                            const char *ruleset) {
  static long probe_id = 9100;
  probe_id++;
  char label[120], buf[200];
  snprintf(label, sizeof label, "malformed: %s", what);
  json_t *a = NULL, *jid = id ? json_integer(id) : NULL;
  zo_error err = {0};
  const char *why = NULL;
  if (zo_engine_process_exchange(e, line, &a, &err)) {
    say(t, "FAIL", label, "no error answer: %s", err.message);
    json_decref(jid);
    return;
  }
  why = not_an_error_answer(a, jid, buf, sizeof buf);
  char code[32];
  snprintf(code, sizeof code, "%s", why ? "" : json_string_value(json_object_get(json_object_get(a, "error"), "code")));
  json_decref(a);
  json_decref(jid);
  if (why) {
    say(t, "FAIL", label, "%s", why);
    return;
  }
  /* it goes on: a valid request after it is answered */
  char probe[300];
  snprintf(probe, sizeof probe,
           "{\"op\":\"setup\",\"id\":%ld,\"ruleset\":\"%s\",\"players\":[\"alice\",\"bob\"],\"cards\":{}}",
           probe_id, ruleset);
  if (zo_engine_process_exchange(e, probe, &a, &err)) {
    say(t, "FAIL", label, "answered %s, then did not answer a valid setup: %s", code, err.message);
    return;
  }
  int ok = json_is_true(json_object_get(a, "ok")) &&
           json_integer_value(json_object_get(a, "id")) == probe_id;
  json_decref(a);
  if (ok) say(t, "ok", label, "error answer %s, and the engine goes on", code);
  else say(t, "FAIL", label, "answered %s, then a valid setup (id %ld) got no ok: true answer with its id", code, probe_id);
}

/* zoneoracle smoke --engine CMD | --engine-plugin PATH [--timeout S]:
 * the handshake, one built-in case per declared feature, malformed
 * requests, bye; one line per check on stdout. Returns the exit code: 0
 * every check ok, 1 one failed, 2 usage, 4 the engine could not be started
 * or failed the handshake. */
int zo_cli_cmd_smoke(const zo_cli_command *cmd, int argc, char **argv) {
  zo_cli_opts o;
  int rc = zo_cli_parse(cmd, argc, argv, &o);
  zo_cli_opts_free(&o);
  if (rc >= 0) return rc;
  const char *engine = o.engine, *plugin = o.plugin;
  if (!engine == !plugin)
    return zo_cli_usage_error(cmd, engine ? "give --engine CMD or --engine-plugin LIB.so, not both"
                                          : "needs --engine CMD or --engine-plugin LIB.so");
  double timeout = o.timeout;
  double t0 = now_ms();
  tally t = {.started = t0};
  printf("smoke: %s\n", engine ? engine : plugin);
  zo_error err = {0};
  zo_engine_process_options eo = {.timeout = timeout};
  zo_engine *e = engine ? zo_engine_process_open(engine, &eo, &err) : zo_engine_plugin_open(plugin, &eo, &err);
  int started = e != NULL;
  if (!e) say(&t, "FAIL", "handshake", "no zcp/1 handshake: %s", err.message);
  if (e && check_hello(&t, e)) {
    check_case(&t, e, "core");
    check_run(&t, e, 0);
    check_run(&t, e, 1);
    for (size_t f = 0; f < NFEATURES; f++) {
      /* a part alone: its whole's case, when the engine has what it needs */
      zo_feature whole = zo_feature_whole((zo_feature)f);
      if (whole != FT_NONE && e->ops->has(e->self, zo_feature_name(whole), 0)) continue;
      if (!e->ops->has(e->self, zo_feature_names[f], 0)) continue;
      check_case(&t, e, zo_feature_names[f]);
    }
    /* a rule set for the valid setups that follow each malformed line */
    const char *rs = json_string_value(json_array_get(json_object_get(zo_engine_process_hello(e), "rulesets"), 0));
    for (size_t i = 0; i < zo_ruleset_count(); i++)
      if (declares(e, zo_ruleset_id(zo_ruleset_at(i)), 1)) {
        rs = zo_ruleset_id(zo_ruleset_at(i));
        break;
      }
    char ruleset[96];
    snprintf(ruleset, sizeof ruleset, "%s", rs);
    check_malformed(&t, e, "a line that is not JSON", "this is not JSON {", 0, ruleset);
    check_malformed(&t, e, "an unknown op", "{\"op\":\"frobnicate\",\"id\":9001}", 9001, ruleset);
    check_malformed(&t, e, "a request without id", "{\"op\":\"observe\"}", 0, ruleset);
    check_malformed(&t, e, "a setup without its ruleset",
                    "{\"op\":\"setup\",\"id\":9011,\"players\":[\"alice\",\"bob\"],\"cards\":{}}", 9011, ruleset);
    if (zo_engine_process_bye(e, &err)) say(&t, "FAIL", "bye", "%s", err.message);
    else say(&t, "ok", "bye", plugin ? "answered ok: true" : "answered ok: true, then exited");
  }
  zo_engine_process_free(e);
  int n = t.ok + t.failed + t.skipped;
  printf("%d checks: %d ok, %d failed, %d skipped in %.2f s\n", n, t.ok, t.failed, t.skipped,
         (now_ms() - t0) / 1e3);
  if (!started) {
    fprintf(stderr, "zoneoracle: engine '%s' could not be started or driven: %s\n", engine ? engine : plugin,
            err.message);
    return ZO_EXIT_ENGINE;
  }
  return t.failed ? ZO_EXIT_FAIL : ZO_EXIT_PASS;
}
