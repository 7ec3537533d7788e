// ci/adapters/node/test_engine.js: unit tests of the Node zcp/2 engine
// (node:test, standard library only):
//     node --test ci/adapters/node/test_engine.js
// They drive Server in process with the JSON the gate sends, through text
// both ways as on the wire, and the real program over a pipe (handshake,
// garbage, bye, end of input).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const engine = require('./engine');
const { dump } = require('./check_undo');

const { Server, MtgGame, mtgCurrent, badRequest } = engine;
const PROGRAM = path.join(__dirname, 'engine.js');

/** One game through Server.answerLine, as the gate drives it. Each step is
 * first run and rolled back from the game's undo log, which must leave the
 * state exactly as it was (every write a step makes is logged); then run for
 * real, and what the game's observeDelta() says it changed must be the
 * difference of the whole observations before and after it (every object
 * whose description changed was touched). */
class Session {
  constructor(cards, { players = ['alice', 'bob'], rules = mtgCurrent, features } = {}) {
    this.server = new Server(rules, features || [...rules.features]);
    this.id = 0;
    const answer = this.call('setup', { ruleset: 'mtg-current', players, cards });
    assert.equal(answer.ok, true, JSON.stringify(answer));
  }

  call(op, fields = {}) {
    const game = this.server.game;
    const seen = op === 'step' && game instanceof MtgGame ? game.observe() : null;
    if (op === 'step' && game instanceof MtgGame) {
      const before = JSON.stringify(dump(game.s));
      const mark = game.begin();
      try {
        this.server.answerLine(JSON.stringify({ op, id: 0, ...fields }));
      } finally {
        game.rollback(mark);
      }
      assert.equal(JSON.stringify(dump(game.s)), before, `not undone: ${JSON.stringify(fields)}`);
      assert.equal(game.log, null);
    }
    this.id += 1;
    const answer = JSON.parse(this.server.answerLine(JSON.stringify({ op, id: this.id, ...fields })));
    if (seen !== null && this.server.game === game) {
      assert.equal(JSON.stringify(game.observeDelta()), JSON.stringify(engine.observationDelta(seen, game.observe())),
        `observeDelta() after ${JSON.stringify(fields)}`);
    }
    return answer;
  }

  /** A step that must be answered ok: [outcome, error]. */
  step(step) {
    const answer = this.call('step', { step });
    assert.equal(answer.ok, true, JSON.stringify(answer));
    return [answer.outcome, answer.error];
  }

  observe() { return this.call('observe'); }

  obj(handle) { return this.observe().objects[handle]; }
}

const bear = (extra = {}) => ({ owner: 'alice', zone: 'battlefield', types: ['creature'], ...extra });

// ---- the protocol ----------------------------------------------------------------

test('hello declares the engine, mtg-current and its features, and picks the newest version offered', () => {
  const server = new Server(mtgCurrent, [...mtgCurrent.features]);
  const answer = JSON.parse(server.answerLine('{"op":"hello","id":7,"protocol":"zcp/1","accepts":["zcp/1","zcp/2"]}'));
  assert.deepEqual(answer, {
    id: 7, ok: true, protocol: 'zcp/2', engine: 'nodezones', version: '1.1.0', rulesets: ['mtg-current'], features: mtgCurrent.features,
  });
  const ask = (line) => JSON.parse(server.answerLine(line));
  assert.equal(ask('{"op":"hello","id":8,"protocol":"zcp/1"}').protocol, 'zcp/1');
  assert.equal(ask('{"op":"hello","id":9,"protocol":"zcp/2"}').protocol, 'zcp/2');
  assert.equal(ask('{"op":"hello","id":10,"protocol":"zcp/3"}').error.code, 'unsupported');
  assert.equal(ask('{"op":"hello","id":11,"protocol":"zcp/1","accepts":"zcp/2"}').error.code, 'bad_request');
});

test('malformed requests get error answers with the right id, and the engine goes on', () => {
  const server = new Server(mtgCurrent, []);
  const ask = (line) => JSON.parse(server.answerLine(line));
  const cases = [
    ['this is not JSON {', null, 'bad_request'],
    ['[1, 2]', null, 'bad_request'],
    ['{"op":"observe"}', null, 'bad_request'],
    ['{"op":"observe","id":1.5}', null, 'bad_request'],
    ['{"op":"frobnicate","id":9001}', 9001, 'bad_request'],
    ['{"id":9002}', 9002, 'bad_request'],
    ['{"op":"setup","id":9011,"players":["alice","bob"],"cards":{}}', 9011, 'bad_request'],
    ['{"op":"setup","id":9012,"ruleset":"fab","players":["alice"],"cards":{}}', 9012, 'unsupported'],
    ['{"op":"setup","id":9013,"ruleset":"mtg-current","players":["a.b"],"cards":{}}', 9013, 'bad_request'],
    ['{"op":"step","id":9014,"step":{"state_check":{}}}', 9014, 'bad_request'],
    ['{"op":"observe","id":9015}', 9015, 'bad_request'],
    ['{"op":"run","id":9016,"steps":{}}', 9016, 'bad_request'],
  ];
  for (const [line, id, code] of cases) {
    const answer = ask(line);
    assert.deepEqual(Object.keys(answer).sort(), ['error', 'id', 'ok'], line);
    assert.equal(answer.id, id, line);
    assert.equal(answer.ok, false, line);
    assert.equal(answer.error.code, code, line);
    assert.equal(typeof answer.error.message, 'string');
  }
  assert.equal(server.answerLine('   '), null, 'a blank line is no request');
  const setup = ask('{"op":"setup","id":9101,"ruleset":"mtg-current","players":["alice","bob"],"cards":{}}');
  assert.deepEqual(setup, { id: 9101, ok: true });
  assert.equal(server.finished, false);
  assert.deepEqual(ask('{"op":"bye","id":9102}'), { id: 9102, ok: true });
  assert.equal(server.finished, true);
});

test('a failed setup leaves no game', () => {
  const s = new Session({ bear: bear() });
  const bad = s.call('setup', { ruleset: 'mtg-current', players: ['alice', 'bob'], cards: { i: bear({ types: ['instant'] }) } });
  assert.equal(bad.error.code, 'bad_request');
  assert.match(bad.error.message, /400\.4a/);
  assert.equal(s.call('step', { step: { state_check: {} } }).error.code, 'bad_request');
});

test('a step that throws half-way is undone from the undo log, whole state included', () => {
  const s = new Session({ bear: bear(), elf: { owner: 'bob', zone: 'hand' } }, { players: ['alice', 'bob', 'carol'] });
  s.step({ mark: { card: 'bear', as: 'm', kind: 'counter' } });
  s.step({ watch: { as: 'w', card: 'bear', to: 'exile' } });
  const before = s.obj('bear');
  const state = JSON.stringify(dump(s.server.game.s));
  // the move happens and fires the watch, then its then: reuses the mark name: a bad request
  const answer = s.call('step', { step: { move: { card: 'bear', to: 'exile', then: { mark: { as: 'm', kind: 'effect' } } } } });
  assert.equal(answer.error.code, 'bad_request');
  assert.deepEqual(s.obj('bear'), before);
  assert.equal(JSON.stringify(dump(s.server.game.s)), state);
  assert.equal(s.server.game.log, null, 'no log is left open');
  // a step naming a player who left is checked on the game as if nobody had, then undone
  s.step({ leave_game: { player: 'carol' } });
  assert.deepEqual(s.step({ move: { card: 'elf', to: 'battlefield', player: 'carol' } }), ['rejected', 'wrong_player']);
  const after = JSON.stringify(dump(s.server.game.s));
  assert.equal(s.call('step', { step: { move: { card: 'elf', to: 'mars', player: 'carol' } } }).error.code, 'bad_request');
  assert.equal(JSON.stringify(dump(s.server.game.s)), after);
  assert.equal(s.obj('elf').zone, 'bob.hand');
});

test('without snapshot() the step is undone by replaying the game', () => {
  let made = 0;
  const replaying = {
    ...mtgCurrent,
    newGame(ruleset, players, cards) {
      made += 1;
      const game = new MtgGame(players, cards);
      return { step: (step) => game.step(step), observe: () => game.observe() };
    },
  };
  const s = new Session({ bear: bear() }, { rules: replaying });
  s.step({ move: { card: 'bear', to: 'graveyard' } });
  const before = s.obj('bear');
  const answer = s.call('step', { step: { move: { card: 'bear', to: 'exile', then: { move: { to: 'mars' } } } } });
  assert.equal(answer.error.code, 'bad_request');
  assert.equal(made, 2, 'built again from the setup');
  assert.deepEqual(s.obj('bear'), before);
  assert.deepEqual(s.step({ move: { card: 'bear', to: 'exile' } }), ['moved', null]);
});

test('an exception in the rules is an internal error, and the game goes on', () => {
  const broken = {
    ...mtgCurrent,
    newGame: (ruleset, players, cards) => {
      const game = new MtgGame(players, cards);
      return {
        step: (step) => (step.draw ? null.oops : game.step(step)),
        observe: () => game.observe(),
        snapshot: () => game.snapshot(),
        restore: (snap) => game.restore(snap),
      };
    },
  };
  const s = new Session({ bear: bear() }, { rules: broken });
  const write = process.stderr.write;
  let logged = '';
  process.stderr.write = (text) => { logged += text; return true; }; // the trace goes to stderr
  let answer;
  try {
    answer = s.call('step', { step: { draw: { player: 'alice' } } });
  } finally {
    process.stderr.write = write;
  }
  assert.match(logged, /internal error on request \d+: TypeError/);
  assert.equal(answer.error.code, 'internal');
  assert.match(answer.error.message, /TypeError/);
  assert.deepEqual(s.step({ move: { card: 'bear', to: 'hand' } }), ['moved', null]);
});

test('run answers one result and one observation per step with observe: each', () => {
  const s = new Session({ bear: bear() });
  const answer = s.call('run', {
    steps: [{ watch: { as: 't', card: 'bear', to: 'graveyard' } }, { move: { card: 'bear', to: 'graveyard' } }],
    observe: 'each',
  });
  assert.equal(answer.ok, true);
  assert.deepEqual(Object.keys(answer).sort(), ['id', 'observations', 'ok', 'results']);
  assert.deepEqual(answer.results.map((r) => r.outcome), ['no_move', 'moved']);
  assert.equal(answer.observations.length, 2);
  assert.deepEqual(Object.keys(answer.observations[1]).sort(), ['objects', 'players', 'refs', 'triggers', 'visible']);
  assert.equal(answer.observations[1].triggers.t.fired, true);
  const end = s.call('run', { steps: [] });
  assert.equal(end.observations.length, 1);
  assert.equal(s.call('run', { steps: [], observe: 'all' }).error.code, 'bad_request');
  const server = new Server(mtgCurrent, []);
  assert.deepEqual(JSON.parse(server.answerLine('{"op":"run","id":3,"steps":[]}')), { id: 3, ok: true, results: [], observations: [] });
});

test('run with observe: delta answers only what changed, and the deltas add up to the state', () => {
  const s = new Session({ bear: bear(), elk: { owner: 'bob', zone: 'hand' } });
  const whole = s.observe();
  const answer = s.call('run', {
    observe: 'delta',
    steps: [
      { watch: { as: 'w', card: 'bear', to: 'graveyard' } },
      { move: { card: 'bear', to: 'graveyard' } },
      { create: { as: 't', owner: 'bob', zone: 'battlefield' } },
      { remember: { as: 'r', card: 't' } },
      { mark: { card: 'elk', as: 'm', kind: 'counter' } },
    ],
  });
  assert.equal(answer.ok, true, JSON.stringify(answer));
  const [first, moved, created, remembered, marked] = answer.observations;
  assert.deepEqual(first, { objects: {}, triggers: { w: { fired: false, found: null, controller: null } } });
  assert.deepEqual(Object.keys(moved.objects), ['bear']);
  assert.deepEqual(Object.keys(moved.objects.bear).sort(), ['controller', 'object', 'position', 'zone']);
  assert.equal(moved.triggers.w.fired, true);
  assert.equal('refs' in moved || 'players' in moved, false);
  assert.equal(Object.keys(created.objects.t).length, 13, 'a new object: all its fields');
  assert.deepEqual(Object.keys(created.visible).sort(), ['alice', 'bob']);
  assert.deepEqual(remembered, { objects: {}, refs: { r: { found: true, handle: 't' } } });
  assert.deepEqual(marked, { objects: { elk: { marks: ['m'] } } });
  const state = whole;
  for (const d of answer.observations) {
    for (const [h, fields] of Object.entries(d.objects)) state.objects[h] = { ...state.objects[h], ...fields };
    for (const part of ['triggers', 'refs', 'players', 'visible']) Object.assign(state[part], d[part] || {});
  }
  const after = s.observe();
  for (const x of [state, after]) { delete x.id; delete x.ok; }
  assert.deepEqual(state, after);
  assert.deepEqual(JSON.parse(JSON.stringify(engine.observationDelta(after, after))), { objects: {} });
  // a game without observeDelta() gets the same deltas from whole observations
  const plain = { ...mtgCurrent, newGame: (r, p, c) => {
    const g = mtgCurrent.newGame(r, p, c);
    return { step: (x) => g.step(x), observe: () => g.observe(), begin: () => g.begin(), commit: (m) => g.commit(m), rollback: (m) => g.rollback(m) };
  } };
  const t = new Session({ bear: bear(), elk: { owner: 'bob', zone: 'hand' } }, { rules: plain });
  t.observe();
  const again = t.call('run', { observe: 'delta', steps: answer.observations.map((_, i) => JSON.parse(JSON.stringify(
    [{ watch: { as: 'w', card: 'bear', to: 'graveyard' } }, { move: { card: 'bear', to: 'graveyard' } },
      { create: { as: 't', owner: 'bob', zone: 'battlefield' } }, { remember: { as: 'r', card: 't' } },
      { mark: { card: 'elk', as: 'm', kind: 'counter' } }][i]))) });
  assert.deepEqual(again.observations, answer.observations);
});

test('observeDelta: a library\'s positions, its shown top, an attachment ending with its host, several steps between observations', () => {
  const s = new Session({
    a: { owner: 'alice', zone: 'library', position: 0 }, b: { owner: 'alice', zone: 'library', position: 1 },
    c: { owner: 'alice', zone: 'library', position: 2 }, bear: bear(), aura: bear({ types: ['enchantment'], subtypes: ['aura'] }),
  });
  const game = s.server.game;
  const seen = game.observe();
  // several steps without an observation between them: the delta covers them all
  for (const step of [{ reveal: { top_of: 'alice' } }, { attach: { card: 'aura', to: 'bear' } }, { draw: { player: 'alice' } }]) {
    assert.equal(s.server.answer({ op: 'step', id: 1, step }).ok, true);
  }
  const delta = game.observeDelta();
  assert.equal(JSON.stringify(delta), JSON.stringify(engine.observationDelta(seen, game.observe())));
  assert.deepEqual(delta.objects.b, { position: 0, visibility: 'public' }, 'the new top: moved up, and shown (CR 401.5)');
  assert.deepEqual(delta.objects.c, { position: 1 });
  assert.equal(delta.objects.aura.attached_to, 'bear');
  // the host leaves: the Aura's attached_to goes, though the step wrote only the host
  const before = game.observe();
  assert.equal(s.server.answer({ op: 'step', id: 2, step: { move: { card: 'bear', to: 'exile' } } }).ok, true);
  const after = game.observeDelta();
  assert.equal(after.objects.aura.attached_to, null);
  assert.equal(JSON.stringify(after), JSON.stringify(engine.observationDelta(before, game.observe())));
});

test('attach_player: an Aura attached to a player, not an Equipment; the player leaves and the delta drops it; the state check bins it', () => {
  const s = new Session({
    curse: bear({ types: ['enchantment'], subtypes: ['aura'] }),
    sword: bear({ types: ['artifact'], subtypes: ['equipment'] }),
  }, { players: ['alice', 'bob', 'carol'] });
  const game = s.server.game;
  assert.deepEqual(s.step({ attach: { card: 'sword', to_player: 'bob' } }), ['failed', 'cannot_hold']); // CR 701.3b
  assert.deepEqual(s.step({ attach: { card: 'curse', to_player: 'bob' } }), ['no_move', null]); // CR 303.4b
  assert.deepEqual(s.step({ attach: { card: 'curse', to_player: 'bob' } }), ['no_move', null]); // the same player: nothing
  assert.equal(s.obj('curse').attached_to_player, 'bob');
  assert.equal(s.obj('sword').attached_to_player, undefined);
  const before = game.observe();
  assert.equal(s.server.answer({ op: 'step', id: 90, step: { leave_game: { player: 'bob' } } }).ok, true);
  const after = game.observeDelta(); // the step wrote nothing on the Aura: it is described again all the same
  assert.equal(after.objects.curse.attached_to_player, null);
  assert.equal(JSON.stringify(after), JSON.stringify(engine.observationDelta(before, game.observe())));
  assert.deepEqual(s.step({ attach: { card: 'curse', to_player: 'bob' } }), ['rejected', 'wrong_player']);
  assert.deepEqual(s.step({ state_check: {} }), ['moved', null]); // CR 303.4c, 704.5m
  assert.equal(s.obj('curse').zone, 'alice.graveyard');
  assert.equal(s.call('step', { step: { attach: { card: 'sword', to: 'curse', to_player: 'carol' } } }).ok, false);
});

test('attach_player: an Aura put onto the battlefield attached to a player; an Equipment enters unattached (CR 303.4f, 303.4h)', () => {
  const s = new Session({
    curse: bear({ zone: 'graveyard', types: ['enchantment'], subtypes: ['aura'] }),
    sword: bear({ zone: 'graveyard', types: ['artifact'], subtypes: ['equipment'] }),
  });
  assert.deepEqual(s.step({ move: { card: 'curse', to: 'battlefield', attached_to_player: 'bob' } }), ['moved', null]);
  assert.equal(s.obj('curse').attached_to_player, 'bob');
  assert.deepEqual(s.step({ move: { card: 'sword', to: 'battlefield', attached_to_player: 'bob' } }), ['moved', null]);
  assert.equal(s.obj('sword').attached_to_player, undefined);
  assert.deepEqual(s.step({ state_check: {} }), ['no_move', null]);
  assert.equal(s.call('step', { step: { move: { card: 'sword', to: 'exile', attached_to: 'curse', attached_to_player: 'bob' } } }).ok, false);
});

test('ordered zones start in the order of their positions, never of the keys', () => {
  const server = new Server(mtgCurrent, []);
  // JSON.parse puts "10" and "2" first; the positions decide
  const setup = '{"op":"setup","id":1,"ruleset":"mtg-current","players":["alice","bob"],'
    + '"cards":{"b":{"owner":"alice","zone":"library","position":0},"10":{"owner":"alice","zone":"library","position":1},'
    + '"2":{"owner":"alice","zone":"library","position":2}}}';
  assert.equal(JSON.parse(server.answerLine(setup)).ok, true);
  const objects = JSON.parse(server.answerLine('{"op":"observe","id":2}')).objects;
  assert.deepEqual([objects.b.position, objects['10'].position, objects['2'].position], [0, 1, 2]);
});

test('handles named like Object properties are just names', () => {
  const s = new Session({ ['__proto__']: bear(), constructor: bear({ zone: 'hand' }) }); // a computed key is an own property
  const seen = s.observe();
  assert.equal(seen.objects.__proto__.zone, 'battlefield'); // eslint-disable-line no-proto
  assert.equal(seen.objects.constructor.zone, 'alice.hand');
});

// ---- ZO_NODE_FEATURES: a partial engine -------------------------------------------

test('ZO_NODE_FEATURES keeps the features named that the engine has', () => {
  assert.deepEqual(engine.chooseFeatures(mtgCurrent.features, undefined), mtgCurrent.features);
  assert.deepEqual(engine.chooseFeatures(mtgCurrent.features, 'marks, triggers,,'), ['triggers', 'marks']);
  assert.deepEqual(engine.chooseFeatures(mtgCurrent.features, ''), []);
  const server = new Server(mtgCurrent, engine.chooseFeatures(mtgCurrent.features, 'reorder'));
  assert.deepEqual(JSON.parse(server.answerLine('{"op":"hello","id":1,"protocol":"zcp/1"}')).features, ['reorder']);
});

test('steps of a withheld feature are answered unsupported, nested ones too', () => {
  const s = new Session({ bear: bear() }, { features: ['triggers', 'reorder'] });
  const refused = (step) => {
    const answer = s.call('step', { step });
    assert.equal(answer.ok, false, JSON.stringify(step));
    assert.equal(answer.error.code, 'unsupported');
    return answer.error.message;
  };
  assert.match(refused({ mark: { card: 'bear', as: 'm', kind: 'counter' } }), /'marks'/);
  assert.match(refused({ move: { card: 'bear', to: 'exile', then: { mark: { as: 'm', kind: 'effect' } } } }), /'marks'/);
  assert.match(refused({ move: { card: 'bear', to: 'exile', face: 'down' } }), /'face_down'/);
  assert.match(refused({ move_together: { moves: [{ card: 'bear', to: 'exile', face: 'down' }] } }), /'face_down'/);
  assert.match(refused({ replace: { as: 'r', card: 'any', instead: { to: 'exile' } } }), /'replacement'/);
  assert.match(refused({ state_check: null }), /'state_check'/);
  assert.equal(s.obj('bear').zone, 'battlefield', 'nothing was applied');
  // what it declares still works; sub_cards it never had: the rules answer
  assert.deepEqual(s.step({ watch: { as: 't', card: 'bear' } }), ['no_move', null]);
  assert.deepEqual(s.step({ put_under: { card: 'bear', under: 'bear' } }), ['rejected', 'unsupported']);
  const face = s.call('setup', { ruleset: 'mtg-current', players: ['alice'], cards: { x: { owner: 'alice', zone: 'exile', face: 'down' } } });
  assert.equal(face.error.code, 'unsupported');
  assert.match(face.error.message, /'face_down'/);
});

// ---- the rules of mtg-current ------------------------------------------------------

test('CR 400.7, 109.4: a zone change makes a new object, without a controller off the battlefield', () => {
  const s = new Session({ bear: bear({ controller: 'bob' }) });
  const before = s.obj('bear').object;
  assert.deepEqual(s.step({ move: { card: 'bear', to: 'graveyard', cause: 'destroy' } }), ['moved', null]);
  const o = s.obj('bear');
  assert.deepEqual([o.zone, o.controller, o.position, o.came_from], ['alice.graveyard', null, 0, null]);
  assert.notEqual(o.object, before);
});

test("CR 400.3: another player's graveyard, hand or library means the owner's", () => {
  const s = new Session({ x: bear({ owner: 'bob', controller: 'alice' }) });
  assert.deepEqual(s.step({ move: { card: 'x', to: 'alice.hand' } }), ['redirected', null]);
  assert.equal(s.obj('x').zone, 'bob.hand');
});

test('CR 400.4a, 400.4b: an instant stays off the battlefield, a plane in the command zone', () => {
  const s = new Session({ bolt: { owner: 'alice', zone: 'hand', types: ['instant'] }, plane: { owner: 'alice', zone: 'command', types: ['plane'] } });
  assert.deepEqual(s.step({ move: { card: 'bolt', to: 'battlefield' } }), ['stayed', 'cannot_hold']);
  assert.deepEqual(s.step({ move: { card: 'plane', to: 'outside' } }), ['stayed', 'cannot_hold']);
});

test('CR 400.8: exile to exile is a new object in place that forgets marks and references', () => {
  const s = new Session({ x: { owner: 'alice', zone: 'exile', face: 'down' } });
  s.step({ mark: { card: 'x', as: 'm', kind: 'effect' } });
  s.step({ remember: { as: 'r', card: 'x' } });
  assert.deepEqual(s.step({ move: { card: 'x', to: 'exile' } }), ['new_object_in_place', null]);
  const seen = s.observe();
  assert.deepEqual([seen.objects.x.marks, seen.objects.x.face, seen.refs.r], [[], 'up', { found: false, handle: null }]);
  assert.deepEqual(s.step({ move: { ref: 'r', to: 'hand' } }), ['not_found', 'not_found']);
});

test('CR 400.9: turned face down in the command zone it is a new object; on the battlefield not', () => {
  const s = new Session({ scheme: { owner: 'alice', zone: 'command', types: ['scheme'] }, bear: bear() });
  const ids = [s.obj('scheme').object, s.obj('bear').object];
  assert.deepEqual(s.step({ turn_face: { card: 'scheme', face: 'down' } }), ['new_object_in_place', null]);
  assert.deepEqual(s.step({ turn_face: { card: 'bear', face: 'down' } }), ['no_move', null]);
  assert.deepEqual(s.step({ turn_face: { card: 'bear', face: 'down' } }), ['failed', 'already']);
  assert.notEqual(s.obj('scheme').object, ids[0]);
  assert.equal(s.obj('bear').object, ids[1]);
});

test('CR 400.7j: the rest of an effect finds what it moved only in a public zone', () => {
  const s = new Session({ a: bear(), b: bear() });
  s.step({ move: { card: 'a', to: 'exile', face: 'down', then: { mark: { as: 'ma', kind: 'effect' } } } });
  s.step({ move: { card: 'b', to: 'hand', then: { mark: { as: 'mb', kind: 'effect' } } } });
  assert.deepEqual(s.obj('a').marks, ['ma']);
  assert.deepEqual(s.obj('b').marks, []);
});

test('CR 400.7e, 603.6: a trigger finds its object in a public zone, while it stays there', () => {
  const s = new Session({ aura: bear({ types: ['enchantment'], subtypes: ['aura'] }), bear: bear() });
  s.step({ watch: { as: 't', card: 'aura', from: 'battlefield', to: 'graveyard', types: ['aura'] } });
  s.step({ watch: { as: 'h', card: 'bear', to: 'hand' } });
  assert.deepEqual(s.step({ resolve: { trigger: 't' } }), ['not_found', 'not_fired']);
  s.step({ move: { card: 'aura', to: 'graveyard' } });
  s.step({ move: { card: 'bear', to: 'hand' } });
  assert.deepEqual(s.observe().triggers.t, { fired: true, found: null, controller: 'alice' });
  assert.deepEqual(s.step({ resolve: { trigger: 't', do: { move: { to: 'hand' } } } }), ['moved', null]);
  assert.deepEqual(s.step({ resolve: { trigger: 'h', do: { move: { to: 'graveyard' } } } }), ['not_found', 'not_found']);
  const seen = s.observe();
  assert.deepEqual([seen.objects.aura.zone, seen.triggers.t.found, seen.triggers.h.found], ['alice.hand', true, false]);
});

test('CR 702.26b, 702.26d: phasing is a status; a phased-out permanent cannot be moved or turned', () => {
  const s = new Session({ bear: bear({ controller: 'bob' }) });
  s.step({ mark: { card: 'bear', as: 'c', kind: 'counter' } });
  s.step({ watch: { as: 't', card: 'bear' } });
  const id = s.obj('bear').object;
  assert.deepEqual(s.step({ phase: { card: 'bear' } }), ['no_move', null]);
  assert.deepEqual(s.step({ phase: { card: 'bear', out: true } }), ['failed', 'already']);
  assert.deepEqual(s.step({ move: { card: 'bear', to: 'graveyard' } }), ['failed', 'phased_out']);
  assert.deepEqual(s.step({ turn_face: { card: 'bear', face: 'up' } }), ['failed', 'phased_out']);
  assert.deepEqual(s.step({ control: { card: 'bear', player: 'alice' } }), ['failed', 'phased_out']);
  const o = s.obj('bear');
  assert.deepEqual([o.object, o.controller, o.marks, o.phased_out], [id, 'bob', ['c'], true]);
  assert.equal(s.observe().triggers.t.fired, false);
});

test('CR 111.8, 704.5d: a token that left the battlefield stays put, then ceases; phased out it survives', () => {
  const s = new Session({ t: bear({ kind: 'token' }), p: bear({ kind: 'token' }) });
  s.step({ move: { card: 't', to: 'graveyard' } });
  assert.deepEqual(s.step({ move: { card: 't', to: 'exile' } }), ['stayed', 'token_left']);
  s.step({ phase: { card: 'p' } });
  assert.deepEqual(s.step({ state_check: {} }), ['ceased', null]);
  const seen = s.observe();
  assert.deepEqual([seen.objects.t.exists, seen.objects.t.zone, seen.objects.p.exists], [false, '', true]);
  assert.deepEqual(s.step({ move: { card: 't', to: 'hand' } }), ['not_found', 'not_found']);
});

test('CR 303.4, 704.5m-n, 702.26g: attachments end with a zone change; an Aura then goes to the graveyard, an Equipment stays; both phase with their permanent', () => {
  const s = new Session({
    bear: bear(), wolf: bear(),
    rancor: { owner: 'bob', zone: 'battlefield', types: ['enchantment'], subtypes: ['aura'] },
    sword: { owner: 'alice', zone: 'battlefield', types: ['artifact'], subtypes: ['equipment'] },
  });
  assert.deepEqual(s.step({ attach: { card: 'rancor', to: 'rancor' } }), ['failed', 'cannot_hold']);
  assert.deepEqual(s.step({ attach: { card: 'rancor', to: 'wolf' } }), ['no_move', null]);
  assert.deepEqual(s.step({ attach: { card: 'sword', to: 'wolf' } }), ['no_move', null]);
  assert.equal(s.obj('rancor').attached_to, 'wolf');
  assert.equal(s.obj('wolf').attached_to, undefined);
  s.step({ phase: { card: 'wolf', out: true } });
  assert.deepEqual([s.obj('rancor').phased_out, s.obj('rancor').attached_to, s.obj('sword').phased_out], [true, 'wolf', true]);
  assert.deepEqual(s.step({ state_check: {} }), ['no_move', null]);
  s.step({ phase: { card: 'wolf', out: false } });
  assert.deepEqual([s.obj('rancor').phased_out, s.obj('sword').attached_to], [false, 'wolf']);
  const before = s.observe();
  s.step({ move: { card: 'wolf', to: 'graveyard' } });
  const after = s.observe();
  assert.equal(after.objects.rancor.attached_to, undefined);
  assert.equal(engine.observationDelta(before, after).objects.rancor.attached_to, null);
  assert.deepEqual(s.step({ state_check: {} }), ['moved', null]);
  assert.deepEqual([s.obj('rancor').zone, s.obj('sword').zone], ['bob.graveyard', 'battlefield']);
});

test('CR 704.5e: a copy of a spell off the stack ceases; CR 704.5b: drawing from an empty library loses', () => {
  const s = new Session({ copy: { owner: 'alice', zone: 'stack', kind: 'copy', types: ['instant'] } });
  s.step({ move: { card: 'copy', to: 'graveyard' } });
  assert.deepEqual(s.step({ draw: { player: 'bob' } }), ['no_move', null]);
  assert.equal(s.observe().players.bob.lost, false);
  assert.deepEqual(s.step({ state_check: null }), ['ceased', null]);
  const seen = s.observe();
  assert.deepEqual([seen.objects.copy.exists, seen.players.bob.lost, seen.players.alice.lost], [false, true, false]);
});

test('CR 400.7a, 400.7c: a permanent spell keeps characteristic and prevention marks', () => {
  const s = new Session({ golem: { owner: 'alice', zone: 'stack', types: ['artifact'] } });
  for (const kind of ['characteristic', 'prevention', 'counter', 'effect']) s.step({ mark: { card: 'golem', as: kind, kind } });
  s.step({ move: { card: 'golem', to: 'battlefield', cause: 'resolve' } });
  assert.deepEqual(s.obj('golem').marks.sort(), ['characteristic', 'prevention']);
});

test('CR 616.1: replacements in the order chosen by the controller, each once', () => {
  const s = new Session({ c: bear({ owner: 'bob', controller: 'alice' }), x: { owner: 'bob', zone: 'library' } });
  s.step({ replace: { as: 'shuffle', card: 'c', when: { to: 'graveyard' }, instead: { to: 'library', shuffle: true, seed: 3 } } });
  s.step({ replace: { as: 'exile', card: 'any', when: { to: 'graveyard' }, instead: { to: 'exile' } } });
  assert.deepEqual(s.step({ choose_replacement: { order: ['exile'], player: 'bob', card: 'c' } }), ['rejected', 'wrong_player']);
  assert.deepEqual(s.step({ choose_replacement: { order: ['exile'], player: 'alice', card: 'c' } }), ['no_move', null]);
  assert.deepEqual(s.step({ move: { card: 'c', to: 'graveyard', cause: 'destroy' } }), ['replaced', null]);
  assert.equal(s.obj('c').zone, 'exile');
});

// ---- feature cant: "can't" effects on moves (CR 614.17) ------------------------------

test('CR 614.17: a move a can\'t effect forbids fails (forbidden): nothing moves, no trigger, no then:; other moves go on', () => {
  const s = new Session({
    ghoul: { owner: 'alice', zone: 'graveyard', types: ['creature'] },
    wall: { owner: 'alice', zone: 'graveyard', types: ['creature'] },
    forest: { owner: 'alice', zone: 'graveyard', types: ['land'] },
  });
  s.step({ watch: { as: 't', card: 'ghoul', to: 'battlefield' } });
  s.step({ remember: { as: 'r', card: 'ghoul' } });
  const before = s.obj('ghoul');
  assert.deepEqual(s.step({ cant: { card: 'any', when: { from: 'graveyard', to: 'battlefield' }, types: ['creature'] } }), ['no_move', null]);
  const answer = s.call('step', { step: { move: { card: 'ghoul', from: 'graveyard', to: 'battlefield', then: { mark: { as: 'm', kind: 'counter' } } } } });
  assert.deepEqual([answer.outcome, answer.error, answer.events], ['failed', 'forbidden', []]);
  const seen = s.observe();
  assert.deepEqual(seen.objects.ghoul, before, 'the same object, where it was, without the mark');
  assert.deepEqual([seen.triggers.t.fired, seen.refs.r.found], [false, true]);
  // a card of another type, and a move to another zone, are not what it names
  assert.deepEqual(s.step({ move: { card: 'forest', from: 'graveyard', to: 'battlefield' } }), ['moved', null]);
  assert.deepEqual(s.step({ move: { card: 'wall', from: 'graveyard', to: 'hand' } }), ['moved', null]);
  // draw and mill take the top card one at a time: a card that can't leave stops them
  const t = new Session({ a: { owner: 'alice', zone: 'library', position: 0 }, b: { owner: 'alice', zone: 'library', position: 1 } });
  t.step({ cant: { card: 'a', when: { cause: 'draw' } } });
  assert.deepEqual(t.step({ draw: { player: 'alice', count: 2 } }), ['failed', 'forbidden']);
  assert.deepEqual([t.obj('a').zone, t.obj('b').zone], ['alice.library', 'alice.library']);
  assert.deepEqual(t.step({ mill: { player: 'alice', count: 2 } }), ['moved', null]);
});

test('CR 614.17: a forbidden move fails before it would stay or cease, after the checks of where the object is', () => {
  const s = new Session({
    bolt: { owner: 'alice', zone: 'hand', types: ['instant'] },
    ab: { owner: 'alice', zone: 'stack', kind: 'ability' },
    x: { owner: 'alice', zone: 'exile' },
    g: { owner: 'alice', zone: 'graveyard' },
    p: bear(),
  });
  s.step({ phase: { card: 'p' } });
  s.step({ cant: { card: 'any' } });
  assert.deepEqual(s.step({ move: { card: 'bolt', to: 'battlefield' } }), ['failed', 'forbidden'], 'not stayed (400.4a)');
  assert.deepEqual(s.step({ move: { card: 'ab', to: 'graveyard' } }), ['failed', 'forbidden'], 'not ceased');
  assert.equal(s.obj('ab').exists, true);
  assert.deepEqual(s.step({ move: { card: 'x', to: 'exile' } }), ['failed', 'forbidden'], 'exile to exile would make a new object (400.8)');
  assert.deepEqual(s.step({ move: { card: 'g', to: 'graveyard' } }), ['no_move', null], 'a move to where it is is no event');
  assert.deepEqual(s.step({ move: { card: 'g', from: 'hand', to: 'exile' } }), ['failed', 'not_in_zone']);
  assert.deepEqual(s.step({ move: { card: 'p', to: 'exile' } }), ['failed', 'phased_out']);
  // create is no move, but a token that can't enter the battlefield is not
  // created there (CR 111.5); elsewhere the effect does not apply to it
  assert.deepEqual(s.step({ create: { as: 'tok', owner: 'alice', zone: 'battlefield' } }), ['failed', 'forbidden']);
  assert.deepEqual(s.step({ create: { as: 'tok2', owner: 'alice', zone: 'graveyard' } }), ['moved', null]);
});

test('CR 614.17c: an event that can\'t happen is replaced only by a self-replacement effect; the event as finally replaced is judged', () => {
  const s = new Session({
    zombie: { owner: 'alice', zone: 'graveyard', types: ['creature'] },
    spirit: { owner: 'alice', zone: 'graveyard', types: ['creature'] },
  });
  s.step({ replace: { as: 'exile_instead', card: 'any', when: { from: 'graveyard', to: 'battlefield' }, instead: { to: 'exile' } } });
  s.step({ cant: { card: 'any', when: { from: 'graveyard', to: 'battlefield' } } });
  assert.deepEqual(s.step({ move: { card: 'zombie', from: 'graveyard', to: 'battlefield' } }), ['failed', 'forbidden']);
  assert.equal(s.obj('zombie').zone, 'alice.graveyard', 'the ordinary replacement did not make it an exile');
  s.step({ replace: { as: 'own', card: 'spirit', category: 'self', when: { from: 'graveyard', to: 'battlefield' }, instead: { to: 'hand' } } });
  assert.deepEqual(s.step({ move: { card: 'spirit', from: 'graveyard', to: 'battlefield' } }), ['replaced', null]);
  assert.equal(s.obj('spirit').zone, 'alice.hand');
  // an allowed event that a replacement turns into a forbidden one fails;
  // the replacement's cause counts (G8)
  const t = new Session({ a: bear(), b: bear() });
  t.step({ cant: { card: 'any', when: { cause: 'sacrifice' } } });
  t.step({ replace: { as: 'r', card: 'a', when: { to: 'graveyard' }, instead: { to: 'exile', cause: 'sacrifice' } } });
  assert.deepEqual(t.step({ move: { card: 'a', to: 'graveyard', cause: 'destroy' } }), ['failed', 'forbidden']);
  assert.deepEqual(t.step({ move: { card: 'b', to: 'graveyard', cause: 'destroy' } }), ['moved', null]);
  assert.equal(t.obj('a').zone, 'battlefield');
});

test('CR 614.17d, 708.2a: a can\'t effect judges a card as it would be on the battlefield; face down it is a creature and nothing else', () => {
  const s = new Session({
    forest: { owner: 'alice', zone: 'library', types: ['land'] },
    island: { owner: 'alice', zone: 'hand', types: ['land'] },
    bear: { owner: 'alice', zone: 'hand', types: ['creature'] },
    morph: bear({ face: 'down', types: ['land'] }),
  });
  s.step({ cant: { card: 'any', when: { to: 'battlefield' }, types: ['creature'] } });
  assert.deepEqual(s.step({ move: { card: 'forest', from: 'library', to: 'battlefield', face: 'down' } }), ['failed', 'forbidden']);
  assert.deepEqual([s.obj('forest').zone, s.obj('forest').position], ['alice.library', 0]);
  assert.deepEqual(s.step({ move: { card: 'bear', from: 'hand', to: 'battlefield' } }), ['failed', 'forbidden']);
  assert.deepEqual(s.step({ move: { card: 'island', from: 'hand', to: 'battlefield' } }), ['moved', null]);
  assert.deepEqual(s.step({ move: { card: 'bear', from: 'hand', to: 'exile' } }), ['moved', null]);
  // leaving the battlefield, a face-down permanent is a creature, not its land
  s.step({ cant: { card: 'any', when: { from: 'battlefield' }, types: ['land'] } });
  assert.deepEqual(s.step({ move: { card: 'morph', to: 'hand' } }), ['moved', null]);
  assert.deepEqual(s.step({ move: { card: 'island', to: 'hand' } }), ['failed', 'forbidden']);
});

test('CR 614.17a: a can\'t effect undoes nothing; one naming a card follows it, new object or not', () => {
  const s = new Session({
    ghoul: { owner: 'alice', zone: 'graveyard', types: ['creature'] },
    imp: { owner: 'bob', zone: 'hand', types: ['creature'] },
  });
  assert.deepEqual(s.step({ move: { card: 'ghoul', from: 'graveyard', to: 'battlefield' } }), ['moved', null]);
  const entered = s.obj('ghoul');
  s.step({ cant: { card: 'any', when: { from: 'graveyard', to: 'battlefield' } } });
  assert.deepEqual(s.obj('ghoul'), entered, 'what already happened stays');
  s.step({ cant: { card: 'imp', when: { to: 'graveyard' } } });
  assert.deepEqual(s.step({ move: { card: 'imp', from: 'hand', to: 'graveyard', cause: 'discard' } }), ['failed', 'forbidden']);
  assert.deepEqual(s.step({ move: { card: 'imp', from: 'hand', to: 'battlefield' } }), ['moved', null]);
  assert.deepEqual(s.step({ move: { card: 'imp', to: 'graveyard', cause: 'destroy' } }), ['failed', 'forbidden'], 'the new object still');
  assert.deepEqual(s.step({ move: { card: 'ghoul', to: 'graveyard', cause: 'destroy' } }), ['moved', null]);
  assert.deepEqual(s.step({ move: { card: 'ghoul', from: 'graveyard', to: 'battlefield' } }), ['failed', 'forbidden']);
  assert.deepEqual([s.obj('ghoul').zone, s.obj('imp').zone], ['alice.graveyard', 'battlefield']);
});

test('cant: a top-level step of feature cant; malformed ones are bad requests, withheld it is unsupported', () => {
  assert.deepEqual(engine.featuresOfStep({ cant: { card: 'any' } }), new Set(['cant']));
  assert.equal(mtgCurrent.features.indexOf('cant'), mtgCurrent.features.indexOf('phasing_together') + 1);
  const s = new Session({ b: bear() });
  const bad = [
    { cant: {} },
    { cant: { card: 'nobody' } },
    { cant: { card: 'any', when: { to: 'mars' } } },
    { cant: { card: 'any', when: { by: 'effect' } } },
    { cant: { card: 'any', types: 'creature' } },
    { cant: { card: 'any', until: 'end_of_turn' } },
    { move: { card: 'b', to: 'exile', then: { cant: { card: 'any' } } } },
    { move: { card: 'b', to: 'stack', cause: 'cast', costs: [{ cant: { card: 'any' } }] } },
  ];
  for (const step of bad) assert.equal(s.call('step', { step }).error.code, 'bad_request', JSON.stringify(step));
  assert.deepEqual(s.step({ move: { card: 'b', to: 'exile' } }), ['moved', null], 'no effect was put in force');
  const partial = new Session({ b: bear() }, { features: ['triggers'] });
  const answer = partial.call('step', { step: { cant: { card: 'any' } } });
  assert.equal(answer.error.code, 'unsupported');
  assert.match(answer.error.message, /'cant'/);
});

// ---- feature draw_replacement: effects replacing draws (CR 614.11) ----------------

/** The handles in a zone, top first (ordered zones) or as observed. */
const handlesIn = (s, zone) => {
  const objects = s.observe().objects;
  return Object.keys(objects).filter((h) => objects[h].exists && objects[h].zone === zone)
    .sort((x, y) => (objects[x].position ?? 0) - (objects[y].position ?? 0));
};

test('CR 614.11, 704.5b: a draw from an empty library that is replaced loses nothing; once: only the next draw', () => {
  const s = new Session({ troll: { owner: 'alice', zone: 'graveyard', types: ['creature'] } });
  assert.deepEqual(s.step({ replace_draw: { as: 'dredge', player: 'alice', once: true, instead: [{ move: { card: 'troll', from: 'graveyard', to: 'hand' } }] } }), ['no_move', null]);
  const before = s.obj('troll').object;
  const answer = s.call('step', { step: { draw: { player: 'alice' } } });
  assert.deepEqual([answer.outcome, answer.error, answer.events], ['replaced', null, [{ handle: 'troll', outcome: 'moved' }]]);
  assert.equal(s.obj('troll').zone, 'alice.hand');
  assert.notEqual(s.obj('troll').object, before, 'a new object (400.7)');
  s.step({ state_check: null });
  assert.equal(s.observe().players.alice.lost, false);
  // used up: this draw is an unreplaced draw from an empty library
  assert.deepEqual(s.step({ draw: { player: 'alice' } }), ['no_move', null]);
  s.step({ state_check: null });
  assert.equal(s.observe().players.alice.lost, true);
  // bob's draws were never replaced
  const t = new Session({ x: { owner: 'alice', zone: 'graveyard' } });
  t.step({ replace_draw: { as: 'd', player: 'alice', instead: [{ move: { card: 'x', to: 'exile' } }] } });
  t.step({ draw: { player: 'bob' } });
  t.step({ state_check: null });
  assert.deepEqual([t.observe().players.bob.lost, t.obj('x').zone], [true, 'alice.graveyard']);
});

test('CR 614.11: without once: every draw is replaced, one at a time (121.2), even by nothing; only draws, never moves', () => {
  const s = new Session({
    a: { owner: 'alice', zone: 'library', position: 0 },
    b: { owner: 'alice', zone: 'library', position: 1 },
  });
  s.step({ replace_draw: { as: 'nothing', player: 'alice', instead: [] } });
  const answer = s.call('step', { step: { draw: { player: 'alice', count: 3 } } });
  assert.deepEqual([answer.outcome, answer.events], ['replaced', []]);
  assert.deepEqual(handlesIn(s, 'alice.library'), ['a', 'b']);
  // a move of a library's card to the hand with cause draw is a move, not a draw
  assert.deepEqual(s.step({ move: { card: 'a', to: 'hand', cause: 'draw' } }), ['moved', null]);
  // and an empty library replaced by nothing is no loss either
  const t = new Session({});
  t.step({ replace_draw: { as: 'skip', player: 'bob', instead: [] } });
  assert.deepEqual(t.step({ draw: { player: 'bob', count: 2 } }), ['replaced', null]);
  t.step({ state_check: null });
  assert.equal(t.observe().players.bob.lost, false);
});

test('CR 614.11a: a replaced draw among several is done whole before the next draw', () => {
  const s = new Session({
    one: { owner: 'alice', zone: 'library', position: 0 },
    two: { owner: 'alice', zone: 'library', position: 1 },
    kept: { owner: 'alice', zone: 'hand' },
  });
  s.step({ replace_draw: { as: 'put_back', player: 'alice', once: true, instead: [{ move: { card: 'kept', from: 'hand', to: 'library' } }] } });
  const answer = s.call('step', { step: { draw: { player: 'alice', count: 2 } } });
  // the first draw put kept on top; the second drew it
  assert.deepEqual([answer.outcome, answer.events], ['moved', [{ handle: 'kept', outcome: 'moved' }, { handle: 'kept', outcome: 'moved' }]]);
  assert.deepEqual(handlesIn(s, 'alice.library'), ['one', 'two']);
  assert.deepEqual(handlesIn(s, 'alice.hand'), ['kept']);
});

test('CR 614.11b, 614.5: draw then: follows only what the draw itself drew; a replacement never replaces its own draws', () => {
  const cards = Object.fromEntries(['one', 'two', 'three', 'four'].map((h, i) => [h, { owner: 'alice', zone: 'library', position: i }]));
  const s = new Session(cards);
  // unreplaced, each card drawn is revealed right after its draw
  const first = s.call('step', { step: { draw: { player: 'alice', then: { reveal: {} } } } });
  assert.deepEqual([first.outcome, first.events], ['moved', [{ handle: 'one', outcome: 'moved' }]]);
  assert.equal(s.obj('one').visibility, 'public');
  // draw two instead: its own draw of two is not replaced again (614.5),
  // and neither card it drew is revealed (614.11b)
  s.step({ replace_draw: { as: 'twice', player: 'alice', instead: [{ draw: { player: 'alice', count: 2 } }] } });
  const answer = s.call('step', { step: { draw: { player: 'alice', then: { reveal: {} } } } });
  assert.equal(answer.outcome, 'replaced');
  assert.deepEqual(answer.events, [{ handle: 'two', outcome: 'moved' }, { handle: 'three', outcome: 'moved' }]);
  assert.deepEqual(['two', 'three'].map((h) => s.obj(h).visibility), ['private', 'private']);
  assert.deepEqual(s.observe().visible.bob, ['one']);
  assert.deepEqual(handlesIn(s, 'alice.library'), ['four']);
  // it is in force again after its own steps: the next draw is replaced too,
  // drawing four and then from the empty library (a real draw: a loss)
  assert.deepEqual(s.step({ draw: { player: 'alice' } }), ['replaced', null]);
  s.step({ state_check: null });
  assert.equal(s.observe().players.alice.lost, true);
});

test('CR 614.5, 616.1: another draw replacement may replace a replacement\'s own draw; the chosen order decides which applies', () => {
  const cards = {
    top: { owner: 'alice', zone: 'library', position: 0 },
    g1: { owner: 'alice', zone: 'graveyard' },
    g2: { owner: 'alice', zone: 'graveyard' },
  };
  const s = new Session(cards);
  s.step({ replace_draw: { as: 'first', player: 'alice', instead: [{ move: { card: 'g1', to: 'hand' } }, { draw: { player: 'alice' } }] } });
  s.step({ replace_draw: { as: 'second', player: 'alice', once: true, instead: [{ move: { card: 'g2', to: 'exile' } }] } });
  // first replaces the draw; its own draw is replaced by second, not by itself
  const answer = s.call('step', { step: { draw: { player: 'alice' } } });
  assert.deepEqual([answer.outcome, answer.events], ['replaced', [{ handle: 'g1', outcome: 'moved' }, { handle: 'g2', outcome: 'moved' }]]);
  assert.deepEqual([s.obj('top').zone, s.obj('g1').zone, s.obj('g2').zone], ['alice.library', 'alice.hand', 'exile']);
  // choose_replacement orders draw replacements among the others by name
  const t = new Session(cards);
  t.step({ replace_draw: { as: 'a', player: 'alice', instead: [{ move: { card: 'g1', to: 'exile' } }] } });
  t.step({ replace: { as: 'm', card: 'any', when: { to: 'hand' }, instead: { to: 'graveyard' } } });
  t.step({ replace_draw: { as: 'b', player: 'alice', instead: [{ move: { card: 'g2', to: 'exile' } }] } });
  assert.deepEqual(t.step({ choose_replacement: { order: ['b', 'm', 'a'] } }), ['no_move', null]);
  assert.deepEqual(t.step({ draw: { player: 'alice' } }), ['replaced', null]);
  assert.deepEqual([t.obj('g1').zone, t.obj('g2').zone], ['alice.graveyard', 'exile']);
});

test('draw then: not done to a drawn card that did not end in the hand; a step of it that throws undoes the whole draw', () => {
  const s = new Session({ a: { owner: 'alice', zone: 'library', position: 0 }, b: { owner: 'alice', zone: 'library', position: 1 } });
  s.step({ replace: { as: 'r', card: 'a', when: { cause: 'draw' }, instead: { to: 'exile' } } });
  const answer = s.call('step', { step: { draw: { player: 'alice', count: 2, then: { mark: { as: 'm', kind: 'counter' } } } } });
  assert.deepEqual([answer.outcome, answer.events], ['moved', [{ handle: 'a', outcome: 'replaced' }, { handle: 'b', outcome: 'moved' }]]);
  assert.deepEqual([s.obj('a').marks, s.obj('b').marks], [[], ['m']]);
  // a replacement's step that throws: the draw is undone, the effect still in force
  const t = new Session({ c: { owner: 'alice', zone: 'library' } });
  t.step({ replace_draw: { as: 'once', player: 'alice', once: true, instead: [{ move: { card: 'c', to: 'exile', then: { mark: { as: 'x', kind: 'nonsense' } } } }] } });
  assert.equal(t.call('step', { step: { draw: { player: 'alice' } } }).error.code, 'bad_request');
  assert.equal(t.obj('c').zone, 'alice.library');
  const state = t.server.game.s.replacements.get('once');
  assert.deepEqual([state.active, state.running], [true, false], 'restored by the snapshot');
});

test('draw and mill outcome: a card taken that ceased or stayed is the step\'s outcome, not an empty library\'s', () => {
  // regressions/mill-of-an-object-that-ceases-is-no-empty-mill
  const s = new Session({ c2: { owner: 'bob', zone: 'stack', kind: 'copy' } }, { players: ['alice', 'bob', 'carol'] });
  assert.deepEqual(s.step({ move: { card: 'c2', to: 'library' } }), ['moved', null]);
  s.step({ replace: { as: 'p2', card: 'any', category: 'self', when: { to: 'any' }, instead: { to: 'outside' } } });
  assert.deepEqual(s.step({ mill: { player: 'bob', count: 2 } }), ['ceased', null]);
  assert.equal(s.obj('c2').exists, false);
  // nothing taken at all: failed, empty
  assert.deepEqual(s.step({ mill: { player: 'bob', count: 2 } }), ['failed', 'empty']);
  // a card milled and then an empty library: moved
  const t = new Session({ a: { owner: 'alice', zone: 'library' } });
  assert.deepEqual(t.step({ mill: { player: 'alice', count: 3 } }), ['moved', null]);
  // a draw: a card drawn beats a replaced draw
  const u = new Session({ a: { owner: 'alice', zone: 'library' }, g: { owner: 'alice', zone: 'graveyard' } });
  u.step({ replace_draw: { as: 'd', player: 'alice', once: true, instead: [{ move: { card: 'g', to: 'exile' } }] } });
  assert.deepEqual(u.step({ draw: { player: 'alice', count: 2 } }), ['moved', null]);
  assert.deepEqual([u.obj('a').zone, u.obj('g').zone], ['alice.hand', 'exile']);
});

test('replace_draw: a top-level step of feature draw_replacement; malformed ones are bad requests, withheld it is unsupported', () => {
  assert.deepEqual(engine.featuresOfStep({ replace_draw: { as: 'd', player: 'alice', instead: [{ mark: { card: 'b', as: 'm', kind: 'counter' } }] } }),
    new Set(['draw_replacement', 'marks']));
  assert.deepEqual(engine.featuresOfStep({ draw: { player: 'alice', then: { reveal: {} } } }), new Set(['draw_then', 'reveal']));
  assert.equal(mtgCurrent.features.indexOf('draw_replacement'), mtgCurrent.features.indexOf('cant') + 1);
  assert.ok(engine.KNOWN_FEATURES.includes('draw_replacement'));
  const s = new Session({ b: bear(), c: { owner: 'alice', zone: 'library' } });
  s.step({ replace: { as: 'taken', card: 'any', when: { to: 'exile' }, instead: { to: 'graveyard' } } });
  const ok = { as: 'd', player: 'alice', instead: [] };
  const bad = [
    { replace_draw: { player: 'alice', instead: [] } },
    { replace_draw: { ...ok, as: 'taken' } },
    { replace_draw: { ...ok, player: 'nobody' } },
    { replace_draw: { as: 'd', player: 'alice' } },
    { replace_draw: { ...ok, instead: { move: { card: 'b', to: 'exile' } } } },
    { replace_draw: { ...ok, instead: [{ move: { card: 'b', to: 'exile' }, mark: { card: 'b', as: 'm', kind: 'counter' } }] } },
    { replace_draw: { ...ok, instead: [{ teleport: {} }] } },
    { replace_draw: { ...ok, instead: [{ create: { as: 't', owner: 'alice', zone: 'battlefield' } }] } },
    { replace_draw: { ...ok, instead: [{ replace_draw: ok }] } },
    { replace_draw: { ...ok, instead: [{ move: { card: 'b', to: 'stack', cause: 'cast', costs: [{ mark: { card: 'b', as: 'm', kind: 'counter' } }] } }] } },
    { replace_draw: { ...ok, once: 'yes' } },
    { replace_draw: { ...ok, when: {} } },
    { move: { card: 'b', to: 'exile', then: { replace_draw: ok } } },
    { move: { card: 'b', to: 'stack', cause: 'cast', costs: [{ replace_draw: ok }] } },
    { draw: { player: 'alice', then: 'reveal' } },
    { draw: { player: 'alice', then: { reveal: { card: 'b' } } } },
    { draw: { player: 'alice', then: { create: { as: 't', owner: 'alice', zone: 'battlefield' } } } },
    { move: { card: 'b', to: 'exile', then: { draw: { player: 'alice', then: { reveal: {} } } } } },
  ];
  for (const step of bad) assert.equal(s.call('step', { step }).error.code, 'bad_request', JSON.stringify(step));
  // no effect was put in force: alice's draw is a draw
  assert.deepEqual(s.step({ draw: { player: 'alice' } }), ['moved', null]);
  assert.equal(s.obj('c').zone, 'alice.hand');
  const partial = new Session({ b: bear() }, { features: ['triggers'] });
  const answer = partial.call('step', { step: { replace_draw: ok } });
  assert.equal(answer.error.code, 'unsupported');
  assert.match(answer.error.message, /'draw_replacement'/);
  // a draw replacement's steps need their own features too
  const marks = new Session({ b: bear() }, { features: ['draw_replacement'] });
  const nested = marks.call('step', { step: { replace_draw: { ...ok, instead: [{ mark: { card: 'b', as: 'm', kind: 'counter' } }] } } });
  assert.match(nested.error.message, /'marks'/);
  assert.deepEqual(marks.step({ replace_draw: ok }), ['no_move', null]);
});

// ---- the untap step, players leaving, triggers on phasing out ---------------------

/** A step's whole answer: [outcome, error, events as "handle:outcome"]. */
const stepEvents = (s, step) => {
  const answer = s.call('step', { step });
  assert.equal(answer.ok, true, JSON.stringify(answer));
  return [answer.outcome, answer.error, answer.events.map((e) => `${e.handle}:${e.outcome}`)];
};

test('untap, leave_game, phasing_triggers: three wholes after draw_replacement; withheld they are unsupported, nested or malformed bad requests', () => {
  const at = mtgCurrent.features.indexOf('draw_replacement');
  assert.deepEqual(mtgCurrent.features.slice(at + 1, at + 4), ['untap_phasing', 'leave_game', 'phasing_triggers']);
  for (const f of ['untap_phasing', 'leave_game', 'phasing_triggers']) assert.ok(engine.KNOWN_FEATURES.includes(f));
  assert.deepEqual(engine.featuresOfStep({ untap: { player: 'alice', phasing: ['b'] } }), new Set(['untap_phasing']));
  assert.deepEqual(engine.featuresOfStep({ leave_game: { player: 'alice' } }), new Set(['leave_game']));
  assert.deepEqual(engine.featuresOfStep({ watch: { as: 't', card: 'b', phase: 'out' } }), new Set(['triggers', 'phasing_triggers']));
  assert.deepEqual(engine.featuresOfStep({ watch: { as: 't', card: 'b', from: 'battlefield' } }), new Set(['triggers']));
  const s = new Session({ b: bear(), c: bear() });
  const bad = [
    { untap: { phasing: [] } },
    { untap: { player: 'nobody' } },
    { untap: { player: 'alice', phasing: 'b' } },
    { untap: { player: 'alice', phasing: ['b', 'b'] } },
    { untap: { player: 'alice', phasing: ['nothing'] } },
    { untap: { player: 'alice', out: true } },
    { leave_game: {} },
    { leave_game: { player: 'nobody' } },
    { leave_game: { player: 'alice', phasing: [] } },
    { move: { card: 'b', to: 'exile', then: { untap: { player: 'alice' } } } },
    { move: { card: 'b', to: 'exile', then: { leave_game: { player: 'alice' } } } },
    { move: { card: 'b', to: 'stack', cause: 'cast', costs: [{ leave_game: { player: 'bob' } }] } },
    { watch: { as: 't', card: 'b', phase: 'in' } },
    { watch: { as: 't', card: 'b', phase: true } },
    { watch: { as: 't', card: 'b', phase: 'out', from: 'battlefield' } },
    { watch: { as: 't', card: 'b', phase: 'out', to: 'any' } },
    { watch: { as: 't', card: 'b', phase: 'out', cause: 'destroy' } },
    { watch: { as: 't', card: 'b', phase: 'out', aura: 'c' } },
  ];
  for (const step of bad) assert.equal(s.call('step', { step }).error.code, 'bad_request', JSON.stringify(step));
  assert.deepEqual(s.observe().players, { alice: { lost: false }, bob: { lost: false } });
  assert.deepEqual([s.obj('b').phased_out, s.obj('b').zone], [false, 'battlefield']);
  const partial = new Session({ b: bear() }, { features: ['triggers', 'phasing'] });
  for (const [step, feature] of [
    [{ untap: { player: 'alice', phasing: ['b'] } }, 'untap_phasing'],
    [{ leave_game: { player: 'bob' } }, 'leave_game'],
    [{ watch: { as: 't', card: 'b', phase: 'out' } }, 'phasing_triggers'],
  ]) {
    const answer = partial.call('step', { step });
    assert.equal(answer.error.code, 'unsupported');
    assert.match(answer.error.message, new RegExp(`'${feature}'`));
  }
  assert.deepEqual(partial.step({ watch: { as: 'z', card: 'b', from: 'battlefield' } }), ['no_move', null]);
});

test('CR 702.26a, 702.26g, 702.26h: an untap step phases out and in at once; an Aura goes only with its creature, and back', () => {
  const s = new Session({
    sliver: bear(), wall: bear(), imp: bear(), elf: bear({ owner: 'bob' }),
    rancor: { owner: 'alice', zone: 'battlefield', types: ['enchantment'], subtypes: ['aura'] },
  });
  s.step({ attach: { card: 'rancor', to: 'sliver' } });
  s.step({ phase: { card: 'wall' } }); // phased out under alice
  s.step({ control: { card: 'imp', player: 'bob' } });
  const ids = Object.fromEntries(['sliver', 'rancor', 'wall'].map((h) => [h, s.obj(h).object]));
  const phased = () => Object.fromEntries(['sliver', 'rancor', 'wall', 'imp', 'elf'].map((h) => [h, s.obj(h).phased_out]));
  // the Aura has phasing too, but it phases out only indirectly, with the
  // sliver (702.26h); the imp is bob's now, the elf is bob's: alice's step leaves them
  const listed = ['rancor', 'sliver', 'wall', 'imp', 'elf'];
  assert.deepEqual(stepEvents(s, { untap: { player: 'alice', phasing: listed } }), ['no_move', null, []]);
  assert.deepEqual(phased(), { sliver: true, rancor: true, wall: false, imp: false, elf: false });
  assert.equal(s.obj('rancor').attached_to, 'sliver');
  // the wall phased in: decided before anything phased, it did not phase out again
  // bob's untap step: his imp and elf phase out, alice's stay as they are
  assert.deepEqual(s.step({ untap: { player: 'bob', phasing: listed } }), ['no_move', null]);
  assert.deepEqual(phased(), { sliver: true, rancor: true, wall: false, imp: true, elf: true });
  // alice's again: the sliver phases in with its Aura, still attached; the
  // wall, phased in, has phasing and phases out; none phases both ways
  assert.deepEqual(s.step({ untap: { player: 'alice', phasing: listed } }), ['no_move', null]);
  assert.deepEqual(phased(), { sliver: false, rancor: false, wall: true, imp: true, elf: true });
  assert.equal(s.obj('rancor').attached_to, 'sliver');
  // phasing is no zone change: the same objects (702.26d)
  assert.deepEqual(['sliver', 'rancor', 'wall'].map((h) => s.obj(h).object), [ids.sliver, ids.rancor, ids.wall]);
  // the Aura phased out indirectly and can't phase in by itself; nothing of bob's phases in in alice's step
  s.step({ untap: { player: 'alice', phasing: ['sliver'] } });
  assert.deepEqual(s.step({ phase: { card: 'rancor', out: false } }), ['failed', 'phased_out']);
  assert.deepEqual(phased(), { sliver: true, rancor: true, wall: false, imp: true, elf: true });
});

test('CR 702.26n: what phased out under a departed player phases in at the untap step after their turn would have begun (three players)', () => {
  const players = ['alice', 'bob', 'carol'];
  const cards = { drake: { owner: 'alice', zone: 'battlefield', types: ['creature'] }, ox: { owner: 'alice', zone: 'battlefield', types: ['creature'] } };
  const setUp = () => {
    const s = new Session(cards, { players });
    s.step({ control: { card: 'drake', player: 'bob' } });
    s.step({ phase: { card: 'drake' } }); // under bob
    return s;
  };
  // alice's turn (the first player's); bob leaves: his turn comes next, so
  // carol's untap step is after it
  const a = setUp();
  assert.deepEqual(stepEvents(a, { leave_game: { player: 'bob' } }), ['no_move', null, []]);
  assert.deepEqual([a.obj('drake').phased_out, a.obj('drake').controller], [true, 'alice']);
  assert.deepEqual(a.step({ untap: { player: 'bob' } }), ['rejected', 'wrong_player']);
  assert.deepEqual(a.step({ untap: { player: 'carol' } }), ['no_move', null]);
  assert.deepEqual([a.obj('drake').phased_out, a.obj('drake').controller], [false, 'alice']);
  // carol's turn; bob leaves: alice's untap step comes before his turn
  // would have, carol's next one after it
  const b = setUp();
  b.step({ untap: { player: 'carol' } });
  b.step({ leave_game: { player: 'bob' } });
  b.step({ untap: { player: 'alice' } });
  assert.equal(b.obj('drake').phased_out, true);
  b.step({ untap: { player: 'carol' } });
  assert.equal(b.obj('drake').phased_out, false);
  // in bob's own turn (after his untap step), the drake phases out under
  // him and he leaves: a whole round must pass; it is due once only
  const c = new Session(cards, { players });
  c.step({ control: { card: 'drake', player: 'bob' } });
  c.step({ untap: { player: 'bob' } });
  c.step({ phase: { card: 'drake' } });
  c.step({ leave_game: { player: 'bob' } });
  c.step({ untap: { player: 'carol' } });
  c.step({ untap: { player: 'alice' } });
  assert.equal(c.obj('drake').phased_out, true);
  c.step({ untap: { player: 'carol' } });
  assert.equal(c.obj('drake').phased_out, false);
  c.step({ phase: { card: 'drake' } }); // now under alice, bob's turn long past
  c.step({ untap: { player: 'carol' } });
  assert.equal(c.obj('drake').phased_out, true);
  c.step({ untap: { player: 'alice' } });
  assert.equal(c.obj('drake').phased_out, false);
});

test('CR 800.4a, 603.6c, 702.26k: a player leaving takes what they own, gives back what effects gave them, loses their abilities, and what they still control is exiled', () => {
  const s = new Session({
    bear: bear({ owner: 'carol' }), // phased in: leaves the battlefield (603.6c)
    elk: bear({ owner: 'carol' }), // phased out: leaves without a trigger (702.26k)
    lore: { owner: 'carol', zone: 'hand' }, book: { owner: 'carol', zone: 'library' },
    bones: { owner: 'carol', zone: 'graveyard' }, exiled: { owner: 'carol', zone: 'exile' },
    spell: { owner: 'carol', zone: 'stack' }, away: { owner: 'carol', zone: 'outside' },
    staked: { owner: 'carol', zone: 'ante' },
    ox: bear({ controller: 'carol' }), // set up under carol: exiled
    yak: bear(), // carol gains it until end of turn: back to alice
    ram: bear({ controller: 'bob' }), // carol gains it for good: back to bob, not its owner
    gnu: { owner: 'alice', zone: 'library', types: ['creature'] }, // carol puts it onto the battlefield: exiled
    hex: { owner: 'alice', zone: 'graveyard', types: ['creature'] }, // carol's by default, phased out: exiled quietly
    trick: { owner: 'alice', zone: 'stack', kind: 'ability', controller: 'carol' },
    twin: { owner: 'alice', zone: 'stack', kind: 'copy', controller: 'carol' },
    cast: { owner: 'alice', zone: 'stack', controller: 'carol' }, // a card: exiled
  }, { players: ['alice', 'bob', 'carol'] });
  s.step({ phase: { card: 'elk' } });
  s.step({ control: { card: 'yak', player: 'carol', until: 'end_of_turn' } });
  s.step({ control: { card: 'ram', player: 'carol' } });
  s.step({ move: { card: 'gnu', to: 'battlefield', player: 'carol' } });
  s.step({ move: { card: 'hex', to: 'battlefield', player: 'carol' } });
  s.step({ phase: { card: 'hex' } });
  for (const [as, card, more] of [['bear_left', 'bear', { from: 'battlefield' }], ['bear_gy', 'bear', { to: 'graveyard' }],
    ['bear_any', 'bear', {}], ['elk_left', 'elk', { from: 'battlefield' }], ['ox_exiled', 'ox', { to: 'exile' }],
    ['hex_exiled', 'hex', { to: 'exile' }], ['lore_left', 'lore', {}]]) {
    s.step({ watch: { as, card, ...more } });
  }
  const before = s.observe();
  const [outcome, error, events] = stepEvents(s, { leave_game: { player: 'carol' } });
  assert.deepEqual([outcome, error], ['no_move', null]);
  // 1. what carol owns ceases, in handle order; 2. control effects end;
  // 3. her ability and copy cease; 4. what she still controls is exiled
  assert.deepEqual(events, ['bear:ceased', 'elk:ceased', 'lore:ceased', 'book:ceased', 'bones:ceased', 'exiled:ceased',
    'spell:ceased', 'trick:ceased', 'twin:ceased', 'ox:moved', 'gnu:moved', 'hex:moved', 'cast:moved']);
  const after = s.observe();
  const o = after.objects;
  for (const h of ['bear', 'elk', 'lore', 'book', 'bones', 'exiled', 'spell', 'trick', 'twin']) assert.equal(o[h].exists, false, h);
  assert.deepEqual([o.away.zone, o.staked.zone], ['outside', 'ante']); // 800.4n: not the ante
  assert.deepEqual([o.yak.controller, o.ram.controller], ['alice', 'bob']);
  for (const h of ['ox', 'gnu', 'hex', 'cast']) {
    assert.deepEqual([o[h].zone, o[h].phased_out, o[h].controller], ['exile', false, null], h);
    assert.notEqual(o[h].object, before.objects[h].object, h);
  }
  const t = after.triggers;
  assert.deepEqual([t.bear_left.fired, t.bear_left.controller, t.bear_any.fired, t.bear_gy.fired], [true, 'carol', true, false]);
  assert.deepEqual([t.elk_left.fired, t.lore_left.fired], [false, false]);
  assert.deepEqual([t.ox_exiled.fired, t.ox_exiled.controller, t.hex_exiled.fired], [true, 'carol', false]);
  // the yak's until-end-of-turn effect ended with her: the end of the turn changes nothing
  s.step({ control: { card: 'yak', player: 'bob', until: 'end_of_turn' } });
  s.step({ end_turn: {} });
  assert.equal(s.obj('yak').controller, 'alice');
  // she is gone: whatever names her does nothing, a malformed step is still a bad request
  for (const step of [
    { draw: { player: 'carol' } }, { mill: { player: 'carol' } }, { untap: { player: 'carol' } },
    { leave_game: { player: 'carol' } }, { control: { card: 'yak', player: 'carol' } },
    { move: { card: 'yak', to: 'graveyard', player: 'carol' } }, { look: { card: 'away', player: 'carol' } },
    { reveal: { top_of: 'carol' } }, { create: { as: 'tok', owner: 'alice', zone: 'battlefield', controller: 'carol' } },
    { end_game: { winner: 'carol' } },
    { move_together: { moves: [{ card: 'yak', to: 'exile' }], player: 'carol' } },
  ]) {
    assert.deepEqual(stepEvents(s, step), ['rejected', 'wrong_player', []], JSON.stringify(step));
  }
  assert.deepEqual([s.obj('yak').zone, s.obj('yak').controller], ['battlefield', 'alice']);
  // a nested step naming her is rejected too: the yak stays alice's
  assert.deepEqual(s.step({ move: { card: 'yak', to: 'battlefield', then: { control: { player: 'carol' } } } }), ['no_move', null]);
  assert.equal(s.obj('yak').controller, 'alice');
  assert.equal(s.observe().objects.tok, undefined);
  assert.equal(s.call('step', { step: { create: { as: 'tok', owner: 'alice', zone: 'battlefield' } } }).error.code, 'bad_request'); // its name is taken
  assert.equal(s.call('step', { step: { draw: { player: 'carol', count: -1 } } }).error.code, 'bad_request');
  assert.deepEqual(s.step({ draw: { player: 'bob' } }), ['no_move', null]);
});

test('CR 603.10b, 702.26d, 702.26g: a trigger on phasing out looks back in time, fires on indirect phasing and the untap step, and finds the same object', () => {
  const s = new Session({
    bear: bear(), wolf: bear(), fox: bear(),
    shroud: { owner: 'bob', zone: 'battlefield', types: ['enchantment'], subtypes: ['aura'] },
  });
  s.step({ attach: { card: 'shroud', to: 'bear' } });
  s.step({ control: { card: 'wolf', player: 'bob', until: 'end_of_turn' } });
  for (const [as, card, more] of [['bear_out', 'bear', {}], ['shroud_out', 'shroud', {}], ['wolf_out', 'wolf', {}],
    ['fox_out', 'fox', {}], ['fox_land', 'fox', { types: ['land'] }]]) {
    s.step({ watch: { as, card, phase: 'out', ...more } });
  }
  s.step({ watch: { as: 'bear_left', card: 'bear', from: 'battlefield' } });
  s.step({ untap: { player: 'alice', phasing: ['fox'] } });
  assert.deepEqual(s.step({ phase: { card: 'bear' } }), ['no_move', null]);
  assert.deepEqual(s.step({ phase: { card: 'wolf' } }), ['no_move', null]);
  s.step({ end_turn: {} }); // the wolf goes back to alice, phased out (702.26f)
  let t = s.observe().triggers;
  // controlled by who controlled each just before it phased out
  assert.deepEqual(['bear_out', 'shroud_out', 'wolf_out', 'fox_out'].map((n) => [t[n].fired, t[n].controller]),
    [[true, 'alice'], [true, 'bob'], [true, 'bob'], [true, 'alice']]);
  assert.deepEqual([t.fox_land.fired, t.bear_left.fired, s.obj('wolf').controller], [false, false, 'alice']);
  // found, phased out: its effect can't move it (702.26b)
  assert.deepEqual(s.step({ resolve: { trigger: 'bear_out', do: { move: { to: 'hand' } } } }), ['failed', 'phased_out']);
  // found once phased in again: alice's untap step brings back the fox, and
  // the bear with its Aura; the wolf phased out under bob, alice's now, in bob's
  s.step({ untap: { player: 'alice' } });
  assert.deepEqual(['bear', 'shroud', 'fox', 'wolf'].map((h) => s.obj(h).phased_out), [false, false, false, true]);
  assert.deepEqual(s.step({ resolve: { trigger: 'shroud_out', do: { move: { to: 'hand' } } } }), ['moved', null]);
  assert.equal(s.obj('shroud').zone, 'bob.hand');
  s.step({ untap: { player: 'bob' } });
  assert.deepEqual([s.obj('wolf').phased_out, s.obj('wolf').controller], [false, 'alice']);
  // not after it changed zones
  s.step({ move: { card: 'wolf', to: 'graveyard' } });
  assert.deepEqual(stepEvents(s, { resolve: { trigger: 'wolf_out' } }), ['not_found', 'not_found', ['wolf:not_found']]);
  assert.deepEqual(s.step({ resolve: { trigger: 'fox_land' } }), ['not_found', 'not_fired']);
  // each fires once
  s.step({ phase: { card: 'bear' } });
  t = s.observe().triggers;
  assert.deepEqual([t.bear_out.found, t.shroud_out.found, t.wolf_out.found], [true, true, false]);
});

test('snapshot and restore cover whose turn it is, who left, and each object\'s phased_under and default controller', () => {
  const game = new MtgGame(['alice', 'bob', 'carol'], Object.entries({
    drake: bear(), ox: bear(), yak: bear({ owner: 'bob' }),
  }));
  game.step({ control: { card: 'drake', player: 'carol' } });
  game.step({ phase: { card: 'drake' } }); // under carol
  game.step({ control: { card: 'yak', player: 'carol' } });
  const saved = game.snapshot();
  const state = /** @type {any} */ (saved);
  assert.deepEqual([state.turn, [...state.departed], state.objects.get('drake').phasedUnder, state.objects.get('yak').ctrlDefault],
    ['alice', [], 'carol', 'bob']);
  assert.deepEqual(game.step({ leave_game: { player: 'carol' } }).outcome, 'no_move');
  game.step({ untap: { player: 'bob' } });
  assert.deepEqual(game.step({ draw: { player: 'carol' } }).outcome, 'rejected');
  assert.equal(game.observe().objects.yak.controller, 'bob');
  game.restore(saved);
  // carol is back, alice's turn again, the yak carol's
  assert.equal(game.observe().objects.yak.controller, 'carol');
  assert.equal(game.step({ draw: { player: 'carol' } }).outcome, 'no_move');
  // the drake phased out under carol: it phases in at her untap step
  game.step({ untap: { player: 'bob' } });
  assert.equal(game.observe().objects.drake.phased_out, true);
  game.step({ untap: { player: 'carol' } });
  assert.equal(game.observe().objects.drake.phased_out, false);
  // a step that throws after leave_game is undone with everything it touched
  const s = new Session({ ox: bear({ owner: 'bob' }) }, { players: ['alice', 'bob', 'carol'] });
  s.step({ leave_game: { player: 'carol' } });
  s.step({ untap: { player: 'bob' } });
  assert.equal(s.call('step', { step: { untap: { player: 'alice', phasing: ['ox', 'nobody'] } } }).error.code, 'bad_request');
  assert.deepEqual(s.step({ untap: { player: 'carol' } }), ['rejected', 'wrong_player']);
});

// ---- as-enters effects (CR 614.13); a departed player's trigger (800.4d) ----------

const gy = (extra = {}) => ({ owner: 'alice', zone: 'graveyard', types: ['creature'], ...extra });

test('as_enters: a top-level step of feature as_enters after phasing_triggers; malformed ones are bad requests, withheld it is unsupported', () => {
  const at = mtgCurrent.features.indexOf('phasing_triggers');
  assert.equal(mtgCurrent.features[at + 1], 'as_enters');
  assert.equal(engine.KNOWN_FEATURES[engine.KNOWN_FEATURES.indexOf('phasing_triggers') + 1], 'as_enters');
  assert.deepEqual(engine.featuresOfStep({ as_enters: { card: 'g', steps: [{ mark: { card: 'b', as: 'm', kind: 'counter' } }] } }),
    new Set(['as_enters', 'marks']));
  const s = new Session({ g: { owner: 'alice', zone: 'hand', types: ['creature'] }, b: gy({ position: 0 }) });
  const one = [{ move: { card: 'b', to: 'exile' } }];
  const bad = [
    { as_enters: { steps: one } },
    { as_enters: { card: 'nobody', steps: one } },
    { as_enters: { card: 'g' } },
    { as_enters: { card: 'g', steps: [] } },
    { as_enters: { card: 'g', steps: { move: { card: 'b', to: 'exile' } } } },
    { as_enters: { card: 'g', steps: ['move'] } },
    { as_enters: { card: 'g', steps: [{ move: { card: 'b', to: 'exile' }, mark: { card: 'b', as: 'm', kind: 'counter' } }] } },
    { as_enters: { card: 'g', steps: [{ teleport: {} }] } },
    { as_enters: { card: 'g', steps: [{ cant: { card: 'any' } }] } },
    { as_enters: { card: 'g', steps: [{ as_enters: { card: 'b', steps: one } }] } },
    { as_enters: { card: 'g', steps: [{ move: { card: 'b', to: 'stack', cause: 'cast', costs: one } }] } },
    { as_enters: { card: 'g', steps: one, ref: 'r' } },
    { move: { card: 'b', to: 'exile', then: { as_enters: { steps: one } } } },
    { move: { card: 'b', to: 'stack', cause: 'cast', costs: [{ as_enters: { card: 'g', steps: one } }] } },
    { replace_draw: { as: 'd', player: 'alice', instead: [{ as_enters: { card: 'g', steps: one } }] } },
  ];
  for (const step of bad) assert.equal(s.call('step', { step }).error.code, 'bad_request', JSON.stringify(step));
  // nothing was put in force: the ghoul enters alone
  assert.deepEqual(stepEvents(s, { move: { card: 'g', to: 'battlefield' } }), ['moved', null, ['g:moved']]);
  assert.equal(s.obj('b').zone, 'alice.graveyard');
  const partial = new Session({ g: bear() }, { features: ['triggers', 'marks'] });
  const answer = partial.call('step', { step: { as_enters: { card: 'g', steps: one } } });
  assert.equal(answer.error.code, 'unsupported');
  assert.match(answer.error.message, /'as_enters'/);
  // its steps need their own features too
  const marks = new Session({ g: bear() }, { features: ['as_enters'] });
  assert.match(marks.call('step', { step: { as_enters: { card: 'g', steps: [{ mark: { card: 'g', as: 'm', kind: 'counter' } }] } } }).error.message, /'marks'/);
  assert.deepEqual(marks.step({ as_enters: { card: 'g', steps: one } }), ['no_move', null]);
});

test('CR 614.13: as the card enters the battlefield, its steps are done first, their events before its own; every time it enters, never elsewhere', () => {
  const s = new Session({
    ghoul: { owner: 'alice', zone: 'hand', types: ['creature'] },
    zombie: gy({ position: 0 }), bat: gy({ position: 1 }), wall: gy({ position: 2 }),
  });
  assert.deepEqual(stepEvents(s, { as_enters: { card: 'ghoul', steps: [{ move: { card: 'zombie', from: 'graveyard', to: 'exile' } }] } }),
    ['no_move', null, []]);
  s.step({ as_enters: { card: 'ghoul', steps: [{ move: { card: 'bat', to: 'exile' } }] } }); // a second one runs after the first
  s.step({ watch: { as: 'exiled', card: 'zombie', to: 'exile' } });
  // the hand, the graveyard: nothing happens
  assert.deepEqual(stepEvents(s, { move: { card: 'ghoul', to: 'graveyard', cause: 'discard' } }), ['moved', null, ['ghoul:moved']]);
  const zombie = s.obj('zombie').object;
  assert.deepEqual(stepEvents(s, { move: { card: 'ghoul', from: 'graveyard', to: 'battlefield' } }),
    ['moved', null, ['zombie:moved', 'bat:moved', 'ghoul:moved']]);
  let o = s.observe();
  assert.deepEqual(['ghoul', 'zombie', 'bat', 'wall'].map((h) => o.objects[h].zone), ['battlefield', 'exile', 'exile', 'alice.graveyard']);
  assert.notEqual(o.objects.zombie.object, zombie);
  assert.deepEqual([o.triggers.exiled.fired, o.objects.ghoul.controller], [true, 'alice']);
  // on the battlefield already: no event, no step
  assert.deepEqual(stepEvents(s, { move: { card: 'ghoul', to: 'battlefield' } }), ['no_move', null, ['ghoul:no_move']]);
  // re-entering runs them again: the zombie, not in the graveyard, stays
  // in exile (not_in_zone, no event); the bat, exiled again, is a new object there
  s.step({ move: { card: 'ghoul', to: 'hand' } });
  o = s.observe();
  assert.deepEqual(stepEvents(s, { move: { card: 'ghoul', to: 'battlefield' } }), ['moved', null, ['bat:new_object_in_place', 'ghoul:moved']]);
  assert.equal(s.obj('zombie').object, o.objects.zombie.object);
  assert.notEqual(s.obj('bat').object, o.objects.bat.object);
  // a move that can't happen runs nothing: an instant stays, a forbidden move fails
  const t = new Session({ spell: { owner: 'alice', zone: 'hand', types: ['instant'] }, imp: gy(), bear: bear() });
  t.step({ as_enters: { card: 'spell', steps: [{ move: { card: 'imp', to: 'exile' } }] } });
  t.step({ as_enters: { card: 'bear', steps: [{ move: { card: 'imp', to: 'exile' } }] } });
  t.step({ cant: { card: 'bear', when: { from: 'exile' } } });
  assert.deepEqual(t.step({ move: { card: 'spell', to: 'battlefield' } }), ['stayed', 'cannot_hold']);
  t.step({ move: { card: 'bear', to: 'exile' } });
  assert.deepEqual(t.step({ move: { card: 'bear', to: 'battlefield' } }), ['failed', 'forbidden']);
  assert.equal(t.obj('imp').zone, 'alice.graveyard');
  // a draw or mill onto the battlefield is a move of one object too
  const u = new Session({ top: { owner: 'alice', zone: 'library', position: 0 }, imp: gy() });
  u.step({ as_enters: { card: 'top', steps: [{ move: { card: 'imp', to: 'hand' } }] } });
  assert.deepEqual(stepEvents(u, { mill: { player: 'alice', to: 'battlefield' } }), ['moved', null, ['imp:moved', 'top:moved']]);
});

test('CR 614.13a: an as-enters effect can\'t choose what enters: the card itself, or a move_together member bound for the battlefield, marked before any moves', () => {
  const s = new Session({ ghoul: gy({ position: 0 }), bear: gy({ position: 1 }), imp: gy({ position: 2 }), elk: gy({ position: 3 }), ox: gy({ position: 4 }) });
  // the elk is sent to exile, but a replacement puts it onto the battlefield: it enters too
  s.step({ replace: { as: 'back', card: 'elk', when: { to: 'exile' }, instead: { to: 'battlefield' } } });
  s.step({ as_enters: { card: 'ghoul', steps: [
    { move: { card: 'bear', from: 'graveyard', to: 'exile', then: { mark: { as: 'never', kind: 'counter' } } } },
    { move: { card: 'ghoul', to: 'exile' } },
    { move: { card: 'elk', to: 'hand' } },
    { move: { card: 'ox', to: 'exile' } },
    { move: { card: 'imp', to: 'exile' } },
  ] } });
  const [outcome, error, events] = stepEvents(s, { move_together: { moves: [
    { card: 'ghoul', to: 'battlefield' }, { card: 'bear', to: 'battlefield' }, { card: 'elk', to: 'exile' }, { card: 'ox', to: 'hand' },
  ] } });
  assert.deepEqual([outcome, error], ['moved', null]);
  // each refused with a rejected event; the ox goes to the hand, not the battlefield: it may be chosen
  // then the members in order: the ox, exiled by a step, still goes on to the hand
  assert.deepEqual(events, ['bear:rejected', 'ghoul:rejected', 'elk:rejected', 'ox:moved', 'imp:moved',
    'ghoul:moved', 'bear:moved', 'elk:replaced', 'ox:moved']);
  const o = s.observe().objects;
  assert.deepEqual(['ghoul', 'bear', 'elk', 'ox', 'imp'].map((h) => o[h].zone), ['battlefield', 'battlefield', 'battlefield', 'alice.hand', 'exile']);
  assert.deepEqual(o.bear.marks, []); // no then: after a rejected move
  // a single move: the card itself, its outcome and error seen at the top level
  const t = new Session({ ghoul: gy(), imp: gy() });
  t.step({ as_enters: { card: 'ghoul', steps: [{ move: { card: 'imp', to: 'exile' } }] } });
  t.step({ as_enters: { card: 'imp', steps: [{ move: { card: 'imp', to: 'hand' } }] } });
  t.step({ move: { card: 'imp', to: 'hand' } });
  // the imp enters with its own step refused; then, outside any as-enters step, it is chosen no more
  assert.deepEqual(stepEvents(t, { move: { card: 'imp', to: 'battlefield' } }), ['moved', null, ['imp:rejected', 'imp:moved']]);
  assert.deepEqual(t.step({ move: { card: 'imp', to: 'graveyard' } }), ['moved', null]);
  const game = new MtgGame(['alice', 'bob'], Object.entries({ ghoul: gy(), imp: gy() }));
  game.step({ as_enters: { card: 'ghoul', steps: [{ move: { card: 'ghoul', to: 'hand' } }] } });
  const r = game.step({ move: { card: 'ghoul', to: 'battlefield' } });
  assert.deepEqual(r.events, [{ handle: 'ghoul', outcome: 'rejected' }, { handle: 'ghoul', outcome: 'moved' }]);
});

test('CR 614.13b: one object is moved once by the as-enters effects of an event; a new event forgets it, and an entering object moved by a step runs its own', () => {
  const s = new Session({
    elder: { owner: 'alice', zone: 'hand', types: ['creature'] },
    bear: bear({ position: undefined }), ox: bear(),
  });
  s.step({ as_enters: { card: 'elder', steps: [{ move: { card: 'bear', to: 'graveyard', cause: 'sacrifice' } }] } });
  s.step({ as_enters: { card: 'elder', steps: [{ move: { card: 'bear', to: 'exile' } }, { move: { card: 'ox', to: 'graveyard', cause: 'sacrifice' } }] } });
  assert.deepEqual(stepEvents(s, { move: { card: 'elder', from: 'hand', to: 'battlefield' } }),
    ['moved', null, ['bear:moved', 'bear:rejected', 'ox:moved', 'elder:moved']]);
  let o = s.observe().objects;
  assert.deepEqual(['elder', 'bear', 'ox'].map((h) => o[h].zone), ['battlefield', 'alice.graveyard', 'alice.graveyard']);
  // the next event forgets what was chosen: the bear and the ox, back on
  // the battlefield, are moved again as the elder enters again
  s.step({ move_together: { moves: [{ card: 'bear', to: 'battlefield' }, { card: 'ox', to: 'battlefield' }, { card: 'elder', to: 'hand' }] } });
  assert.deepEqual(stepEvents(s, { move: { card: 'elder', to: 'battlefield' } }),
    ['moved', null, ['bear:moved', 'bear:rejected', 'ox:moved', 'elder:moved']]);
  // a chosen object that comes back where a step looks for it is still refused in the same event
  const t = new Session({ ghoul: { owner: 'alice', zone: 'hand', types: ['creature'] }, imp: gy(), rat: gy() });
  t.step({ as_enters: { card: 'ghoul', steps: [
    { move: { card: 'imp', to: 'exile' } }, { move: { card: 'rat', to: 'battlefield' } }, { move: { card: 'imp', to: 'exile' } }, { move: { card: 'rat', to: 'hand' } },
  ] } });
  // the rat, entering by a step, runs its own: it may not take the imp (chosen) nor the ghoul (entering)
  t.step({ as_enters: { card: 'rat', steps: [{ move: { card: 'imp', to: 'hand' } }, { move: { card: 'ghoul', to: 'exile' } }] } });
  assert.deepEqual(stepEvents(t, { move: { card: 'ghoul', to: 'battlefield' } }),
    ['moved', null, ['imp:moved', 'imp:rejected', 'ghoul:rejected', 'rat:moved', 'imp:rejected', 'rat:rejected', 'ghoul:moved']]);
  o = t.observe().objects;
  assert.deepEqual(['ghoul', 'imp', 'rat'].map((h) => o[h].zone), ['battlefield', 'exile', 'battlefield']);
});

test('CR 614.13c: a mill or draw among as-enters steps skips the cards entering from that library; when all are, it is as if the library were empty', () => {
  const lib = (position, extra = {}) => ({ owner: 'alice', zone: 'library', position, ...extra });
  const s = new Session({ pool: lib(0, { types: ['land'] }), one: lib(1), two: lib(2), three: lib(3) });
  s.step({ as_enters: { card: 'pool', steps: [{ mill: { player: 'alice', count: 2 } }] } });
  assert.deepEqual(stepEvents(s, { move: { card: 'pool', from: 'library', to: 'battlefield', cause: 'play' } }),
    ['moved', null, ['one:moved', 'two:moved', 'pool:moved']]);
  const o = s.observe().objects;
  assert.deepEqual(['pool', 'one', 'two', 'three'].map((h) => [o[h].zone, o[h].position]),
    [['battlefield', null], ['alice.graveyard', 1], ['alice.graveyard', 0], ['alice.library', 0]]);
  // a draw too; the two top cards enter together: neither is drawn nor milled,
  // and a draw that finds only them is no draw from an empty library (704.5b)
  const t = new Session({ a: lib(0), b: lib(1), c: lib(2) });
  t.step({ as_enters: { card: 'a', steps: [{ draw: { player: 'alice' } }, { mill: { player: 'alice', count: 5 } }, { draw: { player: 'alice' } }] } });
  assert.deepEqual(stepEvents(t, { move_together: { moves: [{ card: 'a', to: 'battlefield' }, { card: 'b', to: 'battlefield' }] } }),
    ['moved', null, ['c:moved', 'a:moved', 'b:moved']]);
  assert.deepEqual(['a', 'b', 'c'].map((h) => t.obj(h).zone), ['battlefield', 'battlefield', 'alice.hand']);
  t.step({ state_check: {} });
  assert.equal(t.observe().players.alice.lost, false);
  // outside as-enters steps, a mill takes the top card as ever
  const u = new Session({ a: lib(0), b: lib(1) });
  u.step({ as_enters: { card: 'b', steps: [{ mill: { player: 'alice' } }] } });
  assert.deepEqual(stepEvents(u, { mill: { player: 'alice' } }), ['moved', null, ['a:moved']]);
});

test('snapshot and restore cover the as-enters effects and one event\'s marks; a step of one that throws undoes the whole move', () => {
  const game = new MtgGame(['alice', 'bob'], Object.entries({ ghoul: gy(), imp: gy(), rat: gy() }));
  const saved = game.snapshot();
  game.step({ as_enters: { card: 'ghoul', steps: [{ move: { card: 'imp', to: 'exile' } }] } });
  const state = /** @type {any} */ (game.snapshot());
  assert.deepEqual([state.asEnters.length, state.entering.size, state.etbChosen.size, state.inEtb], [1, 0, 0, 0]);
  game.restore(saved);
  assert.deepEqual(game.step({ move: { card: 'ghoul', to: 'battlefield' } }).events, [{ handle: 'ghoul', outcome: 'moved' }]);
  // through the protocol half: a step naming nothing known throws as it runs
  const s = new Session({ ghoul: gy(), imp: gy(), rat: gy() });
  s.step({ as_enters: { card: 'ghoul', steps: [{ move: { card: 'imp', to: 'exile' } }, { move: { ref: 'nothing', to: 'exile' } }] } });
  s.step({ as_enters: { card: 'rat', steps: [{ move: { card: 'imp', to: 'hand' } }] } });
  const { id, ...before } = s.observe();
  assert.equal(s.call('step', { step: { move_together: { moves: [{ card: 'ghoul', to: 'battlefield' }, { card: 'rat', to: 'battlefield' }] } } }).error.code, 'bad_request');
  const { id: again, ...after } = s.observe();
  assert.deepEqual(after, before);
  // nothing is left marked: the rat enters alone and takes the imp
  assert.deepEqual(stepEvents(s, { move: { card: 'rat', to: 'battlefield' } }), ['moved', null, ['imp:moved', 'rat:moved']]);
});

test('CR 800.4d: the trigger of a player who left the game is never put on the stack; CR 704.5m: the state check\'s Aura move is nobody\'s', () => {
  const s = new Session({ elk: bear({ owner: 'carol' }), ox: bear() }, { players: ['alice', 'bob', 'carol'] });
  s.step({ watch: { as: 'gone', card: 'elk', from: 'battlefield' } });
  s.step({ watch: { as: 'ox_gone', card: 'ox', to: 'graveyard' } });
  s.step({ watch: { as: 'never', card: 'ox', to: 'exile' } });
  s.step({ leave_game: { player: 'carol' } });
  assert.deepEqual(s.observe().triggers.gone, { fired: true, found: null, controller: 'carol' });
  assert.deepEqual(stepEvents(s, { resolve: { trigger: 'gone', do: { move: { to: 'hand' } } } }), ['rejected', 'wrong_player', []]);
  assert.deepEqual(s.observe().triggers.gone, { fired: true, found: null, controller: 'carol' });
  assert.deepEqual(s.step({ resolve: { trigger: 'never' } }), ['not_found', 'not_fired']);
  s.step({ move: { card: 'ox', to: 'graveyard' } });
  assert.deepEqual(s.step({ resolve: { trigger: 'ox_gone', do: { move: { to: 'hand' } } } }), ['moved', null]);
  // the first player leaves; an Aura left attached to nothing still goes to its owner's graveyard
  const t = new Session({
    bear: bear({ owner: 'bob' }), shroud: { owner: 'bob', zone: 'battlefield', types: ['enchantment'], subtypes: ['aura'] },
  }, { players: ['alice', 'bob', 'carol'] });
  t.step({ attach: { card: 'shroud', to: 'bear' } });
  t.step({ leave_game: { player: 'alice' } });
  t.step({ move: { card: 'bear', to: 'graveyard', cause: 'destroy' } });
  assert.deepEqual(stepEvents(t, { state_check: {} }), ['moved', null, ['shroud:moved']]);
  assert.equal(t.obj('shroud').zone, 'bob.graveyard');
});

test('CR 400.5: libraries, graveyards and the stack keep their order; other zones may be rearranged', () => {
  const s = new Session({ a: { owner: 'alice', zone: 'graveyard' }, b: { owner: 'alice', zone: 'graveyard' }, h: { owner: 'alice', zone: 'hand' }, i: { owner: 'alice', zone: 'hand' } });
  assert.deepEqual(s.step({ reorder: { zone: 'alice.graveyard', order: ['b', 'a'] } }), ['rejected', 'ordered']);
  assert.deepEqual(s.step({ reorder: { zone: 'hand', order: ['i'] } }), ['failed', 'not_in_zone']);
  assert.deepEqual(s.step({ reorder: { zone: 'hand', order: ['i', 'h'] } }), ['no_move', null]);
  assert.equal(s.obj('a').position, 0);
});

test('shuffle: the order the step gives, or not_in_zone; without one, any order, the same for a seed', () => {
  const cards = Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((h, i) => [h, { owner: 'alice', zone: 'library', position: i }]));
  const library = (s) => {
    const objects = s.observe().objects;
    return Object.keys(objects).sort((x, y) => objects[x].position - objects[y].position);
  };
  const s = new Session(cards);
  assert.deepEqual(s.step({ shuffle: { zone: 'alice.library', order: ['e', 'c', 'a', 'b', 'd'], seed: 1 } }), ['no_move', null]);
  assert.deepEqual(library(s), ['e', 'c', 'a', 'b', 'd']);
  for (const wrong of [['e', 'c', 'a', 'b'], ['e', 'c', 'a', 'b', 'b'], ['e', 'c', 'a', 'b', 'd', 'd']]) {
    assert.deepEqual(s.step({ shuffle: { zone: 'library', order: wrong } }), ['failed', 'not_in_zone']);
  }
  assert.deepEqual(library(s), ['e', 'c', 'a', 'b', 'd']);
  assert.equal(s.call('step', { step: { shuffle: { zone: 'library', order: ['zz'] } } }).error.code, 'bad_request');
  const orders = [new Session(cards), new Session(cards)].map((t) => {
    t.step({ shuffle: { zone: 'alice.library', seed: 42 } });
    return library(t);
  });
  assert.deepEqual(orders[0], orders[1]);
  assert.deepEqual([...orders[0]].sort(), ['a', 'b', 'c', 'd', 'e']);
});

test('move_together: arrivals take the order given, in the places they took; what did not move stays', () => {
  const s = new Session({
    old: { owner: 'alice', zone: 'library' }, a: bear(), b: bear(), still: { owner: 'alice', zone: 'library' },
  });
  const answer = s.call('step', {
    step: { move_together: { moves: [{ card: 'a', to: 'library' }, { card: 'still', to: 'library' }, { card: 'b', to: 'library' }], order: { 'alice.library': ['b', 'a'] } } },
  });
  assert.equal(answer.outcome, 'moved');
  assert.deepEqual(answer.events.map((e) => e.outcome), ['moved', 'no_move', 'moved']);
  const o = s.observe().objects;
  assert.deepEqual(['b', 'a', 'old', 'still'].map((h) => o[h].position), [0, 1, 2, 3]);
});

test('draw and mill: one card at a time; a card that cannot leave stops them', () => {
  const s = new Session({ t: bear({ kind: 'token' }), c: { owner: 'alice', zone: 'library' } });
  s.step({ move: { card: 't', to: 'library' } });
  assert.deepEqual(s.step({ mill: { player: 'alice', count: 2 } }), ['stayed', 'token_left']);
  assert.equal(s.obj('c').zone, 'alice.library');
  assert.deepEqual(s.step({ mill: { player: 'bob' } }), ['failed', 'empty']);
  assert.deepEqual(s.step({ draw: { player: 'alice', count: 0 } }), ['no_move', null]);
});

test('create: a token comes into being; an ability off the stack ceases; an instant never reaches the battlefield', () => {
  const s = new Session({});
  assert.deepEqual(s.step({ create: { as: 't', owner: 'bob', zone: 'battlefield', types: ['creature'] } }), ['moved', null]);
  assert.deepEqual(s.step({ create: { as: 'a', owner: 'bob', zone: 'graveyard', kind: 'ability' } }), ['ceased', null]);
  assert.deepEqual(s.step({ create: { as: 'i', owner: 'bob', zone: 'battlefield', types: ['instant'] } }), ['failed', 'cannot_hold']);
  const seen = s.observe();
  assert.deepEqual([seen.objects.t.controller, seen.objects.a.exists, 'i' in seen.objects], ['bob', false, false]);
  assert.equal(s.call('step', { step: { create: { as: 't', owner: 'bob', zone: 'exile' } } }).error.code, 'bad_request');
});

test('visibility: public zones face up for all, a hand for its owner, face-down permanents for the controller', () => {
  const s = new Session({
    h: { owner: 'alice', zone: 'hand' }, l: { owner: 'alice', zone: 'library' }, x: { owner: 'bob', zone: 'exile', face: 'down' },
    m: bear({ face: 'down', controller: 'bob' }), g: { owner: 'bob', zone: 'graveyard' }, o: { owner: 'bob', zone: 'outside' },
  });
  const seen = s.observe();
  assert.deepEqual(seen.visible.alice.sort(), ['g', 'h']);
  assert.deepEqual(seen.visible.bob.sort(), ['g', 'm']);
  assert.deepEqual(['h', 'g', 'm', 'o'].map((h) => seen.objects[h].visibility), ['private', 'public', 'private', 'private']);
});

test('end_game: the winner owns what is in the ante (CR 407.2)', () => {
  const s = new Session({ a: { owner: 'bob', zone: 'ante' }, b: { owner: 'bob', zone: 'hand' } });
  assert.deepEqual(s.step({ end_game: { winner: 'alice' } }), ['no_move', null]);
  assert.deepEqual([s.obj('a').owner, s.obj('b').owner], ['alice', 'bob']);
});

test('durations end at end_turn, phased out too; a destroyed watch ignores a sacrifice (G4, G8: CR 514.2, 702.26f, 701.21a)', () => {
  const s = new Session({ bear: { owner: 'bob', zone: 'battlefield', types: ['creature'] }, elf: { owner: 'alice', zone: 'battlefield' } });
  s.step({ mark: { card: 'bear', as: 'pump', kind: 'effect', until: 'end_of_turn' } });
  s.step({ mark: { card: 'bear', as: 'forever', kind: 'effect' } });
  s.step({ control: { card: 'bear', player: 'alice', until: 'end_of_turn' } });
  s.step({ phase: { card: 'bear' } });
  assert.deepEqual(s.step({ end_turn: {} }), ['no_move', null]);
  assert.deepEqual([s.obj('bear').controller, s.obj('bear').marks, s.obj('bear').phased_out], ['bob', ['forever'], true]);
  s.step({ watch: { as: 'd', card: 'elf', to: 'graveyard', cause: 'destroy' } });
  s.step({ move: { card: 'elf', to: 'graveyard', cause: 'sacrifice' } });
  assert.equal(s.observe().triggers.d.fired, false);
});

test('positions the rules forbid are bad requests at setup', () => {
  const forbidden = [
    { t: { owner: 'alice', zone: 'graveyard', kind: 'token' } },
    { a: { owner: 'alice', zone: 'battlefield', kind: 'ability' } },
    { h: { owner: 'alice', zone: 'bob.hand' } },
    { c: { owner: 'alice', zone: 'hand', controller: 'alice' } },
    { p: { owner: 'alice', zone: 'hand', position: 0 } },
    { p: { owner: 'alice', zone: 'library', position: 1 } },
    { u: { owner: 'alice', zone: 'hand', under: 'x' } },
    { z: { owner: 'alice', zone: 'alice.weapon' } },
  ];
  for (const cards of forbidden) {
    assert.throws(() => new MtgGame(['alice', 'bob'], Object.entries(cards)), (e) => e.code === 'bad_request', JSON.stringify(cards));
  }
  const game = new MtgGame(['alice'], Object.entries({ x: { owner: 'alice', zone: 'library' }, y: { owner: 'alice', zone: 'library', position: 0 } }));
  assert.deepEqual([game.observe().objects.y.position, game.observe().objects.x.position], [0, 1]);
  assert.equal(badRequest('m').code, 'bad_request');
});

// ---- mtg-current against today's text (cases/mtg/current) ------------------------

const three = { players: ['alice', 'bob', 'carol'] };

test('CR 111.5: a token a can\'t effect keeps off the battlefield is not created; judged as it would be there', () => {
  const s = new Session({ priest: bear() });
  s.step({ cant: { card: 'any', when: { to: 'battlefield' }, types: ['creature'] } });
  assert.deepEqual(s.step({ create: { as: 'soldier', owner: 'alice', zone: 'battlefield', types: ['creature'] } }), ['failed', 'forbidden']);
  assert.equal('soldier' in s.observe().objects, false, 'the handle never exists');
  assert.deepEqual(stepEvents(s, { move: { card: 'soldier', to: 'exile' } }), ['not_found', 'not_found', ['soldier:not_found']]);
  // face down it would be a creature there (708.2a)
  assert.deepEqual(s.step({ create: { as: 'morph', owner: 'alice', zone: 'battlefield', types: ['artifact'], face: 'down' } }), ['failed', 'forbidden']);
  assert.deepEqual(s.step({ create: { as: 'treasure', owner: 'alice', zone: 'battlefield', types: ['artifact'] } }), ['moved', null]);
  assert.equal(s.obj('treasure').zone, 'battlefield');
  // an effect with from: or cause: names no creation
  const t = new Session({});
  t.step({ cant: { card: 'any', when: { from: 'hand', to: 'battlefield' } } });
  t.step({ cant: { card: 'any', when: { to: 'battlefield', cause: 'resolve' } } });
  assert.deepEqual(t.step({ create: { as: 'x', owner: 'bob', zone: 'battlefield' } }), ['moved', null]);
});

test('CR 708.3: a card put onto the battlefield face down has no as-enters effect; face up it has', () => {
  const cards = { ghoul: { owner: 'alice', zone: 'hand', types: ['creature'] }, bear: { owner: 'alice', zone: 'graveyard', types: ['creature'] } };
  const s = new Session(cards);
  s.step({ as_enters: { card: 'ghoul', steps: [{ move: { card: 'bear', to: 'exile' } }] } });
  const before = s.obj('bear').object;
  assert.deepEqual(stepEvents(s, { move: { card: 'ghoul', to: 'battlefield', face: 'down' } }), ['moved', null, ['ghoul:moved']]);
  assert.deepEqual([s.obj('bear').zone, s.obj('bear').object], ['alice.graveyard', before]);
  s.step({ move: { card: 'ghoul', to: 'hand' } });
  assert.deepEqual(stepEvents(s, { move: { card: 'ghoul', to: 'battlefield' } }), ['moved', null, ['bear:moved', 'ghoul:moved']]);
  // a replacement that puts it there face down: face down as it enters too
  const t = new Session(cards);
  t.step({ as_enters: { card: 'ghoul', steps: [{ move: { card: 'bear', to: 'exile' } }] } });
  t.step({ replace: { as: 'r', card: 'ghoul', when: { to: 'battlefield' }, instead: { to: 'battlefield', face: 'down' } } });
  assert.deepEqual(stepEvents(t, { move: { card: 'ghoul', to: 'battlefield' } }), ['replaced', null, ['ghoul:replaced']]);
});

test('CR 800.4c: a control effect ending with its player gone exiles the permanent; end_turn is then moved', () => {
  const s = new Session({ angel: { owner: 'alice', zone: 'library', types: ['creature'] }, ox: bear() }, three);
  s.step({ move: { card: 'angel', to: 'battlefield', player: 'bob' } });
  s.step({ control: { card: 'angel', player: 'carol', until: 'end_of_turn' } });
  s.step({ control: { card: 'ox', player: 'carol', until: 'end_of_turn' } });
  assert.deepEqual(s.step({ leave_game: { player: 'bob' } }), ['no_move', null]);
  assert.deepEqual([s.obj('angel').zone, s.obj('angel').controller], ['battlefield', 'carol']);
  assert.deepEqual(stepEvents(s, { end_turn: {} }), ['moved', null, ['angel:moved']]);
  assert.equal(s.obj('angel').zone, 'exile');
  assert.deepEqual([s.obj('ox').zone, s.obj('ox').controller], ['battlefield', 'alice']);
  const t = new Session({ ox: bear() });
  t.step({ control: { card: 'ox', player: 'bob', until: 'end_of_turn' } });
  assert.deepEqual(stepEvents(t, { end_turn: {} }), ['no_move', null, []]);
  assert.equal(t.obj('ox').controller, 'alice');
});

test('CR 110.2b: a stolen permanent spell becomes a permanent whose default controller is its caster', () => {
  const s = new Session({ angel: { owner: 'alice', zone: 'hand', types: ['creature'] } }, three);
  s.step({ move: { card: 'angel', to: 'stack', cause: 'cast', player: 'alice' } });
  s.step({ control: { card: 'angel', player: 'bob' } });
  s.step({ move: { card: 'angel', to: 'battlefield', cause: 'resolve' } });
  assert.equal(s.obj('angel').controller, 'bob');
  const kept = s.obj('angel').object;
  s.step({ leave_game: { player: 'bob' } });
  assert.deepEqual([s.obj('angel').zone, s.obj('angel').controller, s.obj('angel').object], ['battlefield', 'alice', kept]);
  // what bob put onto the battlefield himself is his by default: exiled
  const t = new Session({ imp: { owner: 'alice', zone: 'graveyard', types: ['creature'] } }, three);
  t.step({ move: { card: 'imp', to: 'battlefield', player: 'bob' } });
  t.step({ leave_game: { player: 'bob' } });
  assert.equal(t.obj('imp').zone, 'exile');
});

test('CR 701.20d: a revealed card of a library shuffled or reordered (so that the order changes) is a new object', () => {
  const lib = { a: { owner: 'alice', zone: 'library', position: 0 }, b: { owner: 'alice', zone: 'library', position: 1 }, c: { owner: 'alice', zone: 'library', position: 2 } };
  const s = new Session(lib);
  s.step({ reveal: { card: 'b' } });
  s.step({ remember: { as: 'shown', card: 'b' } });
  assert.deepEqual(stepEvents(s, { reorder: { zone: 'alice.library', order: ['a', 'b', 'c'], by: 'effect' } }), ['no_move', null, []]);
  assert.equal(s.obj('b').visibility, 'public');
  assert.deepEqual(stepEvents(s, { reorder: { zone: 'alice.library', order: ['b', 'a', 'c'], by: 'effect' } }), ['no_move', null, ['b:new_object_in_place']]);
  assert.equal(s.obj('b').visibility, 'private');
  assert.equal(s.observe().refs.shown.found, false);
  s.step({ reveal: { card: 'c' } });
  assert.deepEqual(stepEvents(s, { shuffle: { zone: 'alice.library', order: ['c', 'b', 'a'] } }), ['no_move', null, ['c:new_object_in_place']]);
  assert.equal(s.obj('c').visibility, 'private');
  // a move's shuffle: the revealed card's event before the mover's
  const t = new Session({ ...lib, x: { owner: 'alice', zone: 'hand' } });
  t.step({ reveal: { card: 'a' } });
  assert.deepEqual(stepEvents(t, { move: { card: 'x', to: 'library', shuffle: true } }), ['moved', null, ['a:new_object_in_place', 'x:moved']]);
  // a look is no reveal: it ends with the shuffle, the object stays
  const u = new Session(lib);
  u.step({ look: { card: 'a', player: 'alice' } });
  const a = u.obj('a').object;
  assert.deepEqual(stepEvents(u, { shuffle: { zone: 'alice.library', order: ['b', 'a', 'c'] } }), ['no_move', null, []]);
  assert.equal(u.obj('a').object, a);
});

test('CR 405.3, 101.4: APNAP on the stack starts from the player whose turn it is', () => {
  const cards = { a1: { owner: 'alice', zone: 'hand' }, b1: { owner: 'bob', zone: 'hand' }, c1: { owner: 'carol', zone: 'hand' } };
  const together = { move_together: { moves: ['a1', 'b1', 'c1'].map((card) => ({ card, to: 'stack' })) } };
  const s = new Session(cards, three);
  assert.equal(s.step(together)[0], 'moved');
  assert.deepEqual(['a1', 'b1', 'c1'].map((h) => s.obj(h).position), [2, 1, 0]);
  const t = new Session(cards, three);
  t.step({ untap: { player: 'bob' } });
  assert.equal(t.step(together)[0], 'moved');
  assert.deepEqual(['a1', 'b1', 'c1'].map((h) => t.obj(h).position), [0, 2, 1], 'bob lowest, then carol, alice on top');
});

test('CR 406.3a: a card exiled face down has no types for a can\'t effect', () => {
  const s = new Session({
    hidden: { owner: 'alice', zone: 'exile', face: 'down', types: ['creature'] },
    shown: { owner: 'alice', zone: 'exile', types: ['creature'] },
    any1: { owner: 'alice', zone: 'exile', face: 'down', types: ['creature'] },
  });
  s.step({ cant: { card: 'any', when: { from: 'exile', to: 'hand' }, types: ['creature'] } });
  assert.deepEqual(s.step({ move: { card: 'hidden', from: 'exile', to: 'hand' } }), ['moved', null]);
  assert.deepEqual(s.step({ move: { card: 'shown', to: 'hand' } }), ['failed', 'forbidden']);
  // an effect naming no types still holds it
  s.step({ cant: { card: 'any1', when: { from: 'exile' } } });
  assert.deepEqual(s.step({ move: { card: 'any1', to: 'graveyard' } }), ['failed', 'forbidden']);
});

// ---- the program ---------------------------------------------------------------------

test('the program answers line by line, exits after bye and at the end of input', () => {
  const lines = [
    '{"op":"hello","id":1,"protocol":"zcp/1"}',
    'garbage {',
    '{"op":"setup","id":2,"ruleset":"mtg-current","players":["alice"],"cards":{}}',
    '{"op":"bye","id":3}',
    '{"op":"observe","id":4}',
  ];
  const run = spawnSync(process.execPath, [PROGRAM], { input: `${lines.join('\n')}\n`, encoding: 'utf8', timeout: 10000 });
  assert.equal(run.status, 0, run.stderr);
  const answers = run.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(answers.map((a) => [a.id, a.ok]), [[1, true], [null, false], [2, true], [3, true]]);
  const eof = spawnSync(process.execPath, [PROGRAM], { input: '{"op":"observe","id":1}\r\n', encoding: 'utf8', timeout: 10000 });
  assert.equal(eof.status, 0);
  assert.equal(JSON.parse(eof.stdout).error.code, 'bad_request');
  const partial = spawnSync(process.execPath, [PROGRAM], {
    input: '{"op":"hello","id":1,"protocol":"zcp/1"}\n', encoding: 'utf8', timeout: 10000, env: { ...process.env, ZO_NODE_FEATURES: 'marks,nonsense' },
  });
  assert.deepEqual(JSON.parse(partial.stdout).features, ['marks']);
  assert.match(partial.stderr, /'nonsense' is not a feature/);
});
