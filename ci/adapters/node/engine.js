#!/usr/bin/env node
// ci/adapters/node/engine.js: a zone-rules engine for Magic: the Gathering
// (rule set mtg-current) that speaks zoneoracle's protocol, zcp/2 (zcp/1 to
// a runner offering nothing newer; ci/protocol/PROTOCOL.md) on stdin and
// stdout, one JSON object per line.
//
// It is the template for engines written in JavaScript or TypeScript, in
// two halves:
//
//   1. THE PROTOCOL (keep it): Server turns request lines into answer lines,
//      echoes ids, answers every problem with an error object and never
//      exits on bad input; negotiates the version in hello; answers run
//      with deltas in zcp/2 (the game's observeDelta(), else
//      observationDelta of whole observations); a step that throws is
//      undone; bye or the end of input ends the process. ZO_NODE_FEATURES
//      can withhold features.
//   2. THE RULES (replace it): MtgGame, an independent model of the zones of
//      mtg-current written from cases/README.md and the Comprehensive Rules
//      (rule numbers of the current CR), reached through the object
//      `mtgCurrent`. Replace it with calls into your own engine.
//
// Node 18 or later, standard library only. The types of every message and
// of the interface between the halves are in engine.d.ts beside this file.
'use strict';

// ===========================================================================
// 1. The protocol
// ===========================================================================

/** The versions this engine speaks, oldest first; zcp/2 adds run deltas. */
const PROTOCOLS = Object.freeze(['zcp/1', 'zcp/2']);

/** Every feature name of the protocol (PROTOCOL.md, "Features"). */
const KNOWN_FEATURES = Object.freeze([
  'triggers', 'replacement', 'phasing', 'face_down', 'sub_cards', 'zone_lifecycle',
  'ante', 'visibility', 'reorder', 'stack_layers', 'state_check', 'marks',
  'performer', 'look', 'reveal',
  'attachments',
  'durations', // G4 of issue 12
  'kept_marks', // the mark kinds today's 400.7 keeps: sticker, permission, spell_info
  'aura_triggers', // a watch with aura: (CR 400.7f, 603.6e)
  'madness', // a move with cause: madness (CR 400.7k, 702.35c)
  'copies', // create copy_of: (CR 111.12) or zone: outside (707.13)
  'casting', // a cast's costs: (CR 401.5, 601.2)
  'phasing_together', // phase with: several permanents at once (CR 702.26h)
  'cant', // "can't" effects on moves (CR 614.17)
  'draw_replacement', // replace_draw, draw then: (CR 614.11, 614.11a, 614.11b)
  'untap_phasing', // untap: a player's untap step phases permanents out and in (CR 702.26a, 702.26n)
  'leave_game', // leave_game: a player leaves, with what they own and control (CR 800.4a, 603.6c, 702.26k)
  'phasing_triggers', // watch phase: out, looking back in time (CR 603.10b)
  'as_enters', // as_enters: a permanent's own effect moving other objects as it enters (CR 614.13, 614.13a-c)
  'shuffle_order', // a shuffle whose result the step gives: shuffle order:, move shuffle: [HANDLES]
  'draw_then', // draw then: the draw's follow-up (CR 614.11b)
  'together_order', // move_together: only arrivals are placed; on the stack by controller (CR 400.5, 405.3)
  'created_owner', // a token created under another player's control is theirs (CR 111.2)
  'control_effects', // control effects in timestamp order; one on a spell goes on with the permanent (CR 613.7, 800.4a, 400.7a)
  'unattach', // unattach: attached to nothing where it is, the same object (CR 701.3d)
  'cant_costs', // a cast whose cost includes a move that can't happen can't be cast (CR 614.17b)
  'look_then', // look then: the rest of the instruction; looked at, then exiled face down: still seen (CR 406.3)
  'enters_attached', // move attached_to: put onto the battlefield attached (CR 303.4f-i)
  'cant_draw', // cant draw: a player who can't draw draws nothing (CR 121.3)
  'token_as_enters', // create as_enters: a token's own as-enters effect (CR 614.12, 614.13)
  'next_turn', // until: next_turn, turn_of: until a player's next turn, a departed one's included (CR 500.5, 800.4m)
  'attach_player', // attach to_player: an Aura attached to a player (CR 303.4b, 303.4c, 704.5m)
  'unpaid_costs', // a cast any of whose costs can't be paid, whatever the reason, can't be cast (CR 601.2h)
  'cant_draw_moves', // a move with cause: draw from a library to its owner's hand is a draw (CR 121.1, 121.3)
]);

/** What may enter the battlefield attached (CR 303.4h). */
const ATTACHMENTS = Object.freeze(['aura', 'equipment', 'fortification']);

/** The mark kinds of feature kept_marks (CR 400.7d, 400.7g-i, 400.7m). */
const KEPT_MARK_KINDS = Object.freeze(['sticker', 'permission', 'spell_info']);

/** The feature a step kind belongs to (PROTOCOL.md, "Features"). */
const STEP_FEATURE = new Map([
  ['watch', 'triggers'], ['resolve', 'triggers'],
  ['replace', 'replacement'], ['choose_replacement', 'replacement'],
  ['phase', 'phasing'], ['turn_face', 'face_down'], ['put_under', 'sub_cards'],
  ['zone_create', 'zone_lifecycle'], ['zone_remove', 'zone_lifecycle'],
  ['end_game', 'ante'], ['reorder', 'reorder'], ['state_check', 'state_check'],
  ['mark', 'marks'], ['look', 'look'], ['reveal', 'reveal'], ['attach', 'attachments'],
  ['end_turn', 'durations'], // G4 of issue 12
  ['cant', 'cant'], // CR 614.17
  ['replace_draw', 'draw_replacement'], // CR 614.11
  ['untap', 'untap_phasing'], // CR 702.26a, 702.26n
  ['leave_game', 'leave_game'], // CR 800.4a
  ['as_enters', 'as_enters'], // CR 614.13
  ['unattach', 'unattach'], // CR 701.3d
]);

/** A request that gets an error answer: code is bad_request, unsupported or
 * internal (PROTOCOL.md, "Protocol errors"). Throw it from either half. */
class ZcpError extends Error {
  /** @param {'bad_request'|'unsupported'|'internal'} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.name = 'ZcpError';
    this.code = code;
  }
}

/** @param {string} message the reason, for the report */
const badRequest = (message) => new ZcpError('bad_request', message);
/** @param {string} message what is missing, shown as the skip reason */
const unsupported = (message) => new ZcpError('unsupported', message);

/** @param {unknown} v @returns {v is Record<string, any>} a JSON object (not null, not an array) */
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A value quoted for a message, kept short. */
function show(value) {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The features a step uses, its nested steps included: its kind's, and
 * face_down for any face: down it carries. Unlike the runner, which derives
 * one feature per top-level step, this looks inside then:, do:, instead:,
 * costs:, steps: and moves:, so that a partial engine refuses all of what
 * it withholds.
 * Malformed steps are left to the rules half to reject.
 * @param {unknown} step @param {Set<string>} [found] @returns {Set<string>} */
function featuresOfStep(step, found = new Set(), depth = 0) {
  if (!isObject(step) || depth > 3) return found;
  for (const [name, opts] of Object.entries(step)) {
    const feature = STEP_FEATURE.get(name);
    if (feature !== undefined) found.add(feature);
    if (!isObject(opts)) continue;
    const carried = [opts, opts.instead, ...(Array.isArray(opts.moves) ? opts.moves : [])];
    if (carried.some((o) => isObject(o) && o.face === 'down')) found.add('face_down');
    if (opts.player !== undefined && ['move', 'move_together', 'reorder'].includes(name)) found.add('performer');
    if (opts.order_by !== undefined) found.add('performer');
    if (opts.until !== undefined) found.add('durations'); // G4: mark/control until:
    if (opts.turn_of !== undefined) found.add('next_turn'); // until a player's next turn (CR 800.4m)
    if (name === 'mark' && KEPT_MARK_KINDS.includes(opts.kind)) found.add('kept_marks');
    if (name === 'watch' && opts.aura !== undefined) found.add('aura_triggers');
    if (name === 'move' && opts.cause === 'madness') found.add('madness');
    if (name === 'create' && (opts.copy_of !== undefined || opts.zone === 'outside')) found.add('copies');
    if (name === 'move' && opts.costs !== undefined) found.add('casting');
    if (name === 'phase' && opts.with !== undefined) found.add('phasing_together');
    if (name === 'watch' && opts.phase !== undefined) found.add('phasing_triggers');
    if ((name === 'shuffle' && opts.order !== undefined) || Array.isArray(opts.shuffle)) found.add('shuffle_order');
    if (Array.isArray(opts.instead?.shuffle)) found.add('shuffle_order'); // replace's instead:
    if (name === 'draw' && opts.then !== undefined) found.add('draw_then');
    if (name === 'look' && opts.then !== undefined) found.add('look_then'); // CR 406.3
    if (carried.some((x) => isObject(x) && x.attached_to !== undefined)) found.add('enters_attached'); // CR 303.4f
    if (name === 'cant' && opts.draw !== undefined) found.add('cant_draw'); // CR 121.3
    if (name === 'attach' && opts.to_player !== undefined) found.add('attach_player'); // CR 303.4b
    if (carried.some((x) => isObject(x) && x.attached_to_player !== undefined)) found.add('attach_player'); // CR 303.4f
    if (name === 'create' && opts.as_enters !== undefined) found.add('token_as_enters'); // CR 614.12
    if (name === 'create' && Array.isArray(opts.as_enters)) for (const c of opts.as_enters) featuresOfStep(c, found, depth + 1);
    featuresOfStep(opts.then, found, depth + 1);
    featuresOfStep(opts.do, found, depth + 1);
    if (Array.isArray(opts.costs)) for (const c of opts.costs) featuresOfStep(c, found, depth + 1);
    if (Array.isArray(opts.instead)) for (const c of opts.instead) featuresOfStep(c, found, depth + 1); // replace_draw
    if (Array.isArray(opts.steps)) for (const c of opts.steps) featuresOfStep(c, found, depth + 1); // as_enters
  }
  return found;
}

/** The features a setup's cards use: face_down for a face-down card,
 * sub_cards for a card under another. @param {Array<[string, any]>} cards */
function featuresOfSetup(cards) {
  const found = new Set();
  for (const [, card] of cards) {
    if (isObject(card) && card.face === 'down') found.add('face_down');
    if (isObject(card) && card.under !== undefined) found.add('sub_cards');
  }
  return found;
}

/** The features to declare in hello: all the engine implements, or, when
 * `wanted` (ZO_NODE_FEATURES, a comma list) is set, only those it names. A
 * name the engine does not implement is ignored, with a note on stderr.
 * @param {readonly string[]} implemented @param {string|undefined} wanted */
function chooseFeatures(implemented, wanted) {
  if (wanted === undefined) return [...implemented];
  const names = new Set(wanted.split(',').map((w) => w.trim()).filter((w) => w !== ''));
  for (const name of names) {
    if (!implemented.includes(name)) {
      process.stderr.write(`ZO_NODE_FEATURES: '${name}' is not a feature this engine implements; ignored\n`);
    }
  }
  return implemented.filter((f) => names.has(f));
}

/** The five fields of an observation, and nothing else (PROTOCOL.md,
 * "The observation"). @param {any} o */
function observationOf(o) {
  if (!isObject(o)) throw new Error('observe() did not return an object');
  const { objects, triggers, refs, players, visible } = o;
  return { objects, triggers, refs, players, visible };
}

/** Equal as JSON values: the same scalars, arrays and objects (key order
 * aside). @param {unknown} a @param {unknown} b @returns {boolean} */
function sameJson(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson(a[k], b[k]));
}

/** What changed from observation `prev` to `cur`, for run with observe
 * "delta" (zcp/2; common.json, observationDelta): `objects` always, mapping
 * each handle whose object changed to only the fields that changed (a handle
 * that was not in `prev`: all its fields); `triggers`, `refs` and `players`
 * only when some entry changed, each changed entry whole; `visible` only when
 * some player's list changed, each such list whole. Entries never leave an
 * observation, so a delta never has to say that one did.
 * @param {import('./engine').Observation} prev @param {import('./engine').Observation} cur
 * @returns {import('./engine').ObservationDelta} */
function observationDelta(prev, cur) {
  const objects = Object.create(null);
  for (const handle of Object.keys(cur.objects)) {
    const o = cur.objects[handle];
    const before = Object.prototype.hasOwnProperty.call(prev.objects, handle) ? prev.objects[handle] : undefined;
    if (before === undefined) {
      objects[handle] = o;
      continue;
    }
    const changed = objectChanges(before, o);
    if (changed !== null) objects[handle] = changed;
  }
  /** @type {Record<string, any>} */
  const out = { objects };
  for (const part of ['triggers', 'refs', 'players', 'visible']) {
    /** @type {Record<string, any> | null} */
    let changed = null;
    for (const name of Object.keys(cur[part])) {
      if (!sameJson(prev[part][name], cur[part][name])) (changed || (changed = {}))[name] = cur[part][name];
    }
    if (changed !== null) out[part] = changed;
  }
  return /** @type {any} */ (out);
}

/** The fields of object description `now` that differ from `before` (an
 * optional field that went away, attached_to, is null), or null when none
 * does. @param {Record<string, any>} before @param {Record<string, any>} now */
function objectChanges(before, now) {
  /** @type {Record<string, any> | null} */
  let changed = null;
  for (const field in now) { // descriptions are plain records: no inherited fields
    const value = now[field];
    // most fields are scalars, and most do not change from one step to the next
    if (value === before[field] || (typeof value === 'object' && sameJson(before[field], value))) continue;
    (changed || (changed = {}))[field] = value;
  }
  for (const field in before) if (!(field in now)) (changed || (changed = {}))[field] = null;
  return changed;
}

/** A step's result with exactly its three fields, checked (PROTOCOL.md,
 * "step"). @param {any} r */
function stepResultOf(r) {
  if (!isObject(r) || typeof r.outcome !== 'string' || !Array.isArray(r.events)) {
    throw new Error('step() did not return {outcome, error, events}');
  }
  const error = r.error === undefined ? null : r.error;
  return { outcome: r.outcome, error, events: r.events.map((e) => ({ handle: e.handle, outcome: e.outcome })) };
}

/** What was thrown, for a message. @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));
/** What was thrown, for stderr. @param {unknown} e */
const stackOf = (e) => (e instanceof Error && e.stack ? e.stack : String(e));

/** @param {number|null} id @param {string} code @param {string} message */
function errorAnswer(id, code, message) {
  return { id, ok: false, error: { code, message } };
}

/**
 * zcp/1 for one engine session: answers one request at a time. `engine`
 * (see engine.d.ts, RulesEngine) provides the name, version, rule sets and
 * features, and makes games. A game's step() that throws is undone, through
 * the game's undo log (begin(), commit(), rollback()) when it has one, else
 * its snapshot()/restore(), else by replaying the setup and the steps that
 * succeeded.
 */
class Server {
  /** @param {import('./engine').RulesEngine} engine
   *  @param {string[]} [features] the features to declare (default: from ZO_NODE_FEATURES) */
  constructor(engine, features = chooseFeatures(engine.features, process.env.ZO_NODE_FEATURES)) {
    this.engine = engine;
    this.features = features;
    /** @type {Set<string>} features the engine implements but does not declare: their steps are refused */
    this.withheld = new Set(engine.features.filter((f) => !features.includes(f)));
    this.game = null;
    /** @type {[string, string[], Array<[string, any]>] | null} the setup, to replay */
    this.setupArgs = null;
    this.applied = []; // steps applied since the setup, to replay
    this.finished = false; // bye was answered
    /** the version hello chose */
    this.protocol = PROTOCOLS[0];
  }

  /** One request line in, one answer line out (without its newline), or
   * null for a blank line, which is no request. Never throws. @param {string} line */
  answerLine(line) {
    if (line.trim() === '') return null;
    let request;
    try {
      request = JSON.parse(line);
    } catch (e) {
      return JSON.stringify(errorAnswer(null, 'bad_request', `not JSON: ${messageOf(e)}`));
    }
    const answer = this.answer(request);
    try {
      return JSON.stringify(answer);
    } catch (e) { // an answer that can't be written (a cycle, a BigInt)
      process.stderr.write(`unwritable answer: ${stackOf(e)}\n`);
      return JSON.stringify(errorAnswer(answer.id, 'internal', `answer not JSON: ${messageOf(e)}`));
    }
  }

  /** One request, parsed, to its answer object. Never throws.
   * @param {unknown} request */
  answer(request) {
    if (!isObject(request)) return errorAnswer(null, 'bad_request', 'a request is a JSON object');
    const id = request.id;
    if (!Number.isSafeInteger(id)) return errorAnswer(null, 'bad_request', 'a request needs an integer id');
    try {
      return { id, ok: true, ...this.dispatch(request) };
    } catch (e) {
      if (e instanceof ZcpError) return errorAnswer(id, e.code, e.message);
      process.stderr.write(`internal error on request ${id}: ${stackOf(e)}\n`);
      return errorAnswer(id, 'internal', e instanceof Error ? `${e.name}: ${e.message}` : messageOf(e));
    }
  }

  /** @param {Record<string, any>} request */
  dispatch(request) {
    switch (request.op) {
      case 'hello': return this.hello(request);
      case 'setup': return this.setup(request);
      case 'step': return this.applyStep(this.needGame('step'), request.step);
      case 'observe': return observationOf(this.needGame('observe').observe());
      case 'run': return this.run(request);
      case 'bye': this.finished = true; return {};
      case undefined: throw badRequest('a request needs op');
      default: throw badRequest(`unknown op ${show(request.op)} (hello, setup, step, observe, run, bye)`);
    }
  }

  /** Version negotiation: `protocol` is the runner's baseline, `accepts`
   * (optional) every version it speaks. The answer names the newest of them
   * this engine speaks in its own `protocol` (absent would mean zcp/1). */
  hello(request) {
    const { accepts } = request;
    if (accepts !== undefined && !(Array.isArray(accepts) && accepts.every((v) => typeof v === 'string'))) {
      throw badRequest('hello: accepts is a list of versions');
    }
    if (!PROTOCOLS.includes(request.protocol)) throw unsupported(`this engine speaks ${PROTOCOLS.join(' and ')}`);
    const offered = new Set([request.protocol, ...(accepts || [])]);
    this.protocol = PROTOCOLS.filter((v) => offered.has(v)).pop() || PROTOCOLS[0]; // the newest
    const { name, version, rulesets } = this.engine;
    return { protocol: this.protocol, engine: name, version, rulesets: [...rulesets], features: [...this.features] };
  }

  setup(request) {
    this.game = null; // a failed setup leaves no game
    this.applied = [];
    const { ruleset, players, cards } = request;
    if (typeof ruleset !== 'string' || !Array.isArray(players) || !isObject(cards)) {
      throw badRequest('setup needs ruleset (text), players (list), cards (object)');
    }
    if (!this.engine.rulesets.includes(ruleset)) {
      throw unsupported(`unknown rule set '${ruleset}'; this engine has ${this.engine.rulesets.join(', ')}`);
    }
    if (players.length < 1 || players.length > 8 || new Set(players).size !== players.length
        || !players.every((p) => typeof p === 'string' && /^[^.\s]+$/.test(p))) {
      throw badRequest('players: 1 to 8 distinct names without "." or spaces');
    }
    // the order of the keys means nothing (JSON parsers, JSON.parse among
    // them, may reorder keys): each card of an ordered zone has a position
    /** @type {Array<[string, any]>} */
    const entries = Object.entries(cards);
    if (this.withheld.size) { // only an engine declaring less than it has refuses a setup
      for (const f of featuresOfSetup(entries)) {
        if (this.withheld.has(f)) throw unsupported(`the setup needs feature '${f}', which this engine does not declare`);
      }
    }
    // newGame does not change the cards (engine.d.ts), so they are kept as
    // they are, to build the game again should a step have to be undone so
    this.setupArgs = [ruleset, [...players], entries];
    this.game = this.engine.newGame(ruleset, [...players], entries);
    return {};
  }

  needGame(op) {
    if (this.game === null) throw badRequest(`${op} before setup`);
    return this.game;
  }

  /** Apply one step completely or not at all; its result. */
  applyStep(game, step) {
    if (!isObject(step) || Object.keys(step).length !== 1) {
      throw badRequest('step: expected an object with one step name');
    }
    if (this.withheld.size) { // only an engine declaring less than it has refuses steps
      for (const f of featuresOfStep(step)) {
        if (this.withheld.has(f)) throw unsupported(`the step needs feature '${f}', which this engine does not declare`);
      }
    }
    if (typeof game.begin === 'function') { // an undo log: it costs what the step writes
      const mark = game.begin();
      let result;
      try {
        result = stepResultOf(game.step(step));
      } catch (e) {
        this.rollBack(game, undefined, mark);
        throw e;
      }
      game.commit(mark);
      return result;
    }
    const snapshot = typeof game.snapshot === 'function' ? game.snapshot() : undefined;
    const replayable = snapshot === undefined ? structuredClone(step) : null;
    try {
      const result = stepResultOf(game.step(step));
      if (replayable !== null) this.applied.push(replayable);
      return result;
    } catch (e) {
      this.rollBack(game, snapshot);
      throw e;
    }
  }

  /** Put the game back as it was before the step that threw: from its undo
   * log (mark, from begin()), its snapshot, or by replaying the game. */
  rollBack(game, snapshot, mark) {
    try {
      if (mark !== undefined) {
        game.rollback(mark);
        return;
      }
      if (snapshot !== undefined) {
        game.restore(snapshot);
        return;
      }
      if (this.setupArgs === null) throw new Error('no setup to replay');
      const [ruleset, players, cards] = this.setupArgs;
      const fresh = this.engine.newGame(ruleset, [...players], structuredClone(cards));
      for (const s of this.applied) fresh.step(structuredClone(s));
      this.game = fresh;
    } catch (e) { // the game can't be trusted any more: the next step is a bad_request
      process.stderr.write(`could not undo the step: ${stackOf(e)}\n`);
      this.game = null;
    }
  }

  /** Many steps in one request (fuzzing). Each step is atomic; the steps
   * before one that fails stay applied, as in the reference engine. With
   * observe "each", a whole observation after every step; "delta" (zcp/2),
   * only what changed since the one before (for the first step, since the
   * game as it was before the run); "end" (the default), one whole
   * observation after the last step.
   *
   * A delta is what costs: a whole observation after each step, compared
   * with the one before, costs the whole game at every step. A game that
   * knows what its steps wrote says what changed itself (observeDelta(),
   * engine.d.ts), at the cost of what changed; for a game without it the
   * two whole observations are compared here (observationDelta). */
  run(request) {
    const { steps } = request;
    const mode = request.observe === undefined ? 'end' : request.observe;
    if (!Array.isArray(steps)) throw badRequest('run needs steps (a list)');
    if (mode !== 'each' && mode !== 'delta' && mode !== 'end') throw badRequest('run: observe is each, delta or end');
    const results = [];
    const observations = [];
    const start = this.game;
    const own = mode === 'delta' && start !== null && typeof start.observeDelta === 'function'
      ? start.observeDelta.bind(start) : null;
    // the game as it was before the run: what the first delta starts from
    if (own !== null) own();
    let prev = mode === 'delta' && start !== null && own === null ? observationOf(start.observe()) : null;
    for (const step of steps) {
      const game = this.needGame('run');
      results.push(this.applyStep(game, step));
      if (mode === 'end') continue;
      if (own !== null) { // a step that throws ends the run, so the game is still `start`
        observations.push(own());
        continue;
      }
      const cur = observationOf(game.observe());
      observations.push(mode === 'delta' && prev !== null ? observationDelta(prev, cur) : cur);
      prev = cur;
    }
    if (mode === 'end' && this.game !== null) observations.push(observationOf(this.game.observe()));
    return { results, observations };
  }
}

/** Serve requests from stdin until bye or the end of input. The lines that
 * arrive together are answered together, in one write: a runner that waits
 * for each answer gets it at once, one that writes ahead (a fuzzer, a
 * recorded session) costs one write per read, not one per line. */
function main(engine = mtgCurrent) {
  const server = new Server(engine);
  process.stdout.on('error', () => process.exit(0)); // the runner has gone: nobody to answer
  /** @type {string[]} the pieces of a line not yet ended (a long setup spans many reads) */
  let pending = [];
  /** @param {string} line @returns {string} its answer line, or '' */
  const answer = (line) => {
    const text = server.answerLine(line); // JSON.parse takes the \r of a CRLF line as space
    return text === null ? '' : `${text}\n`;
  };
  const stop = () => { // bye: read no more; node exits once the answers are written
    process.stdin.removeAllListeners('data');
    process.stdin.destroy();
  };
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (/** @type {string} */ chunk) => {
    let out = '';
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1 && !server.finished; nl = chunk.indexOf('\n', start)) {
      pending.push(chunk.slice(start, nl));
      const line = pending.length === 1 ? pending[0] : pending.join('');
      pending = [];
      out += answer(line);
      start = nl + 1;
    }
    if (start < chunk.length && !server.finished) pending.push(chunk.slice(start));
    if (out !== '') process.stdout.write(out);
    if (server.finished) stop();
  });
  process.stdin.on('end', () => { // a last line without its newline
    if (!server.finished && pending.length) process.stdout.write(answer(pending.join('')));
  });
}

// ===========================================================================
// 2. The rules: Magic: the Gathering, rule set mtg-current
// ===========================================================================

const PLAYER_ZONES = ['library', 'hand', 'graveyard']; // CR 400.1: each player's own
const SHARED_ZONES = ['battlefield', 'stack', 'exile', 'command', 'ante']; // CR 400.1, 407.1
const ORDERED_ZONES = new Set(['library', 'graveyard', 'stack']); // CR 400.5
const HIDDEN_ZONES = new Set(['library', 'hand']); // CR 400.2
const CONTROLLED_ZONES = new Set(['battlefield', 'stack']); // CR 109.4, 110.2
const RENEWED_IN_PLACE = new Set(['exile', 'command']); // CR 400.8, 400.10
const OUTSIDE = 'outside'; // CR 400.11: outside the game, not a zone
const COMMAND_ONLY = ['conspiracy', 'phenomenon', 'plane', 'scheme', 'vanguard']; // CR 400.4b
const KEPT_ON_RESOLVING = ['characteristic', 'prevention', 'spell_info']; // CR 400.7a, 400.7c, 400.7d
const MARK_KINDS = ['counter', 'effect', 'characteristic', 'prevention', 'sticker', 'permission', 'spell_info'];
const KINDS = ['card', 'token', 'ability', 'copy'];
const ARRIVALS = new Set(['moved', 'redirected', 'replaced']); // a real change of zone

/** Options of a move (also each of move_together's, and replace's instead:). */
/** G4: the durations of until: (CR 514.2; 500.5, 800.4m). */
const DURATIONS = ['end_of_turn', 'next_turn'];
const MOVE_OPTIONS = ['card', 'ref', 'to', 'from', 'position', 'face', 'by', 'cause', 'choose', 'shuffle', 'seed', 'then', 'player', 'attached_to', 'attached_to_player'];
/** Steps that are never a then:/do: step, nor one of a list of steps
 * (costs:, replace_draw's instead:, as_enters' steps:). */
const UNNESTABLE = ['move_together', 'create', 'end_turn', 'cant', 'replace_draw', 'untap', 'leave_game', 'as_enters'];
const CARD_KEYS = ['owner', 'zone', 'kind', 'types', 'subtypes', 'controller', 'face', 'position', 'visibility', 'under'];

/** 'alice.hand' -> 'hand'; 'exile' -> 'exile'. */
const zoneType = (zone) => zone.slice(zone.indexOf('.') + 1);
/** 'alice.hand' -> 'alice'; a shared zone -> null. */
const zonePlayer = (zone) => (zone.includes('.') ? zone.slice(0, zone.indexOf('.')) : null);
/** A zone whose objects any effect can find again: public (CR 400.2), in the game. */
const isPublicZone = (zone) => zone !== OUTSIDE && !HIDDEN_ZONES.has(zoneType(zone));

/** A copy of a JSON value (a step's options an effect keeps), which a
 * structuredClone would make several times slower. @param {any} v @returns {any} */
function copyJson(v) {
  if (Array.isArray(v)) return v.map(copyJson);
  if (v === null || typeof v !== 'object') return v;
  const copy = table();
  for (const k of Object.keys(v)) copy[k] = copyJson(v[k]);
  return copy;
}

/** An object whose keys are handles or names: no inherited keys, so a
 * handle such as "constructor" or "__proto__" is just a name. */
const table = () => Object.create(null);

/** A shuffle whose result the step does not give (a shuffle step without
 * order:, a move with shuffle: true): any order is right, so this is just a
 * small seeded generator (mulberry32) driving Fisher-Yates, repeatable for
 * a seed. No engine needs the oracle's generator. In place.
 * @param {string[]} list @param {number} seed */
function seededShuffle(list, seed) {
  let state = seed >>> 0;
  const next = () => { // a 32-bit number, uniform enough for a game
    state = (state + 0x6D2B79F5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return (z ^ (z >>> 14)) >>> 0;
  };
  for (let i = list.length - 1; i > 0; i--) {
    const j = next() % (i + 1);
    [list[i], list[j]] = [list[j], list[i]];
  }
}

/** What one step did: the answer's outcome, error and per-object events. */
class StepResult {
  constructor() {
    /** @type {import('./engine').Outcome} */
    this.outcome = 'no_move';
    /** @type {import('./engine').StepError | null} */
    this.error = null;
    /** @type {import('./engine').StepEvent[]} */
    this.events = [];
  }

  /** @param {import('./engine').Outcome} outcome @param {import('./engine').StepError | null} [error] */
  set(outcome, error = null) {
    this.outcome = outcome;
    this.error = error;
    return this;
  }

  /** @param {string} handle @param {import('./engine').Outcome} outcome */
  event(handle, outcome) {
    this.events.push({ handle, outcome });
  }
}

/** Undo-log entries (MtgGame.w, wc, ws): put a record, a container or a
 * field of the state back as saved. */
function restoreRecord(rec, saved) {
  for (const k of Object.keys(rec)) if (!(k in saved)) delete rec[k];
  Object.assign(rec, saved);
}
function restoreContainer(c, saved) {
  if (c instanceof Map) {
    c.clear();
    for (const [k, v] of saved) c.set(k, v);
  } else if (c instanceof Set) {
    c.clear();
    for (const v of saved) c.add(v);
  } else c.splice(0, c.length, ...saved);
}
function restoreField(s, [key, value]) { s[key] = value; }
function restoreKey(c, [key, had, value]) {
  if (!had) c.delete(key);
  else if (c instanceof Map) c.set(key, value);
}

/**
 * One game of mtg-current. All its state is plain data in `this.s` (maps,
 * sets, arrays, records), so that snapshot() is one structuredClone.
 *
 * An object (`this.s.objects`, by handle) is
 *   { handle, kind, owner, words: types and subtypes, exists, born, id,
 *     zone, face: 'up'|'down', controller, phasedOut, leftBattlefield,
 *     marks: Map name -> kind, ctrlDefault, phasedUnder, ... }
 * `id` is the identity token: a new one whenever the card becomes a new
 * object (CR 400.7). Zones (`this.s.zones`) are lists of handles, top first.
 * `ctrlDefault` is the controller it got as it arrived where it is (set-up,
 * create, a move), which no `control` step changes; `phasedUnder` the
 * player who controlled it as it last phased out (CR 702.26a). The game
 * also knows whose turn it is (`turn`) and who has left it (`departed`),
 * the as-enters effects in force (`asEnters`) and, during one event, what
 * enters the battlefield in it and what its as-enters steps moved
 * (`entering`, `etbChosen`; CR 614.13a, 614.13b).
 */
class MtgGame {
  /** @param {string[]} players @param {Array<[string, any]>} cards (their order decides nothing) */
  constructor(players, cards) {
    this.s = {
      players,
      zones: new Map(),
      objects: new Map(),
      lastId: 0,
      triggers: new Map(), // name -> {handle, from, to, words, fired, found, controller, id}
      refs: new Map(), // name -> {handle, id}; handle null when it saw nothing
      // name -> {card, when: {to, from, cause}, instead, category}, in creation
      // order; a draw replacement (replace_draw, CR 614.11), in the same
      // namespace and order: {draw: true, player, instead: [steps], once,
      // active (false once a once: has applied), running (while its own steps run, 614.5)}
      replacements: new Map(),
      cants: /** @type {any[]} */ ([]), // "can't" effects in force, never ending (CR 614.17): {card, when: {to, from, cause}, types}
      chosenOrder: /** @type {string[]} */ ([]), // replacement names a choose_replacement put first
      markNames: new Set(),
      untilMarks: new Set(), // G4: marks that last until end of turn (CR 514.2)
      nextMarks: new Map(), // marks that last until a player's next turn: name -> player (CR 800.4m)
      // G4: the control effects in force, {handle, id, player, until, turnOf}
      // in timestamp order: the latest decides (CR 613.7), on the object it
      // was given for (400.7); each entry is never changed, only replaced
      ctrls: /** @type {{handle: string, id: number, player: string, until: string | undefined, turnOf: string | undefined}[]} */ ([]),
      drewFromEmpty: new Set(), // CR 704.5b, until the next state check
      lost: new Set(),
      topShown: new Map(), // CR 401.5: player -> handle shown on top of their library (null: none)
      nsteps: 0, // top-level steps done (CR 400.7f: when an object arrived)
      // whose turn it is (CR 702.26a, 702.26n): the first player's at the
      // start, then the player of the last untap step
      turn: players[0],
      departed: new Set(), // players who left the game (leave_game, CR 800.4a)
      leftDue: new Set(), // departed players whose next turn has not yet come round (702.26n)
      // as-enters effects in force (as_enters, CR 614.13), in the order they
      // came: {card: handle, steps: [steps]}
      asEnters: /** @type {Array<{card: string, steps: any[]}>} */ ([]),
      // the event being done (one move, or a whole move_together): the
      // handles entering the battlefield in it (614.13a) and those its
      // as-enters steps moved (614.13b); inEtb: how deep in as-enters steps
      entering: new Set(),
      etbChosen: new Set(),
      inEtb: 0,
    };
    /** the undo log of the step under way, or null (begin()) */
    this.log = null;
    /** the records w() logged since the last begin(): logged once is enough */
    this.logged = new Set();
    /** what the last observation said (observe(), observeDelta()), to
     * answer the next delta from: Maps of each object's description and who
     * sees it, and of the triggers', refs' and players' entries; null
     * before the first */
    this.told = null;
    /** handles of the objects that may look different since `told` (w, wz,
     * wk, wc): observeDelta() describes only these again */
    this.touched = new Set();
    /** handles of the objects attached to something as `told` saw them:
     * one shows its attached_to only while its host stays (attachedTo) */
    this.attachers = new Set();
    /** objects made so far: each record's `seq`, the order of this.s.objects */
    this.made = 0;
    for (const z of SHARED_ZONES) this.s.zones.set(z, []);
    for (const p of players) for (const t of PLAYER_ZONES) this.s.zones.set(`${p}.${t}`, []);
    this.placeAll(cards);
  }

  // ---- undoing a step (PROTOCOL.md section 6) ------------------------------------
  // A step that throws must leave the game as it was. Copying the whole
  // state before every step would make each step cost the whole game (the
  // first version of this adapter spent half its time so). Instead a step
  // keeps an undo log: before the rules write to the state they save what is
  // there, and rollback() puts it back, newest first; commit() drops the
  // log. Each kind of write logs only what it can change:
  //   w(rec)        a record (an object, a trigger, a replacement) about to
  //                 have fields written: a shallow copy of it
  //   wz(zone)      a zone's pile about to change in place: a copy of the pile
  //   wk(c, key)    a Map about to have key set, a Set about to have key
  //                 added: that key's old value, or that it was absent (so a
  //                 new object or trigger costs one entry, not a copy of all)
  //   wc(c)         any other change of a container (delete, clear, push):
  //                 a copy of it (they are small: cants, the players' sets)
  //   ws(key)       this.s[key] about to be assigned: its value
  // A step costs what it writes, whatever the size of the game. A write
  // that bypasses the log is a bug that check_undo.js finds.
  //
  // The same calls tell the observation what to describe again
  // (observeDelta(), run with observe: delta): an object record written,
  // an object put into this.s.objects, and the objects of an ordered pile
  // that changed (their positions) are `touched`.

  /** Start logging (or nest in the log under way): the mark to give to
   * commit() or rollback(). */
  begin() {
    this.logged.clear(); // a record written after this mark is logged again
    if (this.log === null) {
      this.log = [];
      return -1;
    }
    return this.log.length;
  }

  /** Keep what was done since begin() returned `mark`. */
  commit(mark) {
    if (mark === -1) this.log = null;
  }

  /** Undo everything written since begin() returned `mark`. */
  rollback(mark) {
    const { log } = this;
    if (log === null) return; // nothing was logged
    const from = Math.max(mark, 0);
    for (let i = log.length - 3; i >= from; i -= 3) log[i](log[i + 1], log[i + 2]);
    log.length = from;
    this.logged.clear();
    if (mark === -1) this.log = null;
  }

  /** About to write to record `rec`: log a copy of it (its marks and what a
   * look or reveal shows copied too), the first time since the last mark
   * (begin()): rolled back, that copy is what it was at the mark, whatever
   * was written after it. An object's record is touched. Returns rec. */
  w(rec) {
    if (this.s.objects.get(rec.handle) === rec) this.touched.add(rec.handle);
    if (this.log !== null && !this.logged.has(rec)) {
      this.logged.add(rec);
      const saved = { ...rec };
      if (rec.marks instanceof Map) saved.marks = new Map(rec.marks);
      if (rec.shown) saved.shown = { ...rec.shown, players: new Set(rec.shown.players) };
      this.log.push(restoreRecord, rec, saved);
    }
    return rec;
  }

  /** About to change the pile of `zone` in place: log a copy of it. In an
   * ordered zone every object in it may be at another position afterwards,
   * so each is touched (one arriving is written anyway). Returns the pile,
   * or a new empty list for outside the game (no pile). */
  wz(zone) {
    const pile = this.s.zones.get(zone);
    if (pile === undefined) return [];
    if (ORDERED_ZONES.has(zoneType(zone))) for (const h of pile) this.touched.add(h);
    return this.wc(pile);
  }

  /** About to set `key` of Map `c`, or add `key` to Set `c`: log its old
   * value, or that it was absent (rolled back, it is deleted again, which
   * keeps the order of the others). A key put into this.s.objects is
   * touched. Returns c. */
  wk(c, key) {
    if (c === this.s.objects) this.touched.add(key);
    if (this.log !== null) this.log.push(restoreKey, c, [key, c.has(key), c instanceof Map ? c.get(key) : key]);
    return c;
  }

  /** About to change container `c` (an array, Map or Set of the state) in
   * place otherwise: log a copy of it. The libraries' shown tops (CR 401.5)
   * decide what is public: the ones it holds are touched. Returns c. */
  wc(c) {
    if (c === this.s.topShown) for (const h of c.values()) if (h !== null) this.touched.add(h);
    if (this.log !== null) this.log.push(restoreContainer, c, c instanceof Map ? new Map(c) : c instanceof Set ? new Set(c) : c.slice());
    return c;
  }

  /** About to assign this.s[key]: log what it holds. */
  ws(key) {
    if (this.log !== null) this.log.push(restoreField, this.s, [key, this.s[key]]);
  }

  /** A copy of the whole state (for tests and tools; the protocol half
   * undoes steps with the undo log). */
  snapshot() { return structuredClone(this.s); }

  restore(snapshot) { this.s = snapshot; }

  // ---- reading names and options ---------------------------------------------

  player(name, what) {
    if (!this.s.players.includes(name)) throw badRequest(`${what}: unknown player ${show(name)} (${this.s.players.join(', ')})`);
    return name;
  }

  object(handle) {
    const o = typeof handle === 'string' ? this.s.objects.get(handle) : undefined;
    if (o === undefined) throw badRequest(`unknown card ${show(handle)}`);
    return o;
  }

  /** A name a step introduces (as:): a word never used in its namespace. */
  newName(name, used, what) {
    if (typeof name !== 'string' || !/^[^.\s]+$/.test(name)) throw badRequest(`${what}: as: needs a name without "." or spaces`);
    if (used.has(name)) throw badRequest(`${what}: the name '${name}' is already used`);
    return name;
  }

  /** A written zone -> {type, player}: player null when not written; type
   * may be one of the special words `extra` allows (outside, any). */
  zoneRef(text, what, extra = []) {
    if (typeof text === 'string') {
      if (extra.includes(text)) return { type: text, player: null };
      if (SHARED_ZONES.includes(text) || PLAYER_ZONES.includes(text)) return { type: text, player: null };
      const player = zonePlayer(text);
      const type = zoneType(text);
      if (player !== null && this.s.players.includes(player) && PLAYER_ZONES.includes(type)) return { type, player };
    }
    const known = [...SHARED_ZONES, ...PLAYER_ZONES.map((t) => `PLAYER.${t}`), ...extra].join(', ');
    throw badRequest(`${what}: unknown zone ${show(text)} in mtg-current (${known})`);
  }

  /** The zone a written zone names for an object of `owner`, and whether
   * naming another player's own zone sent it to the owner's (CR 400.3). */
  zoneFor(ref, owner) {
    if (!PLAYER_ZONES.includes(ref.type)) return { zone: ref.type, redirected: false };
    return { zone: `${owner}.${ref.type}`, redirected: ref.player !== null && ref.player !== owner };
  }

  /** The zone a step acting on no object names: bare means the first player's. */
  zoneOfStep(text, what) {
    const ref = this.zoneRef(text, what);
    return PLAYER_ZONES.includes(ref.type) ? `${ref.player || this.s.players[0]}.${ref.type}` : ref.type;
  }

  /** Does `zone` fit the written `ref`? Its type, and its player when one is
   * written; `any` fits every zone, `outside` only outside (CR 400.11). */
  static fits(ref, zone) {
    if (ref.type === 'any') return true;
    if (ref.type === OUTSIDE || zone === OUTSIDE) return ref.type === zone;
    return zoneType(zone) === ref.type && (ref.player === null || zonePlayer(zone) === ref.player);
  }

  static words(value, what) {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || !value.every((w) => typeof w === 'string')) throw badRequest(`${what}: expected a list of words`);
    return value;
  }

  static face(value, what) {
    if (value === undefined) return 'up';
    if (value !== 'up' && value !== 'down') throw badRequest(`${what}: face is up or down, not ${show(value)}`);
    return value;
  }

  static count(value, what) {
    if (value === undefined) return 1;
    if (!Number.isInteger(value) || value < 0 || value > 10000) throw badRequest(`${what}: count is a number from 0`);
    return value;
  }

  /** Check a move's options (move, each of move_together's, replace's
   * instead:) before anything moves. */
  checkMove(opts, what) {
    if (opts.to === undefined) throw badRequest(`${what}: to: is required`);
    this.zoneRef(opts.to, `${what}: to`, [OUTSIDE]);
    if (opts.from !== undefined) this.zoneRef(opts.from, `${what}: from`, [OUTSIDE]);
    const p = opts.position;
    if (p !== undefined && p !== 'top' && p !== 'bottom' && !(Number.isInteger(p) && p >= 0 && p <= 10000)) {
      throw badRequest(`${what}: position is top, bottom or an index from the top, not ${show(p)}`);
    }
    MtgGame.face(opts.face, what);
    if (opts.attached_to_player !== undefined) {
      if (opts.attached_to !== undefined) throw badRequest(`${what}: give attached_to: or attached_to_player:, not both`);
      this.player(opts.attached_to_player, `${what}: attached_to_player`);
    }
    if (opts.by !== undefined && opts.by !== 'effect' && opts.by !== 'rule') throw badRequest(`${what}: by is effect or rule`);
    if (opts.cause !== undefined && typeof opts.cause !== 'string') throw badRequest(`${what}: cause is a word`);
    if (opts.choose !== undefined && !(Number.isInteger(opts.choose) && opts.choose >= 1)) throw badRequest(`${what}: choose is a zone index from 1`);
    if (opts.shuffle !== undefined && typeof opts.shuffle !== 'boolean' &&
        !(Array.isArray(opts.shuffle) && opts.shuffle.every((h) => typeof h === 'string'))) {
      throw badRequest(`${what}: shuffle is true, false or the resulting order (handles, top first)`);
    }
    if (opts.seed !== undefined && !(Number.isInteger(opts.seed) && opts.seed >= 0 && opts.seed <= 2147483647)) {
      throw badRequest(`${what}: seed is a number from 0 to 2147483647`);
    }
  }

  // ---- the starting position ---------------------------------------------------

  /** Put the setup's cards in place. A position the rules forbid is a
   * bad_request, naming the rule. The order of `cards` decides nothing
   * (JSON parsers may reorder keys): each card of an ordered zone comes with
   * its position; cards without one (from an older runner) fill the places
   * left, in the order given. */
  placeAll(cards) {
    const arriving = new Map(); // zone -> [{o, position}]
    for (const [handle, card] of cards) {
      const { o, position } = this.cardFromSetup(handle, card);
      this.s.objects.set(handle, o);
      if (o.zone === OUTSIDE) continue;
      if (!arriving.has(o.zone)) arriving.set(o.zone, []);
      arriving.get(o.zone).push({ o, position });
    }
    for (const [zone, list] of arriving) {
      // cards with a position take it; the others fill the gaps in the order
      // given, first on top
      const pile = new Array(list.length).fill(null);
      for (const { o, position } of list) {
        if (position === undefined) continue;
        if (position >= list.length || pile[position] !== null) {
          throw badRequest(`card ${o.handle}: position ${position} is taken or past the end of ${zone}`);
        }
        pile[position] = o.handle;
      }
      const rest = list.filter((a) => a.position === undefined).map((a) => a.o.handle);
      this.s.zones.set(zone, pile.map((h) => (h === null ? rest.shift() : h)));
    }
    for (const o of this.s.objects.values()) o.id = ++this.s.lastId;
  }

  cardFromSetup(handle, card) {
    if (!/^[^.\s]+$/.test(handle)) throw badRequest(`card handle ${show(handle)}: a word without "." or spaces`);
    if (!isObject(card)) throw badRequest(`card ${handle}: expected an object`);
    const unknown = Object.keys(card).filter((k) => !CARD_KEYS.includes(k));
    if (unknown.length) throw badRequest(`card ${handle}: unknown key ${unknown[0]} (${CARD_KEYS.join(', ')})`);
    if (card.under !== undefined) throw badRequest(`card ${handle}: mtg-current has no sub-cards (under:)`);
    if (card.visibility !== undefined) throw badRequest(`card ${handle}: in Magic a zone decides visibility, not the card (CR 400.2)`);
    const kind = card.kind === undefined ? 'card' : card.kind;
    if (!KINDS.includes(kind)) throw badRequest(`card ${handle}: kind ${show(kind)} is not a Magic object (${KINDS.join(', ')})`);
    const owner = this.player(card.owner, `card ${handle}: owner`);
    const o = this.newObject(handle, kind, owner, card, `card ${handle}`);
    let zone;
    if (card.zone === OUTSIDE) {
      if (kind !== 'card') throw badRequest(`card ${handle}: only cards exist outside the game (CR 400.11)`);
      zone = OUTSIDE;
    } else {
      const ref = this.zoneRef(card.zone, `card ${handle}: zone`);
      const place = this.zoneFor(ref, owner);
      if (place.redirected) throw badRequest(`card ${handle}: ${card.zone} holds only its owner's cards (CR 400.3)`);
      zone = place.zone;
    }
    const type = zone === OUTSIDE ? OUTSIDE : zoneType(zone);
    if (kind === 'token' && type !== 'battlefield') throw badRequest(`token ${handle}: a token exists only on the battlefield here (CR 111.7)`);
    if (kind === 'ability' && type !== 'stack') throw badRequest(`ability ${handle}: an ability exists only on the stack`);
    if (kind === 'copy' && !CONTROLLED_ZONES.has(type)) throw badRequest(`copy ${handle}: a copy is on the stack or the battlefield (CR 704.5e)`);
    if (kind === 'copy' && type === 'battlefield') o.kind = 'token'; // CR 111.13: a copy of a permanent is a token
    if (type === 'battlefield' && MtgGame.isInstantOrSorcery(o)) {
      throw badRequest(`card ${handle}: an instant or sorcery can't be on the battlefield (CR 400.4a)`);
    }
    if (CONTROLLED_ZONES.has(type)) {
      o.controller = card.controller === undefined ? owner : this.player(card.controller, `card ${handle}: controller`);
      o.ctrlDefault = o.controller; // CR 110.2
    } else if (card.controller !== undefined) {
      throw badRequest(`card ${handle}: objects in ${zone} have no controller (CR 109.4)`);
    }
    const position = card.position;
    if (position !== undefined) {
      if (!Number.isInteger(position) || position < 0) throw badRequest(`card ${handle}: position is an index from 0`);
      if (!ORDERED_ZONES.has(type)) throw badRequest(`card ${handle}: ${zone} is not an ordered zone`);
    }
    o.zone = zone;
    o.born = true;
    return { o, position };
  }

  /** A new record for an object, not yet in any zone. */
  newObject(handle, kind, owner, spec, what) {
    return {
      handle,
      seq: ++this.made, // its place in this.s.objects, where it is put next
      kind,
      owner,
      words: [...MtgGame.words(spec.types, `${what}: types`), ...MtgGame.words(spec.subtypes, `${what}: subtypes`)],
      exists: true,
      born: false, // false only for a create that never happened
      id: 0,
      zone: null,
      face: MtgGame.face(spec.face, what),
      controller: null,
      phasedOut: false,
      leftBattlefield: false,
      marks: new Map(),
      // CR 110.2: the controller it got as it arrived in a zone with
      // controllers (set-up, create, a move), never a control effect's;
      // null elsewhere. A player leaving takes back what effects gave them
      // (CR 800.4a)
      ctrlDefault: null,
      // CR 702.26a, 702.26n: who controlled it as it phased out (the untap
      // step it phases in during); null before it ever phased out
      phasedUnder: null,
      // attach (CR 301.5, 303.4): the permanent's handle and both identities
      // then (a zone change of either ends it, CR 400.7); the handle it
      // phased out with, indirectly (CR 702.26g)
      attached: null,
      attachedId: 0,
      attachSelf: 0,
      // attach to_player (CR 303.4b): the player an Aura is attached to,
      // while it is the object attachSelf names and the player is in the
      // game (701.3d); attached is null meanwhile
      attachedPlayer: null,
      phasedWith: null,
      topHidId: -1, // CR 401.6: its identity when it stopped being a library's revealed top card
      arrivedStep: -1, // CR 400.7f: the step it last arrived in a zone, and whether a state check put it there
      arrivedByCheck: false,
      // CR 400.7k: the identity it had in exile when the madness trigger put
      // it into a public zone, and the identity it got there (0: never)
      madnessFrom: 0,
      madnessId: 0,
      // what a look or reveal shows (MtgGame.shown): {id, zone, players, all}
      shown: null,
    };
  }

  static isInstantOrSorcery(o) { return o.words.includes('instant') || o.words.includes('sorcery'); }

  // ---- objects in zones ----------------------------------------------------------

  /** CR 400.7: the object becomes a new object with no memory of the old
   * one; only marks of the kinds in `keep` carry over. */
  renew(o, keep = []) {
    this.w(o);
    this.ws('lastId');
    o.id = ++this.s.lastId;
    for (const [name, kind] of o.marks) if (!keep.includes(kind)) o.marks.delete(name);
  }

  takeOut(o) {
    const pile = this.s.zones.get(o.zone);
    if (pile) this.wz(o.zone).splice(pile.indexOf(o.handle), 1);
  }

  /** Into `zone`: ordered zones at the position asked (top by default; an
   * index past the end is the bottom), other zones at the end.
   * @param {any} o @param {string} zone @param {'top'|'bottom'|number} [position] */
  putIn(o, zone, position = 'top') {
    this.w(o).zone = zone;
    const pile = this.s.zones.get(zone);
    if (!pile) return; // outside the game
    this.wz(zone);
    if (!ORDERED_ZONES.has(zoneType(zone)) || position === 'bottom') pile.push(o.handle);
    else pile.splice(position === 'top' ? 0 : Math.min(position, pile.length), 0, o.handle);
  }

  cease(o, result) {
    this.takeOut(o);
    this.w(o);
    Object.assign(o, { exists: false, zone: null, controller: null, phasedOut: false, face: 'up' });
    o.marks.clear();
    result.event(o.handle, 'ceased');
  }

  /** Can an effect that followed `o` find it where it is now? Only in a
   * public zone (CR 400.7e for triggers, 400.7j for the rest of an effect). */
  static findable(o) { return o.exists && isPublicZone(o.zone); }

  // ---- steps ---------------------------------------------------------------------

  /** Apply one step of the case language; its result. @param {any} step */
  step(step) {
    const result = this.runStep(step, null);
    if (this.s.topShown.size) this.updateTops(result); // CR 401.5, 401.6: after each step
    this.ws('nsteps');
    this.s.nsteps += 1;
    return result;
  }

  // ---- the revealed top card of a library (CR 401.5, 401.6) ------------------

  /** `handle` stops being the revealed top card of `player`'s library:
   * remember the object it was, if it is still there (one that left is
   * new anyway). */
  topHidden(handle, player) {
    const o = this.s.objects.get(handle);
    if (o.exists && o.zone === `${player}.library`) this.w(o).topHidId = o.id;
  }

  /** Each library played with its top card revealed shows its top card
   * now; a card revealed again after it stopped is a new object (401.6). */
  updateTops(result) {
    for (const p of this.s.players) {
      if (!this.s.topShown.has(p)) continue;
      const pile = this.s.zones.get(`${p}.library`);
      const top = pile.length ? pile[0] : null;
      const was = this.s.topShown.get(p);
      if (top === was) continue;
      if (was !== null) this.topHidden(was, p);
      if (top !== null) {
        const o = this.s.objects.get(top);
        if (o.topHidId === o.id) {
          this.renew(o);
          result.event(top, 'new_object_in_place');
        }
      }
      this.wc(this.s.topShown).set(p, top);
    }
  }

  /** `followed` is the object a nested step (then:, do:) acts on. */
  runStep(step, followed) {
    if (!isObject(step) || Object.keys(step).length !== 1) throw badRequest('step: expected an object with one step name');
    const [name, given] = Object.entries(step)[0];
    const kind = STEP_KINDS.get(name);
    if (kind === undefined) throw badRequest(`unknown step ${show(name)} (${[...STEP_KINDS.keys()].join(', ')})`);
    const opts = given === null ? {} : given;
    if (!isObject(opts)) throw badRequest(`${name}: expected an object of options`);
    for (const k of Object.keys(opts)) {
      if (!kind.options.includes(k)) throw badRequest(`${name}: unknown option ${k} (${kind.options.join(', ')})`);
    }
    if (followed !== null) {
      if (UNNESTABLE.includes(name)) throw badRequest(`${name} can't be a then:/do: step`);
      if (opts.card !== undefined || opts.ref !== undefined) throw badRequest(`${name}: a then:/do: step acts on the object followed, without card: or ref:`);
      if (opts.then !== undefined) throw badRequest(`${name}: then: can't be nested in then:/do:`);
    }
    const result = new StepResult();
    if (this.s.departed.size && this.namesDeparted(name, opts)) {
      // CR 800.4b, 800.4d, 800.4k: a player who left the game does nothing
      // and is given nothing; the step is still checked as any other (a
      // malformed one is a bad_request), on a copy of the game, then undone
      this.checkOnly(kind, opts, followed);
      // the name it introduces is taken all the same, by nothing
      if (name === 'create') {
        const o = this.newObject(opts.as, opts.kind === undefined ? 'token' : opts.kind, opts.owner, opts, 'create');
        o.exists = false;
        this.wk(this.s.objects, opts.as).set(opts.as, o);
      } else if (name === 'replace_draw') {
        this.wk(this.s.replacements, opts.as).set(opts.as, {
          draw: true, player: opts.player, instead: [], once: false, active: false, running: false,
        });
      }
      return result.set('rejected', 'wrong_player');
    }
    kind.run.call(this, opts, result, followed);
    return result;
  }

  /** Does the step name a player who has left the game as its performer
   * or `player` (also `order_by`, a reveal's `top_of`), a create's owner or
   * controller, or end_game's winner (CR 800.4b, 800.4d, 800.4k)? */
  namesDeparted(name, opts) {
    const gone = (p) => typeof p === 'string' && this.s.departed.has(p);
    if (gone(opts.player) || gone(opts.order_by) || gone(opts.turn_of)) return true;
    if (name === 'reveal' && gone(opts.top_of)) return true;
    if (name === 'attach' && gone(opts.to_player)) return true; // CR 800.4: no longer enchantable
    if (name === 'move' && gone(opts.attached_to_player)) return true;
    if (name === 'create' && (gone(opts.owner) || gone(opts.controller))) return true;
    return name === 'end_game' && gone(opts.winner);
  }

  /** Run a step as if nobody had left, and undo all it did (the undo log):
   * whatever it would throw (a bad_request) is thrown, nothing changes. */
  checkOnly(kind, opts, followed) {
    const mark = this.begin();
    try {
      this.ws('departed');
      this.s.departed = new Set();
      kind.run.call(this, opts, new StepResult(), followed);
    } finally {
      this.rollback(mark);
    }
  }

  /** The object reference `name` still finds: the one it saw, while it
   * exists and is still that object (CR 400.7); else null. An unknown name
   * is a bad_request naming `what`. */
  referenced(name, what) {
    const ref = typeof name === 'string' ? this.s.refs.get(name) : undefined;
    if (ref === undefined) throw badRequest(`${what}: unknown reference ${show(name)}`);
    const o = ref.handle === null ? null : this.s.objects.get(ref.handle);
    return o && o.exists && o.id === ref.id ? o : null;
  }

  /** The object a step acts on: the one followed, card:, or ref:. null,
   * with the result not_found, when it is gone. */
  target(opts, result, followed, what) {
    if (followed !== null) return followed;
    if ((opts.card === undefined) === (opts.ref === undefined)) throw badRequest(`${what}: give card: or ref:, one of them`);
    if (opts.ref !== undefined) {
      const o = this.referenced(opts.ref, what);
      if (o === null) result.set('not_found', 'not_found');
      return o;
    }
    const o = this.object(opts.card);
    if (o.exists && o.born) return o; // a create that failed made nothing to find
    result.set('not_found', 'not_found');
    result.event(o.handle, 'not_found');
    return null;
  }

  stepMove(opts, result, followed) {
    this.checkMove(opts, 'move');
    if (opts.then !== undefined && opts.then !== null && !isObject(opts.then)) throw badRequest('move: then: is one step');
    if (opts.player !== undefined && followed !== null) throw badRequest('move: player: is not allowed in then:/do:');
    if (opts.costs !== undefined) this.checkCosts(opts, followed);
    const o = this.target(opts, result, followed, 'move');
    if (o === null) return;
    if (!this.mayPut(opts.player, o, opts, result)) return;
    const unpaid = opts.costs !== undefined ? this.costUnpaid(opts.costs, o) : null;
    if (unpaid !== null) return void result.set('failed', unpaid); // CR 601.2h, 614.17b: it can't be cast
    const { outcome, error } = this.move(o, opts, result);
    result.set(outcome, error);
    if (opts.then !== undefined && opts.then !== null && !['failed', 'stayed', 'rejected'].includes(outcome)) {
      // CR 400.7j: the rest of the effect finds the object it moved only in
      // a public zone; what it does joins the move's events, not its outcome
      if (MtgGame.findable(o)) result.events.push(...this.runStep(opts.then, o).events);
      else result.event(o.handle, 'not_found');
    }
    if (opts.costs !== undefined && ARRIVALS.has(outcome)) this.payCosts(opts, result);
  }

  /** costs: the steps done while a card is being cast (CR 601.2b-h), each a
   * top-level step of a kind that can be nested, naming its own object. */
  checkCosts(opts, followed) {
    if (followed !== null) throw badRequest('move: costs: is for a move step, not a then:/do: step');
    if (opts.cause !== 'cast') throw badRequest('move: costs: are paid while a spell is cast (cause: cast)');
    if (!Array.isArray(opts.costs) || opts.costs.length === 0) throw badRequest('move: costs: is a list of steps');
    MtgGame.checkStepList(opts.costs, 'move: costs');
  }

  /** A list of steps (a move's costs:, replace_draw's instead:): each an
   * object of one step, of a known kind that can be nested, written as a
   * top-level step naming its own object, without a list of its own.
   * @param {unknown[]} list @param {string} what */
  static checkStepList(list, what) {
    for (const c of list) {
      if (!isObject(c) || Object.keys(c).length !== 1) throw badRequest(`${what}: a step is an object of one step`);
      const [name, sub] = Object.entries(c)[0];
      if (!STEP_KINDS.has(name)) throw badRequest(`${what}: unknown step ${show(name)}`);
      if (UNNESTABLE.includes(name)) throw badRequest(`${what}: ${name} can't be a step of the list`);
      if (name === 'move' && isObject(sub) && sub.costs !== undefined) throw badRequest(`${what}: can't hold a move with costs: of its own`);
    }
  }

  /** Why a cost of the cast of `spell` can't be paid (CR 601.2h: unpayable
   * costs can't be paid, partial payments are not allowed; 118.3), or null;
   * each cost judged in order against the game before the cast, replacement
   * effects not applied. A move cost: its object gone (not_found), not where
   * its from: says (not_in_zone), phased out (phased_out, 702.26b), already
   * in its destination with no new object (already), forbidden by a "can't"
   * effect after the owner's-zone redirect (forbidden, 614.17b, 400.3), or
   * kept where it is by a rule (cannot_hold, 400.4a, 400.4b; token_left,
   * 111.8). A draw cost: by a player who can't draw, or of a card whose move
   * can't happen (forbidden; 121.3, 614.17b); from a library too small it is
   * paid (121.3, 704.5b). A mill cost: of a card whose move can't happen
   * (forbidden), or of more cards than the library holds (empty, 701.13b).
   * The card being cast is on the stack by then (601.2a), so no library
   * counts it. Other costs are left to their own steps.
   * @returns {import('./engine').StepError | null} */
  costUnpaid(costs, spell) {
    for (const c of costs) {
      const [name, raw] = Object.entries(c)[0];
      const sub = isObject(raw) ? raw : {};
      if (name === 'move') {
        const o = sub.ref !== undefined ? this.referenced(sub.ref, 'move') : this.object(sub.card);
        if (o === null || !o.exists) return 'not_found';
        if (o === spell) continue;
        if (sub.from !== undefined && !MtgGame.fits(this.zoneRef(sub.from, 'from', [OUTSIDE]), o.zone)) return 'not_in_zone';
        if (o.phasedOut) return 'phased_out';
        const dest = this.zoneFor(this.zoneRef(sub.to, 'to', [OUTSIDE]), o.owner).zone;
        if (dest === o.zone && (dest === OUTSIDE || !RENEWED_IN_PLACE.has(dest))) return 'already';
        if (this.s.cants.length && this.forbids(o, o.zone, dest, sub.cause, sub.face)) return 'forbidden';
        if (o.zone === 'command' && o.words.some((w) => COMMAND_ONLY.includes(w))) return 'cannot_hold';
        if (o.leftBattlefield && dest !== OUTSIDE) return 'token_left';
        if (dest === 'battlefield' && MtgGame.isInstantOrSorcery(o) && sub.face !== 'down') return 'cannot_hold';
      } else if (name === 'draw' || name === 'mill') {
        const player = this.player(sub.player, `${name}: player`);
        if (name === 'draw' && this.s.cants.some((k) => k.draw === player)) return 'forbidden';
        const n = MtgGame.count(sub.count, name);
        const cards = this.s.zones.get(`${player}.library`).map((h) => this.s.objects.get(h))
          .filter((x) => x !== spell).slice(0, n);
        for (const x of cards) {
          const dest = name === 'draw' ? `${player}.hand`
            : this.zoneFor(this.zoneRef(sub.to === undefined ? 'graveyard' : sub.to, 'mill: to', [OUTSIDE]), x.owner).zone;
          if (this.s.cants.length && this.forbids(x, x.zone, dest, name, undefined)) return 'forbidden';
        }
        if (name === 'mill' && cards.length < n) return 'empty';
      }
    }
    return null;
  }

  /** The cast's costs once the card is on the stack (CR 601.2a-h): their
   * events after the move's; the spell becomes cast at the end of the step,
   * so a revealed top card is updated only then (401.5, step()). */
  payCosts(opts, result) {
    for (const c of opts.costs) result.events.push(...this.runStep(c, null).events);
  }

  /** One object changes zone (CR 400.6): checks, replacement effects, then
   * the move itself. Adds the object's event; returns the outcome.
   * @returns {{outcome: import('./engine').Outcome, error: import('./engine').StepError | null}} */
  move(o, opts, result) {
    const origin = o.zone;
    if (opts.from !== undefined && !MtgGame.fits(this.zoneRef(opts.from, 'from', [OUTSIDE]), origin)) {
      return { outcome: 'failed', error: 'not_in_zone' }; // not where the effect looks for it
    }
    if (o.phasedOut) return { outcome: 'failed', error: 'phased_out' }; // CR 702.26b
    // CR 614.13a, 614.13b: while an as-enters effect's steps run, they can't
    // choose what enters the battlefield in the event, nor what one of the
    // event's as-enters steps already moved: nothing moves
    if (this.s.inEtb && (this.s.entering.has(o.handle) || this.s.etbChosen.has(o.handle))) {
      result.event(o.handle, 'rejected');
      return { outcome: 'rejected', error: 'cannot_choose' };
    }
    const asked = this.zoneFor(this.zoneRef(opts.to, 'to', [OUTSIDE]), o.owner); // CR 400.3
    // (face down it is a 2/2 creature and no Aura, 708.2a: it enters; an
    // Aura that's also a creature can't enchant anything, 303.4d)
    if (opts.attached_to !== undefined && asked.zone === 'battlefield' && o.words.includes('aura')
        && opts.face !== 'down' && (o.words.includes('creature') || !this.mayEnterAttached(o, opts.attached_to))) {
      // CR 303.4i: an Aura that can't be attached to it stays where it is;
      // from the stack it goes to its owner's graveyard instead
      if (origin !== 'stack') return { outcome: 'stayed', error: 'cannot_hold' };
      Object.assign(asked, { zone: `${o.owner}.graveyard`, redirected: true });
    }
    const { zone: dest, how, replaced } = this.replaceMove(o, origin, asked.zone, opts);
    // CR 614.17, 101.2: a "can't" effect forbids the event as it finally
    // stands, replaced or not: nothing moves (a move to the zone it is in
    // that makes no new object is no event), before it stays or ceases
    const inPlace = dest === origin && dest !== OUTSIDE && !RENEWED_IN_PLACE.has(origin);
    if (this.s.cants.length && !inPlace && this.forbids(o, origin, dest, MtgGame.causeOf(how, opts), how.face)) {
      return { outcome: 'failed', error: 'forbidden' };
    }
    /** @param {import('./engine').Outcome} outcome @param {import('./engine').StepError | null} [error] */
    const done = (outcome, error = null) => {
      result.event(o.handle, outcome);
      return { outcome, error };
    };
    if (dest === origin) {
      if (!RENEWED_IN_PLACE.has(origin)) return done('no_move'); // nothing happens
      // CR 400.8, 400.10: it stays, but as a new object just put there, face
      // up unless the move says otherwise (CR 406.3)
      const seen = MtgGame.shown(o);
      this.w(o);
      this.takeOut(o);
      this.putIn(o, dest);
      this.renew(o, ['sticker']); // CR 123.5: it is put into a public zone
      o.face = MtgGame.face(how.face, 'move');
      // CR 406.3: a player allowed to look goes on looking until it leaves exile
      if (seen && seen.players.size) o.shown = { id: o.id, zone: o.zone, players: new Set(seen.players), all: false };
      return done('new_object_in_place');
    }
    // an ability exists only on the stack, and only cards outside the game
    // (CR 400.11): anything else ceases on the way
    if (o.kind === 'ability' || (dest === OUTSIDE && o.kind !== 'card')) {
      this.cease(o, result);
      return { outcome: 'ceased', error: null };
    }
    if (origin === 'command' && o.words.some((w) => COMMAND_ONLY.includes(w))) return done('stayed', 'cannot_hold'); // CR 400.4b
    if (o.leftBattlefield) return done('stayed', 'token_left'); // CR 111.8
    // CR 400.4a; one put there face down is turned face down first, a
    // creature with no other types, and enters (708.3, 708.2a)
    if (dest === 'battlefield' && MtgGame.isInstantOrSorcery(o) && how.face !== 'down') return done('stayed', 'cannot_hold');
    // CR 614.13: nothing can stop it now; about to enter the battlefield, its
    // own as-enters effects move other objects first, their events before its.
    // Not when it is put onto the battlefield face down: turned face down
    // before it enters, it has no abilities as it enters (708.3, 708.2a)
    if (this.s.asEnters.length && dest === 'battlefield' && origin !== 'battlefield' && how.face !== 'down') {
      this.applyAsEnters(o, result);
    }
    if (this.s.inEtb) this.wk(this.s.etbChosen, o.handle).add(o.handle); // 614.13b: an as-enters step moved it
    const controller = o.controller;
    this.w(o);
    this.takeOut(o);
    this.putIn(o, dest, how.position);
    // CR 400.7: a new object; a permanent spell becoming a permanent keeps
    // what 400.7a and 400.7c carry over
    // a permanent spell becomes the permanent (an instant or sorcery put
    // there face down is no permanent spell)
    const keep = origin === 'stack' && dest === 'battlefield' && !MtgGame.isInstantOrSorcery(o) ? [...KEPT_ON_RESOLVING] : [];
    if (isPublicZone(dest)) keep.push('sticker'); // CR 123.5, 400.7m
    const cause = MtgGame.causeOf(how, opts);
    // CR 400.7f: when it arrived, and whether a state check put it there
    o.arrivedStep = this.s.nsteps;
    o.arrivedByCheck = cause === 'state_check';
    const land = o.words.includes('land');
    // CR 400.7g-h: a nonland card cast; 400.7i: a land card played
    if ((dest === 'stack' && !land) || (dest === 'battlefield' && land && origin !== 'stack' && cause === 'play')) {
      keep.push('permission');
    }
    const oldId = o.id;
    this.renew(o, keep);
    if (origin === 'stack' && dest === 'battlefield' && this.s.ctrls.some((e) => e.handle === o.handle && e.id === oldId)) {
      // CR 400.7a: a control effect on a permanent spell goes on with the
      // permanent it becomes
      this.ws('ctrls');
      this.s.ctrls = this.s.ctrls.map((e) => (e.handle === o.handle && e.id === oldId ? { ...e, id: o.id } : e));
    }
    // CR 400.7k: the madness trigger put the exiled card into a public zone,
    // where a trigger on its discard may still find it
    if (this.s.triggers.size && origin === 'exile' && isPublicZone(dest) && cause === 'madness') {
      o.madnessFrom = oldId;
      o.madnessId = o.id;
    }
    // CR 111.13: a copy of a permanent spell becomes a token as it resolves
    if (o.kind === 'copy' && origin === 'stack' && dest === 'battlefield') o.kind = 'token';
    // CR 109.4, 110.2: a controller only on the stack and the battlefield,
    // kept from the one to the other
    // (arriving from elsewhere, the player who performs the move controls it:
    // the caster, 405.4; who puts it onto the battlefield, 110.2a)
    o.controller = CONTROLLED_ZONES.has(dest) ? (controller || opts.player || o.owner) : null;
    // CR 110.2: it arrived under that control; but the permanent a spell
    // becomes is by default its caster's, whoever controls the spell now
    // (110.2b): a spell keeps its default controller as it resolves
    if (!(origin === 'stack' && controller !== null && CONTROLLED_ZONES.has(dest) && o.ctrlDefault !== null)) {
      o.ctrlDefault = o.controller;
    }
    o.face = MtgGame.face(how.face, 'move');
    o.phasedOut = false;
    if (origin === 'battlefield' && o.kind === 'token') o.leftBattlefield = true; // CR 111.8
    if (Array.isArray(how.shuffle)) { // the result, top first; else it stays as the move left it
      const pile = this.s.zones.get(dest) || [];
      const order = how.shuffle.map((h) => this.object(h).handle);
      if (MtgGame.namesExactly(order, pile)) {
        this.wz(dest).splice(0, pile.length, ...order);
        this.forgetShown(dest, result);
      }
    } else if (how.shuffle === true) {
      seededShuffle(this.wz(dest), how.seed === undefined ? 0 : how.seed);
      this.forgetShown(dest, result);
    }
    // CR 303.4f, 303.4h: put onto the battlefield attached to a permanent,
    // an Aura, Equipment or Fortification enters attached; anything else not
    if (how.attached_to !== undefined && dest === 'battlefield' && ATTACHMENTS.some((w) => o.words.includes(w))
        && how.face !== 'down' && !o.words.includes('creature') // CR 708.2a, 303.4d, 301.5c
        && this.mayEnterAttached(o, how.attached_to)) {
      const host = this.object(how.attached_to);
      Object.assign(o, { attached: host.handle, attachedId: host.id, attachSelf: o.id, attachedPlayer: null, phasedWith: null });
    } else if (how.attached_to_player !== undefined && dest === 'battlefield' && o.words.includes('aura')
        && !this.s.departed.has(how.attached_to_player)) {
      // CR 303.4f: an Aura enters attached to the player named; anything else
      // (an Equipment or Fortification: 701.3a) enters unattached
      Object.assign(o, { attached: null, attachedPlayer: how.attached_to_player, attachSelf: o.id, phasedWith: null });
    }
    // G8: the event's cause is the replacement's own, else the move's
    this.fireTriggers(o, origin, dest, controller, cause);
    return done(replaced ? 'replaced' : asked.redirected ? 'redirected' : 'moved');
  }

  /** The replacement effects on one move (CR 400.6, 614.1, 616.1): in the
   * chosen order, else creation order, each at most once, the event
   * checked again after each. Returns the final zone, the move options that
   * take effect, and whether any applied. */
  replaceMove(o, origin, dest, opts) {
    const used = new Set();
    let how = opts;
    let zone = dest;
    let cause = opts.cause;
    for (;;) {
      const applicable = this.replacementOrder().filter((n) => {
        const r = this.s.replacements.get(n);
        return !used.has(n) && !r.draw && (r.card === 'any' || r.card === o.handle)
          && MtgGame.fits(r.when.to, zone) && MtgGame.fits(r.when.from, origin)
          && (r.when.cause === undefined || r.when.cause === cause);
      });
      // CR 614.17c: an event that can't happen, as it now stands, is
      // replaced only by a self-replacement effect (614.15)
      const selfOnly = this.s.cants.length > 0 && this.forbids(o, origin, zone, MtgGame.causeOf(how, opts), how.face);
      // CR 616.1a: a self-replacement effect (614.15) must be chosen first
      const name = applicable.find((n) => this.s.replacements.get(n).category === 'self') ?? (selfOnly ? undefined : applicable[0]);
      if (name === undefined) return { zone, how, replaced: used.size > 0 };
      used.add(name);
      how = this.s.replacements.get(name).instead;
      zone = this.zoneFor(this.zoneRef(how.to, 'instead: to', [OUTSIDE]), o.owner).zone;
      if (how.cause !== undefined) cause = how.cause;
    }
  }

  /** G8: the cause of the event as it stands: the replacing move's own
   * cause word, else the written move's. */
  static causeOf(how, opts) { return how.cause !== undefined ? how.cause : opts.cause; }

  /** Does a "can't" effect in force forbid o's move from origin to dest by
   * cause, arriving with `face` (CR 614.17)? Matched as replace's when:. */
  forbids(o, origin, dest, cause, face) {
    return this.s.cants.some((c) => (c.draw !== undefined
      // CR 121.1, 121.3: a move with cause draw from the player's library to
      // their hand is a draw, which they can't make
      ? cause === 'draw' && origin === `${c.draw}.library` && dest === `${c.draw}.hand`
      : (c.card === 'any' || c.card === o.handle)
      && MtgGame.fits(c.when.to, dest) && MtgGame.fits(c.when.from, origin)
      && (c.when.cause === undefined || c.when.cause === cause)
      && c.types.every((w) => MtgGame.typesFor(o, origin, dest, face).includes(w))));
  }

  /** The types a "can't" effect judges o by: onto the battlefield, those it
   * would have there (CR 614.17d); elsewhere, those it has where it is. A
   * face-down permanent or spell is a creature and nothing else (708.2a); a
   * card exiled face down has no characteristics at all (406.3a). */
  static typesFor(o, origin, dest, face) {
    const onto = dest === 'battlefield';
    const zone = onto ? dest : origin;
    const down = onto ? face === 'down' : o.face === 'down';
    if (down && CONTROLLED_ZONES.has(zone)) return ['creature'];
    if (down && zone === 'exile') return [];
    return o.words;
  }

  replacementOrder() {
    const rest = [...this.s.replacements.keys()].filter((n) => !this.s.chosenOrder.includes(n));
    return [...this.s.chosenOrder, ...rest];
  }

  /** Zone-change triggers of the card that just moved (CR 603.6a, 603.10):
   * each fires once and tracks the new object; its controller is whoever
   * controlled the card as it left, else its owner (CR 603.3a). */
  fireTriggers(o, origin, dest, controller, cause) {
    for (const t of this.s.triggers.values()) {
      if (t.fired || t.onPhase || t.handle !== o.handle || !t.words.every((w) => o.words.includes(w))) continue;
      if (t.cause !== undefined && t.cause !== cause) continue; // G8: a destroy (CR 701.8a) is no sacrifice (701.21a)
      if (!MtgGame.fits(t.from, origin) || !MtgGame.fits(t.to, dest)) continue;
      if (t.aura !== null) { // CR 603.10a: only the permanent it enchanted just before (701.3d)
        const a = this.s.objects.get(t.aura);
        if (a.attached !== o.handle || a.attachedId === 0) continue;
      }
      // CR 603.3a: whoever controlled the source: the moving object, or the Aura whose trigger it is
      const source = t.aura !== null ? this.s.objects.get(t.aura) : null;
      const ctrl = source !== null ? source.controller || source.owner : controller || o.owner;
      Object.assign(this.w(t), { fired: true, id: o.id, controller: ctrl, firedStep: this.s.nsteps, discard: cause === 'discard' });
    }
  }

  /** Triggers on o phasing out (watch phase: out), directly or
   * indirectly: each fires once and tracks the object, which phasing
   * leaves the same object (702.26d); it looks back in time, so its
   * controller is `ctrl`, whoever controlled o just before, else its
   * owner (CR 603.10b, 603.3a). Zone-change triggers never fire on it. */
  firePhaseTriggers(o, ctrl) {
    for (const t of this.s.triggers.values()) {
      if (t.fired || !t.onPhase || t.handle !== o.handle || !t.words.every((w) => o.words.includes(w))) continue;
      Object.assign(this.w(t), { fired: true, id: o.id, controller: ctrl || o.owner, firedStep: this.s.nsteps });
    }
  }

  /** move_together's outcome: `moved` if any object arrived somewhere,
   * else the outcome of the first object it tried (`no_move` when there
   * was none); draw and mill: takenOutcome. */
  static summarize(result, outcomes, errors = []) {
    if (outcomes.some((o) => ARRIVALS.has(o))) result.set('moved');
    // nothing arrived: the first object's outcome, with its error
    // (forbidden, cannot_hold...: cases/README.md, error codes)
    else result.set(outcomes.length ? outcomes[0] : 'no_move', errors.length ? errors[0] : null);
  }

  stepMoveTogether(opts, result) {
    const { moves } = opts;
    if (!Array.isArray(moves) || moves.length === 0) throw badRequest('move_together: moves is a list of moves');
    const objects = moves.map((m, i) => {
      const what = `move_together: move ${i + 1}`;
      if (!isObject(m)) throw badRequest(`${what}: expected an object`);
      const unknown = Object.keys(m).filter((k) => !MOVE_OPTIONS.includes(k) || k === 'ref' || k === 'then' || k === 'player');
      if (unknown.length) throw badRequest(`${what}: option ${unknown[0]} is not allowed here`);
      this.checkMove(m, what);
      return this.object(m.card);
    });
    if (new Set(objects).size !== objects.length) throw badRequest('move_together: each card moves once');
    const order = opts.order === undefined || opts.order === null ? {} : opts.order;
    if (!isObject(order) || Object.keys(order).length > 1) throw badRequest('move_together: order names one zone');
    const wanted = new Map();
    for (const [text, handles] of Object.entries(order)) {
      if (!Array.isArray(handles) || handles.length === 0) throw badRequest('move_together: order lists handles, top first');
      const listed = handles.map((h) => this.object(h));
      const ref = this.zoneRef(text, 'move_together: order');
      wanted.set(this.zoneFor(ref, ref.player || listed[0].owner).zone, listed.map((o) => o.handle));
    }
    // who performs it (CR 407.4: only the owner antes) and who arranged
    // order: (CR 401.4: the owner of a library's cards, whoever puts them)
    if (objects.some((o, i) => o.exists && o.born && !this.mayPut(opts.player, o, moves[i], null))) {
      result.set('rejected', 'wrong_player');
      return;
    }
    if (opts.order_by !== undefined) {
      const by = this.player(opts.order_by, 'move_together: order_by');
      if (wanted.size === 0) throw badRequest('move_together: order_by needs order');
      for (const [zone, handles] of wanted) {
        const owners = new Set(handles.map((h) => this.s.objects.get(h).owner));
        const chooser = zonePlayer(zone) || (owners.size === 1 ? [...owners][0] : null);
        if (chooser !== by) {
          result.set('rejected', 'wrong_player');
          return;
        }
      }
    }
    const arrivedIn = new Map(); // zone -> handles that arrived there
    // one event (CR 614.13a): what enters the battlefield in it is marked
    // before any moves, and forgotten, with what as-enters steps moved, after
    if (this.s.asEnters.length) this.markEnteringTogether(objects, moves);
    let outcomes;
    const errors = [];
    // CR 303.4f: none of them is there yet for another to enter attached to
    this.together = new Set(objects.map((o) => o.handle));
    try {
      outcomes = objects.map((o, i) => {
        if (!o.exists || !o.born) {
          result.event(o.handle, 'not_found');
          errors.push('not_found');
          return 'not_found';
        }
        const { outcome, error } = this.move(o, moves[i], result);
        errors.push(error || null);
        if (!ARRIVALS.has(outcome)) return outcome;
        if (!arrivedIn.has(o.zone)) arrivedIn.set(o.zone, []);
        arrivedIn.get(o.zone).push(o.handle);
        return outcome;
      });
    } finally {
      this.together = null;
      this.endEtbEvent();
    }
    // CR 401.4, 404.3, 405.3: objects arriving in an ordered zone together
    // take the order chosen for them (order:, else the list order, first on
    // top), in the places they took
    for (const [zone, handles] of arrivedIn) {
      if (!ORDERED_ZONES.has(zoneType(zone))) continue;
      const chosen = wanted.get(zone) || [];
      const ranked = [...chosen.filter((h) => handles.includes(h)), ...handles.filter((h) => !chosen.includes(h))];
      if (zone === 'stack') {
        // CR 405.3, 101.4: the active player's lowest (the first player's,
        // or the player's of the last untap step), then each other player's
        // in turn order; each player orders only their own (a stable sort
        // keeps their chosen order)
        const { players, turn } = this.s;
        const rank = (h) => {
          const o = this.s.objects.get(h);
          const n = players.length;
          return (players.indexOf(o.controller || o.owner) - players.indexOf(turn) + n) % n;
        };
        ranked.sort((a, b) => rank(b) - rank(a));
      }
      const pile = this.wz(zone);
      const slots = handles.map((h) => pile.indexOf(h)).sort((a, b) => a - b);
      slots.forEach((slot, k) => { pile[slot] = ranked[k]; });
    }
    MtgGame.summarize(result, outcomes, errors);
  }

  /** The top cards of a player's library, one at a time (CR 121.2), to
   * `to` (draw, mill). Before each draw, a draw replacement in force for
   * the player may replace it (CR 614.11): then no card is taken, even
   * from an empty library, and its steps are all done before the next draw
   * (614.11a). Stops at an empty library, or at a card taken that is still
   * in the library (a replacement put it back, a token that can't move).
   * `then` (a draw's) is done to each card the draw itself put into the
   * player's hand, right after it (never to what a replacement brought,
   * 614.11b). Returns what happened: whether a card arrived somewhere
   * (moved), whether a draw was replaced, the first other outcome of a
   * card taken (null: none), and whether the library was empty.
   * @returns {{moved: boolean, replaced: boolean, first: import('./engine').Outcome | null, empty: boolean}} */
  takeFromLibrary(player, count, to, cause, result, then = null) {
    const library = `${player}.library`;
    const pile = this.s.zones.get(library);
    /** @type {{moved: boolean, replaced: boolean, first: import('./engine').Outcome | null, firstError: import('./engine').StepError | null, empty: boolean}} */
    const taken = { moved: false, replaced: false, first: null, firstError: null, empty: false };
    for (let i = 0; i < count; i++) {
      // CR 614.17c: a draw that can't happen (a can't effect forbids its
      // card's move to the hand) is replaced by no draw replacement
      const first = pile.length ? this.s.objects.get(pile[0]) : null;
      const cant = cause === 'draw' && first !== null && this.s.cants.length > 0
        && this.forbids(first, library, `${player}.hand`, 'draw', undefined);
      const r = cause === 'draw' && !cant ? this.drawReplacement(player) : null;
      if (r !== null) {
        this.replaceDraw(r, result);
        taken.replaced = true;
        continue;
      }
      if (pile.length === 0) {
        taken.empty = true;
        break;
      }
      // CR 614.13c: among an as-enters effect's steps, the first card from
      // the top that is not entering the battlefield; when all are, as if
      // the library were empty (a draw of it is no draw from an empty one)
      const at = this.s.inEtb ? pile.findIndex((h) => !this.s.entering.has(h)) : 0;
      if (at < 0) {
        if (cause !== 'draw') taken.empty = true;
        break;
      }
      const top = this.s.objects.get(pile[at]);
      const { outcome, error } = this.move(top, { to, cause }, result);
      if (ARRIVALS.has(outcome)) taken.moved = true;
      else if (taken.first === null) {
        taken.first = outcome;
        taken.firstError = error || null;
      }
      if (then !== null && top.exists && top.zone === `${player}.hand`) result.events.push(...this.runStep(then, top).events);
      if (top.exists && top.zone === library) break; // still there: taking it again changes nothing
    }
    return taken;
  }

  /** The draw replacement that replaces `player`'s next draw: the first in
   * the replacement order that is in force and not running its own steps
   * (CR 614.5), or null. */
  drawReplacement(player) {
    for (const name of this.replacementOrder()) {
      const r = this.s.replacements.get(name);
      if (r.draw && r.active && !r.running && r.player === player) return r;
    }
    return null;
  }

  /** One draw replaced by r (CR 614.11): with once: it ends now; its steps,
   * each a top-level step, their events into the draw's; while they run,
   * no draw among them is replaced by r again (614.5). */
  replaceDraw(r, result) {
    this.w(r);
    if (r.once) r.active = false;
    r.running = true;
    try {
      for (const step of r.instead) result.events.push(...this.runStep(step, null).events);
    } finally {
      r.running = false;
    }
  }

  // ---- as-enters effects (CR 614.13) -------------------------------------------

  /** An as-enters effect (CR 614.13), in force from this step on: each time
   * the card is about to enter the battlefield by a move of one object
   * (move()), its steps are done first. card: a handle (it follows the
   * card, like replace); steps: at least one, checked as a move's costs:. */
  stepAsEnters(opts) {
    if (opts.card === undefined) throw badRequest('as_enters: card: is required (the permanent entering)');
    const card = this.object(opts.card).handle;
    if (!Array.isArray(opts.steps) || opts.steps.length === 0) throw badRequest('as_enters: steps: is a list of at least one step');
    MtgGame.checkStepList(opts.steps, 'as_enters: steps');
    this.wc(this.s.asEnters).push({ card, steps: copyJson(opts.steps) });
  }

  /** o is about to enter the battlefield (move(), after every check that
   * could stop it): the as-enters effects of its own, in the order they
   * came, do their steps, each a top-level step, their events into the
   * move's before its own (CR 614.13). It is entering from now on, so they
   * can't choose it (614.13a); a move of its own (not a move_together's
   * member, which is marked from the start) is an event, which ends with
   * its steps. */
  applyAsEnters(o, result) {
    const effects = this.s.asEnters.filter((e) => e.card === o.handle);
    if (effects.length === 0) return;
    const own = !this.s.entering.has(o.handle);
    this.wk(this.s.entering, o.handle).add(o.handle);
    this.ws('inEtb');
    this.s.inEtb += 1;
    try {
      for (const e of effects) for (const step of e.steps) result.events.push(...this.runStep(step, null).events);
    } finally {
      this.s.inEtb -= 1;
      if (own) this.endEtbEvent();
    }
  }

  /** A token's own as-enters effect (create as_enters:, CR 111.1, 614.12,
   * 614.13): its steps, done as the token is created onto the battlefield,
   * before it is there; it can't be chosen (614.13a). */
  tokenAsEnters(o, steps, zone, result) {
    if (!Array.isArray(steps) || steps.length === 0) throw badRequest('create: as_enters: is a non-empty list of steps');
    MtgGame.checkStepList(steps, 'create: as_enters');
    if (zone !== 'battlefield') return;
    this.wk(this.s.entering, o.handle).add(o.handle);
    this.ws('inEtb');
    this.s.inEtb += 1;
    try {
      for (const step of steps) result.events.push(...this.runStep(step, null).events);
    } finally {
      this.s.inEtb -= 1;
      this.endEtbEvent();
    }
  }

  /** The event ends (CR 614.13a, 614.13b): what entered in it and what its
   * as-enters steps moved may be chosen again. Not while the steps of an
   * outer as-enters effect still run: their event goes on. */
  endEtbEvent() {
    if (this.s.inEtb) return;
    if (this.s.entering.size) this.wc(this.s.entering).clear();
    if (this.s.etbChosen.size) this.wc(this.s.etbChosen).clear();
  }

  /** CR 614.13a: the members of a move_together that would enter the
   * battlefield (where the owner's redirect and the replacement effects in
   * force send them) enter at once: all are entering before any moves. */
  markEnteringTogether(objects, moves) {
    objects.forEach((o, i) => {
      if (!o.exists || !o.born || o.phasedOut) return;
      const asked = this.zoneFor(this.zoneRef(moves[i].to, 'to', [OUTSIDE]), o.owner).zone; // CR 400.3
      const { zone } = this.replaceMove(o, o.zone, asked, moves[i]);
      if (zone === 'battlefield' && o.zone !== 'battlefield') this.wk(this.s.entering, o.handle).add(o.handle);
    });
  }

  /** A draw or mill step's outcome: `moved` if a card of the step arrived
   * somewhere; else `replaced` if a draw of it was replaced; else the
   * first other outcome of a card taken; else, nothing at all taken from
   * an empty library, `emptyOutcome`; else `no_move`. */
  static takenOutcome(result, taken, emptyOutcome) {
    if (taken.moved) result.set('moved');
    else if (taken.replaced) result.set('replaced');
    else if (taken.first !== null) result.set(taken.first, taken.firstError);
    else if (taken.empty && emptyOutcome !== null) result.set(emptyOutcome[0], emptyOutcome[1]);
    else result.set('no_move');
  }

  stepDraw(opts, result) {
    const player = this.player(opts.player, 'draw: player');
    const count = MtgGame.count(opts.count, 'draw');
    const then = opts.then === undefined || opts.then === null ? null : opts.then;
    if (then !== null) MtgGame.checkThen(then, 'draw: then');
    if (this.s.cants.some((c) => c.draw === player)) {
      // CR 121.3: a player who can't draw draws nothing: no draw to replace
      // (614.17c), none from an empty library (704.5b)
      return void result.set('failed', 'forbidden');
    }
    const taken = this.takeFromLibrary(player, count, 'hand', 'draw', result, then);
    // CR 121.3, 704.5b: drawing from an empty library loses the game at the
    // next state-based check (a replaced draw is no such draw, 614.11)
    if (taken.empty) this.wk(this.s.drewFromEmpty, player).add(player);
    MtgGame.takenOutcome(result, taken, null);
  }

  stepMill(opts, result) {
    const player = this.player(opts.player, 'mill: player');
    const count = MtgGame.count(opts.count, 'mill');
    const to = opts.to === undefined ? 'graveyard' : opts.to;
    this.zoneRef(to, 'mill: to', [OUTSIDE]);
    // failed (empty) only when nothing at all was milled: a card taken that
    // ceased or stayed gives the step its outcome (701.17b: as many as possible)
    MtgGame.takenOutcome(result, this.takeFromLibrary(player, count, to, 'mill', result), ['failed', 'empty']);
  }

  /** A then: step (one step, of a kind that can be nested, acting on the
   * object followed): checked before anything is done. */
  static checkThen(then, what) {
    if (!isObject(then) || Object.keys(then).length !== 1) throw badRequest(`${what}: is one step`);
    const [name, sub] = Object.entries(then)[0];
    if (!STEP_KINDS.has(name)) throw badRequest(`${what}: unknown step ${show(name)}`);
    if (UNNESTABLE.includes(name)) throw badRequest(`${name} can't be a then:/do: step`);
    if (isObject(sub) && (sub.card !== undefined || sub.ref !== undefined)) {
      throw badRequest(`${what}: a then: step acts on the card drawn, without card: or ref:`);
    }
    if (isObject(sub) && sub.then !== undefined) throw badRequest(`${name}: then: can't be nested in then:/do:`);
  }

  stepCreate(opts, result) {
    const handle = this.newName(opts.as, this.s.objects, 'create');
    const kind = opts.kind === undefined ? 'token' : opts.kind;
    if (!KINDS.includes(kind)) throw badRequest(`create: kind ${show(kind)} is not a Magic object (${KINDS.join(', ')})`);
    const owner = this.player(opts.owner, 'create: owner');
    const o = this.newObject(handle, kind, owner, opts, 'create');
    const { zone } = this.zoneFor(this.zoneRef(opts.zone, 'create: zone', [OUTSIDE]), owner);
    // CR 707.13: only a copy of a card named by an effect is made outside the game
    if (zone === OUTSIDE && kind !== 'copy') throw badRequest('create: only kind: copy is created outside the game (CR 707.13)');
    if (opts.copy_of !== undefined && kind !== 'token') throw badRequest('create: copy_of: makes a token (CR 111.12)');
    if (opts.lki !== undefined && (opts.copy_of === undefined || typeof opts.lki !== 'boolean')) {
      throw badRequest('create: lki: is true or false, beside copy_of:');
    }
    const copied = opts.copy_of === undefined ? undefined : this.referenced(opts.copy_of, 'create: copy_of');
    if (CONTROLLED_ZONES.has(zone)) {
      o.controller = opts.controller === undefined ? owner : this.player(opts.controller, 'create: controller');
      o.ctrlDefault = o.controller; // CR 110.2
      if (o.kind === 'token' || o.kind === 'copy') o.owner = o.controller; // CR 111.2: whoever creates it owns it
    } else if (opts.controller !== undefined) {
      throw badRequest(`create: objects in ${zone} have no controller (CR 109.4)`);
    }
    if (o.kind === 'copy' && zone === 'battlefield') o.kind = 'token'; // CR 111.13
    this.wk(this.s.objects, handle).set(handle, o); // o itself is new: nothing of it to log
    if ((copied === null || (copied && copied.phasedOut)) && opts.lki !== true) { // CR 111.12 (702.26b: phased out): nothing to copy, no token
      o.exists = false;
      result.set('not_found', 'not_found');
      return;
    }
    // CR 111.5, 614.17d: a token that a "can't" effect in force keeps from
    // entering the battlefield, judged as it would be there, is not created:
    // its handle never names an object (from no zone, by no cause)
    if (zone === 'battlefield' && kind !== 'card' && this.s.cants.length && this.forbids(o, '', zone, undefined, o.face)) {
      o.exists = false;
      result.set('failed', 'forbidden');
      return;
    }
    if (zone === 'battlefield' && MtgGame.isInstantOrSorcery(o)) { // CR 400.4a: it never comes to be
      o.exists = false;
      result.set('failed', 'cannot_hold');
      return;
    }
    o.born = true;
    if (opts.as_enters !== undefined) this.tokenAsEnters(o, opts.as_enters, zone, result);
    this.putIn(o, zone); // outside the game (CR 707.13): in no zone, there until cast
    this.renew(o);
    if (kind === 'ability' && zone !== 'stack') { // an ability exists only on the stack
      this.cease(o, result);
      result.set('ceased');
      return;
    }
    // a token or copy made elsewhere exists until the state check (CR 111.7, 704.5d-e)
    result.event(handle, 'moved');
    result.set('moved');
  }

  stepControl(opts, result, followed) {
    const o = this.target(opts, result, followed, 'control');
    const player = this.player(opts.player, 'control: player');
    if (o === null) return;
    const turnOf = this.duration(opts, 'control');
    if (!CONTROLLED_ZONES.has(zoneType(o.zone))) result.set('rejected', 'no_controller'); // CR 109.4
    else if (o.phasedOut) result.set('failed', 'phased_out'); // CR 702.26b
    else {
      // G4: a control effect, the latest (CR 613.7), until end of turn or
      // for the rest of the game (514.2, 611.2a); those on objects that
      // have become new objects (400.7) are gone
      this.ws('ctrls');
      this.s.ctrls = [...this.s.ctrls.filter((e) => this.ctrlInForce(e)), { handle: o.handle, id: o.id, player, until: opts.until, turnOf }];
      this.w(o).controller = player;
    }
  }

  /** Whether control effect e still applies: its object is the one it was
   * given for (CR 400.7). */
  ctrlInForce(e) {
    const o = this.s.objects.get(e.handle);
    return o.exists && o.id === e.id;
  }

  /** The controller control effects give o: the latest in force (CR 613.7),
   * else its default controller (110.2), else its owner. */
  controlNow(o) {
    for (let k = this.s.ctrls.length - 1; k >= 0; k--) {
      const e = this.s.ctrls[k];
      if (e.handle === o.handle && e.id === o.id && o.exists) return e.player;
    }
    return o.ctrlDefault !== null ? o.ctrlDefault : o.owner;
  }

  /** G4: the cleanup's end of "until end of turn" effects (CR 514.2), on
   * phased-out permanents too (702.26f); phasing itself ended none (702.26d).
   * A control effect gives the object back to whoever controlled it without
   * it, or, when that player has left the game, exiles it (800.4c): the
   * step is then `moved`. */
  stepEndTurn(opts, result) {
    for (const o of this.s.objects.values()) {
      for (const m of [...o.marks.keys()]) if (this.s.untilMarks.has(m)) this.w(o).marks.delete(m);
    }
    if (this.endEffects((e) => e.until === 'end_of_turn', result)) result.set('moved');
  }

  /** until: (and turn_of: with next_turn) checked: the player whose next
   * turn ends the effect, or undefined. */
  duration(opts, name) {
    if (opts.until !== undefined && !DURATIONS.includes(opts.until)) throw badRequest(`${name}: until is end_of_turn or next_turn`);
    if ((opts.until === 'next_turn') !== (opts.turn_of !== undefined)) throw badRequest(`${name}: turn_of comes with until: next_turn`);
    return opts.turn_of === undefined ? undefined : this.player(opts.turn_of, `${name}: turn_of`);
  }

  /** The control effects `ends` picks end: each object goes to the
   * controller the others give it (613.7), or, when that player has left
   * the game, is exiled (800.4c). True when one was exiled. */
  endEffects(ends, result) {
    const ending = new Set(this.s.ctrls.filter((e) => e.until !== undefined && ends(e) && this.ctrlInForce(e)).map((e) => e.handle));
    this.ws('ctrls');
    this.s.ctrls = this.s.ctrls.filter((e) => e.until === undefined || !ends(e));
    let exiled = false;
    for (const o of [...this.s.objects.values()]) { // in object order
      if (!ending.has(o.handle) || !CONTROLLED_ZONES.has(zoneType(o.zone))) continue;
      const base = this.controlNow(o); // an earlier effect, else the default (613.7)
      if (this.s.departed.has(base)) {
        // CR 800.4c: the player it would go back to has left the game, and
        // no other effect gives it to anyone: it is exiled
        this.exileByRule(o, result);
        exiled = true;
      } else this.w(o).controller = base;
    }
    return exiled;
  }

  stepPhase(opts, result, followed) {
    const out = opts.out === undefined ? true : opts.out;
    if (typeof out !== 'boolean') throw badRequest('phase: out is true or false');
    if (opts.with !== undefined) {
      this.phaseTogether(opts, result, followed);
      return;
    }
    const o = this.target(opts, result, followed, 'phase');
    if (o === null) return;
    if (o.zone !== 'battlefield') result.set('rejected', 'unsupported'); // only permanents phase (CR 702.26a)
    else if (o.phasedOut === out) result.set('failed', 'already');
    else if (!out && o.phasedWith !== null) result.set('failed', 'phased_out'); // CR 702.26g: only with its permanent
    else this.phaseWithAttached(o, out); // CR 702.26d: a status: same object, same zone, no trigger
  }

  /** CR 702.26h: the object and those `with:` names phase out in one event;
   * one attached (directly, or through what it is attached to) to another
   * of them phases out only indirectly, with it (702.26g), decided before
   * any phases. The step's outcome is the first object's; another that
   * can't phase out gets an event with its outcome. */
  phaseTogether(opts, result, followed) {
    if (followed !== null) throw badRequest('phase: with: is for a phase step, not a then:/do: step');
    if (opts.out === false) throw badRequest('phase: with: phases several permanents out at once, not out: false');
    const others = opts.with;
    if (!Array.isArray(others) || others.length === 0 || !others.every((h) => typeof h === 'string')) {
      throw badRequest('phase: with: is a list of handles');
    }
    const members = others.map((h) => this.object(h));
    const named = opts.card === undefined ? others : [opts.card, ...others];
    if (new Set(named).size !== named.length) throw badRequest('phase: with: names each permanent once, and not the one card: names');
    const o = this.target(opts, result, followed, 'phase');
    if (o === null) return;
    const group = [o, ...members];
    const names = new Set(group.map((m) => m.handle));
    const carried = (m) => {
      let x = m;
      for (let k = 0; k < this.s.objects.size; k++) {
        const host = x.attached === null ? undefined : this.s.objects.get(x.attached);
        if (host === undefined || host === m || !this.sameAttachment(x, host)) return false;
        if (names.has(host.handle) && !host.phasedOut && host.zone === 'battlefield') return true;
        x = host;
      }
      return false;
    };
    const skip = group.map((m) => m.exists && carried(m));
    group.forEach((m, i) => {
      if (skip[i]) return; // phases out with its permanent
      if (i === 0) {
        this.stepPhase({ card: m.handle }, result, null);
        return;
      }
      const sub = new StepResult();
      if (m.exists && m.born) this.stepPhase({ card: m.handle }, sub, null);
      else sub.set('not_found', 'not_found');
      result.events.push(...sub.events);
      if (['failed', 'rejected', 'not_found', 'stayed'].includes(sub.outcome)) result.event(m.handle, sub.outcome);
    });
  }

  /** Phase o out or in; what is attached to it phases out with it,
   * indirectly, and back in with it, still attached (CR 702.26g). Phasing
   * out, each remembers who controlled it (it phases in during that
   * player's untap step, 702.26a) and fires its triggers on phasing out
   * (603.10b). */
  phaseWithAttached(o, out) {
    this.w(o).phasedOut = out;
    if (out) {
      o.phasedUnder = o.controller;
      if (this.s.triggers.size) this.firePhaseTriggers(o, o.controller);
    }
    if (!out) o.phasedWith = null;
    for (const a of [...this.s.objects.values()]) {
      if (a === o || !a.exists) continue;
      if (out && a.zone === 'battlefield' && !a.phasedOut && this.sameAttachment(a, o)) {
        this.w(a).phasedWith = o.handle;
        this.phaseWithAttached(a, true);
      } else if (!out && a.phasedWith === o.handle) {
        this.phaseWithAttached(a, false);
      }
    }
  }

  /** Is a attached to host, both still the objects they were then? */
  sameAttachment(a, host) {
    return a.attached === host.handle && a.exists && a.id === a.attachSelf && host.exists && host.id === a.attachedId;
  }

  /** The player Aura a is attached to, or null: still the object it was
   * (CR 400.7), on the battlefield, the player in the game (701.3d). */
  attachedPlayer(a) {
    const p = a.attachedPlayer;
    if (p === null || !a.exists || a.id !== a.attachSelf || a.zone !== 'battlefield' || this.s.departed.has(p)) return null;
    return p;
  }

  /** The handle a is attached to, or null (CR 301.5, 303.4, 400.7). */
  attachedTo(a) {
    const host = a.attached === null ? undefined : this.s.objects.get(a.attached);
    if (host === undefined || !this.sameAttachment(a, host)) return null;
    if (a.zone !== 'battlefield' || host.zone !== 'battlefield' || a.phasedOut !== host.phasedOut) return null;
    return host.handle;
  }

  // ---- the untap step and players leaving (CR 702.26a, 702.26n, 800.4a) -------

  /** Does player `p` sit strictly after `from` and strictly before `to` in
   * turn order, going round the players? from === to is an extra turn (CR
   * 500.7): nobody does. */
  between(from, to, p) {
    if (from === to) return false;
    const { players } = this.s;
    const n = players.length;
    const end = players.indexOf(to);
    for (let k = (players.indexOf(from) + 1) % n; k !== end; k = (k + 1) % n) if (players[k] === p) return true;
    return false;
  }

  /** A player's untap step (CR 702.26a): the phased-in permanents with
   * phasing (`phasing:`) they control phase out and those that phased out
   * directly under them phase in, decided for all before any phases; what
   * is attached phases with its permanent (702.26g, 702.26h). First, what
   * phased out under a departed player whose next turn would have begun
   * since the last untap step phases in too (702.26n). The player is then
   * the turn player. Phasing is a status: no_move, no events. */
  stepUntap(opts, result) {
    const player = this.player(opts.player, 'untap: player');
    const listed = opts.phasing === undefined ? [] : opts.phasing;
    if (!Array.isArray(listed) || !listed.every((h) => typeof h === 'string')) {
      throw badRequest('untap: phasing is a list of handles (the permanents with phasing)');
    }
    if (new Set(listed).size !== listed.length) throw badRequest('untap: phasing: names each permanent once');
    const withPhasing = listed.map((h) => this.object(h));
    // the turn begins: effects until it end first (CR 500.5), and those until
    // a departed player's turn that would have begun since (800.4m)
    // (a turn of theirs no untap names was skipped: it waits, 614.10a)
    const endsNow = (p) => p === player || (this.s.departed.has(p) && this.between(this.s.turn, player, p));
    for (const [name, p] of [...this.s.nextMarks]) {
      if (!endsNow(p)) continue;
      this.wc(this.s.nextMarks).delete(name);
      for (const o of this.s.objects.values()) if (o.marks.has(name)) this.w(o).marks.delete(name);
    }
    const exiled = this.endEffects((e) => e.until === 'next_turn' && endsNow(e.turnOf), result);
    // CR 702.26n: a departed player's next turn came between the last turn and this one
    const due = new Set([...this.s.leftDue].filter((d) => this.between(this.s.turn, player, d)));
    for (const d of due) this.wc(this.s.leftDue).delete(d);
    /** @type {Map<string, 'out'|'in'>} */
    const act = new Map();
    for (const o of withPhasing) {
      if (o.exists && o.born && o.zone === 'battlefield' && !o.phasedOut && o.controller === player) act.set(o.handle, 'out');
    }
    for (const o of this.s.objects.values()) {
      // phased out directly (what phased out with another comes back with it, 702.26g)
      if (o.exists && o.phasedOut && o.phasedWith === null && o.phasedUnder !== null &&
          (o.phasedUnder === player || due.has(o.phasedUnder))) act.set(o.handle, 'in');
    }
    // CR 702.26h: attached, directly or through what it is attached to, to
    // another that phases out: it phases out only indirectly, with that one
    const carried = (o) => {
      let x = o;
      for (let k = 0; k < this.s.objects.size; k++) {
        const host = x.attached === null ? undefined : this.s.objects.get(x.attached);
        if (host === undefined || host === o || !this.sameAttachment(x, host)) return false;
        if (act.get(host.handle) === 'out') return true;
        x = host;
      }
      return false;
    };
    const indirect = new Set([...act].filter(([h, a]) => a === 'out' && carried(this.s.objects.get(h))).map(([h]) => h));
    for (const o of [...this.s.objects.values()]) {
      const a = act.get(o.handle);
      if (a === undefined || indirect.has(o.handle)) continue;
      // one that phased out earlier in this loop may have taken this one with it
      if (a === 'out' ? o.phasedOut : !o.phasedOut || o.phasedWith !== null) continue;
      this.phaseWithAttached(o, a === 'out'); // CR 702.26d: a status, no event
    }
    this.ws('turn');
    this.s.turn = player;
    if (exiled) result.set('moved');
  }

  /** A player leaves the game (CR 800.4a), in this order: what they own in
   * a zone (not the ante, 800.4n) ceases, a phased-in permanent's going
   * being a leaves-the-battlefield event (603.6c) and a phased-out one's
   * triggering nothing (702.26k); the effects giving them control of
   * others' objects end; what they control on the stack that is not a card
   * ceases; what they still control is exiled (800.4c). From now on steps
   * naming them are rejected (runStep), and what phased out under them
   * phases in once their turn would have come round (702.26n, stepUntap). */
  stepLeaveGame(opts, result) {
    const p = this.player(opts.player, 'leave_game: player');
    this.wk(this.s.departed, p).add(p);
    this.wk(this.s.leftDue, p).add(p);
    const objects = [...this.s.objects.values()];
    // an Aura attached to them is attached to nothing from now on (CR
    // 701.3d): described again in the next delta
    for (const o of objects) if (o.attachedPlayer === p && o.exists) this.touched.add(o.handle);
    for (const o of objects) {
      if (!o.exists || !o.born || o.owner !== p || o.zone === null || o.zone === OUTSIDE || o.zone === 'ante') continue;
      // a move from the battlefield to no zone: only a watch to: any fires
      if (this.s.triggers.size && !o.phasedOut && o.zone === 'battlefield') this.fireTriggers(o, o.zone, '', o.controller, '');
      this.cease(o, result);
    }
    // their control effects end, on every object; what they controlled goes
    // to the latest effect still in force, else its default controller (CR
    // 800.4a, 613.7, 110.2)
    this.ws('ctrls');
    this.s.ctrls = this.s.ctrls.filter((e) => e.player !== p);
    for (const o of objects) {
      if (!o.exists || o.controller !== p) continue;
      const back = this.controlNow(o);
      if (back !== null && !this.s.departed.has(back)) this.w(o).controller = back;
    }
    for (const o of objects) {
      if (o.exists && o.controller === p && o.zone === 'stack' && (o.kind === 'ability' || o.kind === 'copy')) this.cease(o, result);
    }
    for (const o of objects) {
      if (o.exists && o.controller !== null && this.s.departed.has(o.controller)) this.exileByRule(o, result);
    }
  }

  /** Exile o by the rules (CR 800.4a): a zone change like any; a phased-out
   * permanent stops being phased out and, treated as though it didn't exist
   * (702.26b, 702.26k), triggers nothing as it goes. */
  exileByRule(o, result) {
    const quiet = o.phasedOut;
    this.w(o).phasedOut = false;
    o.phasedWith = null;
    const triggers = this.s.triggers;
    this.ws('triggers');
    if (quiet) this.s.triggers = new Map();
    const sub = new StepResult();
    try {
      this.move(o, { to: 'exile', by: 'rule' }, sub);
    } finally {
      this.s.triggers = triggers;
    }
    result.events.push(...sub.events);
  }

  stepAttach(opts, result, followed) {
    if ((opts.to === undefined) === (opts.to_player === undefined)) throw badRequest('attach: give to: or to_player:, exactly one');
    const o = this.target(opts, result, followed, 'attach');
    if (o === null) return;
    if (opts.to_player !== undefined) {
      // CR 303.4b, 701.3a: an Aura enchants a player; anything else (an
      // Equipment, a Fortification) can't be and doesn't move (701.3b)
      const p = this.player(opts.to_player, 'attach: to_player');
      if (o.zone !== 'battlefield') return void result.set('failed', 'not_in_zone');
      if (o.phasedOut) return void result.set('failed', 'phased_out'); // CR 702.26b
      if (!o.words.includes('aura')) return void result.set('failed', 'cannot_hold');
      if (this.attachedPlayer(o) === p) return; // CR 701.3b: the same player, nothing happens
      Object.assign(this.w(o), { attached: null, attachedPlayer: p, attachSelf: o.id, phasedWith: null });
      return;
    }
    const host = this.object(opts.to);
    if (host === o) {
      result.set('failed', 'cannot_hold'); // nothing is attached to itself
      return;
    }
    for (const x of [o, host]) {
      if (!x.exists) return void result.set('failed', 'not_found');
      if (x.zone !== 'battlefield') return void result.set('failed', 'not_in_zone'); // two permanents (CR 303.4, 301.5)
      if (x.phasedOut) return void result.set('failed', 'phased_out'); // CR 702.26b
    }
    Object.assign(this.w(o), { attached: host.handle, attachedId: host.id, attachSelf: o.id, attachedPlayer: null, phasedWith: null });
  }

  /** May o enter the battlefield attached to the object of handle h: a
   * phased-in permanent, not o itself (CR 303.4d, 303.4i)? */
  mayEnterAttached(o, h) {
    const host = this.object(h);
    return host !== o && host.exists && host.zone === 'battlefield' && !host.phasedOut
      && !(this.together && this.together.has(host.handle));
  }

  /** CR 701.3d: attached to nothing where it is, the same object; the
   * state-based actions see it as attached to nothing (704.5m, 704.5n). */
  stepUnattach(opts, result, followed) {
    const o = this.target(opts, result, followed, 'unattach');
    if (o === null) return;
    if (o.zone !== 'battlefield') return void result.set('failed', 'not_in_zone');
    if (o.phasedOut) return void result.set('failed', 'phased_out'); // CR 702.26b
    if (this.attachedPlayer(o) !== null) return void (this.w(o).attachSelf = 0); // attached to no player (704.5m)
    if (this.attachedTo(o) === null) return void result.set('failed', 'already');
    this.w(o).attachedId = 0; // no identity: attached to nothing
  }

  stepTurnFace(opts, result, followed) {
    if (opts.face !== 'up' && opts.face !== 'down') throw badRequest('turn_face: face is up or down');
    const o = this.target(opts, result, followed, 'turn_face');
    if (o === null) return;
    // CR 702.26b: nothing can turn over a phased-out permanent, whatever face it shows
    if (o.phasedOut) result.set('failed', 'phased_out');
    else if (o.face === opts.face) result.set('failed', 'already');
    // CR 400.4a: face up on the battlefield it would be an instant or sorcery there
    else if (opts.face === 'up' && o.zone === 'battlefield' && MtgGame.isInstantOrSorcery(o)) result.set('failed', 'cannot_hold');
    else {
      this.w(o).face = opts.face;
      if (opts.face === 'down' && o.zone === 'command') { // CR 400.9
        this.renew(o);
        result.set('new_object_in_place');
        result.event(o.handle, 'new_object_in_place');
      }
    }
  }

  stepReorder(opts, result) {
    const zone = this.zoneOfStep(opts.zone, 'reorder: zone');
    if (!Array.isArray(opts.order)) throw badRequest('reorder: order lists handles, top first');
    const order = opts.order.map((h) => this.object(h).handle);
    if (opts.by !== undefined && opts.by !== 'player' && opts.by !== 'effect') {
      throw badRequest('reorder: by is player or effect');
    }
    const pile = this.s.zones.get(zone);
    // CR 400.5: nobody may rearrange a library, graveyard or stack (401.2,
    // 404.2, 405.2), but an effect may; nothing changes zones, so every
    // object stays the same object and nothing triggers
    if (ORDERED_ZONES.has(zoneType(zone)) && opts.by !== 'effect') result.set('rejected', 'ordered');
    else if (opts.player !== undefined && opts.by !== 'effect' && !this.mayArrange(this.player(opts.player, 'reorder: player'), zone, order)) {
      result.set('rejected', 'wrong_player');
    } else if (!MtgGame.namesExactly(order, pile)) result.set('failed', 'not_in_zone');
    else if (opts.by !== 'effect' && zoneType(zone) !== 'battlefield' &&
             pile.filter((h) => this.s.objects.get(h).face === 'down').length >= 2) {
      result.set('rejected', 'ordered'); // CR 400.5: a face-down pile keeps its order
    } else {
      const changed = order.some((h, i) => pile[i] !== h);
      this.wz(zone).splice(0, pile.length, ...order);
      if (changed) this.renewRevealed(zone, result); // CR 701.20d
    }
  }

  /** CR 400.5, 402.3: a player arranges their own zone, or in a shared
   * zone only their own objects (those whose place changes). */
  mayArrange(player, zone, order) {
    const owner = zonePlayer(zone);
    if (owner) return owner === player;
    const pile = this.s.zones.get(zone);
    return pile.every((h, i) => h === order[i] || (this.s.objects.get(h).owner === player && this.s.objects.get(order[i] || h).owner === player));
  }

  /** CR 407.4: only an object's owner may ante it. False (with the result
   * rejected, wrong_player, when result is given) when `name` may not put
   * o where move opts sends it. */
  mayPut(name, o, opts, result) {
    if (name === undefined) return true;
    const player = this.player(name, 'player');
    if (typeof opts.to !== 'string' || zoneType(opts.to) !== 'ante' || o.owner === player) return true;
    if (result) {
      result.set('rejected', 'wrong_player');
      result.event(o.handle, 'rejected');
    }
    return false;
  }

  /** CR 406.3: an instruction lets a player look at a face-down exiled card
   * (or a library or hand card) while it stays that object in that zone. */
  stepLook(opts, result, followed) {
    const player = this.player(opts.player, 'look: player');
    const o = this.target(opts, result, followed, 'look');
    if (o === null) return;
    if (o.zone === OUTSIDE) {
      result.set('rejected', 'unsupported');
      return;
    }
    this.w(o);
    const shown = MtgGame.shown(o) || { id: o.id, zone: o.zone, players: new Set(), all: false };
    shown.players.add(player);
    o.shown = shown;
    if (opts.then !== undefined && opts.then !== null) {
      // the rest of the same instruction: look at it, then exile it face
      // down, and the player goes on looking while it stays exiled (406.3)
      if (followed !== null) throw badRequest('look: then: is not allowed in then:/do:');
      if (!isObject(opts.then)) throw badRequest('look: then: is one step');
      const before = o.id;
      result.events.push(...this.runStep(opts.then, o).events);
      if (o.exists && o.id !== before && o.zone === 'exile' && o.face === 'down') {
        this.w(o);
        const again = MtgGame.shown(o) || { id: o.id, zone: o.zone, players: new Set(), all: false };
        again.players.add(player);
        o.shown = again;
      }
    }
  }

  /** CR 701.20a: a revealed object is shown to every player until it leaves
   * its zone or becomes a new object (400.7), or end: true. */
  stepReveal(opts, result, followed) {
    if (opts.top_of !== undefined) { // CR 401.5: play with the top card of a library revealed
      if (followed !== null || opts.card !== undefined || opts.ref !== undefined) {
        throw badRequest('reveal: top_of: is not with card:/ref:, nor in then:/do:');
      }
      if (opts.end !== undefined && typeof opts.end !== 'boolean') throw badRequest('reveal: end is true or false');
      const p = this.player(opts.top_of, 'top_of');
      if (opts.end === true) {
        if (this.s.topShown.has(p)) {
          const was = this.s.topShown.get(p);
          if (was !== null) this.topHidden(was, p);
          this.wc(this.s.topShown).delete(p);
        }
      } else if (!this.s.topShown.has(p)) {
        this.wc(this.s.topShown).set(p, null); // shown by updateTops after this step
      }
      return;
    }
    const o = this.target(opts, result, followed, 'reveal');
    if (o === null) return;
    if (o.zone === OUTSIDE) {
      result.set('rejected', 'unsupported');
      return;
    }
    this.w(o);
    const shown = MtgGame.shown(o) || { id: o.id, zone: o.zone, players: new Set(), all: false };
    shown.all = opts.end !== true;
    o.shown = shown;
  }

  /** What a look or reveal still shows of o (same object, same zone), or null. */
  static shown(o) {
    return o.shown && o.shown.id === o.id && o.shown.zone === o.zone ? o.shown : null;
  }

  /** Does `order` name every handle of `pile` exactly once, and nothing else? */
  static namesExactly(order, pile) {
    return order.length === pile.length && new Set(order).size === order.length && order.every((h) => pile.includes(h));
  }

  /** A shuffle's result is chance, so the step carries it: order:, the zone
   * top first, every object in it once (else failed, not_in_zone, and
   * nothing changes). Without order: any order is right. */
  stepShuffle(opts, result) {
    const zone = this.zoneOfStep(opts.zone, 'shuffle: zone');
    if (opts.seed !== undefined && !(Number.isInteger(opts.seed) && opts.seed >= 0 && opts.seed <= 2147483647)) {
      throw badRequest('shuffle: seed is a number from 0 to 2147483647');
    }
    const pile = this.s.zones.get(zone);
    if (opts.order === undefined || opts.order === null) {
      seededShuffle(this.wz(zone), opts.seed === undefined ? 0 : opts.seed);
      this.forgetShown(zone, result);
      return;
    }
    if (!Array.isArray(opts.order)) throw badRequest('shuffle: order lists handles, top first');
    const order = opts.order.map((h) => this.object(h).handle);
    if (!MtgGame.namesExactly(order, pile)) result.set('failed', 'not_in_zone');
    else {
      this.wz(zone).splice(0, pile.length, ...order);
      this.forgetShown(zone, result);
    }
  }

  /** A shuffled pile is unknown again: looks and reveals of its cards end
   * (CR 406.3: a look at a face-down exiled card lasts until its pile is
   * shuffled; 401.2), and a library's revealed cards are new objects
   * (701.20d). @param {string} zone @param {StepResult} result */
  forgetShown(zone, result) {
    this.renewRevealed(zone, result);
    for (const h of this.s.zones.get(zone) || []) {
      const o = this.s.objects.get(h);
      if (o.shown) this.w(o).shown = null;
    }
  }

  /** CR 701.20d: the revealed cards of a library that is shuffled, or
   * rearranged so that its order changes, stop being revealed and become
   * new objects, top first, each with a new_object_in_place event.
   * @param {string} zone @param {StepResult} result */
  renewRevealed(zone, result) {
    if (zone === OUTSIDE || zoneType(zone) !== 'library') return;
    for (const h of this.s.zones.get(zone) || []) {
      const o = this.s.objects.get(h);
      const shown = MtgGame.shown(o);
      if (shown === null || !shown.all) continue;
      this.w(o).shown = null;
      this.renew(o);
      result.event(h, 'new_object_in_place');
    }
  }

  /** Steps of Flesh and Blood: Magic has no sub-cards and no zones that come
   * and go, so the rules reject them (an answer, not a protocol error). */
  stepNotInMagic(opts, result, followed, what) {
    if (what === 'put_under') {
      const o = this.target(opts, result, followed, what);
      this.object(opts.under);
      if (o === null) return;
    } else if (typeof opts.zone !== 'string') throw badRequest(`${what}: zone is required`);
    result.set('rejected', 'unsupported');
  }

  /** CR 704.3: state-based actions, checked again until none applies. */
  stepStateCheck(opts, result) {
    for (let again = true; again;) {
      again = false;
      for (const o of this.s.objects.values()) {
        if (!o.exists || !o.born) continue;
        const type = zoneType(o.zone);
        const tokenAway = o.kind === 'token' && type !== 'battlefield'; // CR 704.5d (a phased-out token is still there, 702.26d)
        // CR 704.5e; a copy made outside the game (707.13) is in no zone
        const copyAway = o.kind === 'copy' && o.zone !== OUTSIDE && !CONTROLLED_ZONES.has(type);
        if (tokenAway || copyAway) {
          this.cease(o, result);
          again = true;
        } else if ((o.attached !== null || o.attachedPlayer !== null) && type === 'battlefield' && !o.phasedOut
                   && this.attachedTo(o) === null && this.attachedPlayer(o) === null) {
          // attached to nothing, or to a player who left the game (CR 303.4c)
          Object.assign(this.w(o), { attached: null, attachedPlayer: null });
          if (o.words.includes('aura')) { // CR 704.5m: to its owner's graveyard
            this.move(o, { to: 'graveyard', cause: 'state_check', by: 'rule' }, result);
            again = true;
          } // CR 704.5n: an Equipment or Fortification stays, unattached
        }
      }
    }
    for (const p of this.s.drewFromEmpty) this.wk(this.s.lost, p).add(p); // CR 704.5b
    if (this.s.drewFromEmpty.size) this.wc(this.s.drewFromEmpty).clear();
    const arrived = result.events.length > 0 && result.events.every((e) => ['moved', 'replaced', 'redirected'].includes(e.outcome));
    result.set(arrived ? 'moved' : result.events.length ? 'ceased' : 'no_move');
  }

  stepEndGame(opts) {
    const winner = this.player(opts.winner, 'end_game: winner');
    for (const h of this.s.zones.get('ante')) this.w(this.s.objects.get(h)).owner = winner; // CR 407.2
  }

  /** CR 400.7k, 702.35c: a trigger on a card's discard finds it in the public
   * zone the madness trigger put it into from exile (not cast), when the
   * trigger followed that exiled object and the card has not moved since. */
  static madnessFound(t, o) {
    return t.discard === true && o.madnessFrom !== 0 && o.madnessFrom === t.id &&
      o.id === o.madnessId && MtgGame.findable(o);
  }

  stepWatch(opts) {
    const name = this.newName(opts.as, this.s.triggers, 'watch');
    if (opts.card === undefined) throw badRequest('watch: card: is required');
    // CR 603.10b: a trigger on phasing out, never on a zone change
    if (opts.phase !== undefined && opts.phase !== 'out') throw badRequest('watch: phase: takes out (a trigger on phasing out)');
    if (opts.phase !== undefined) {
      const zonal = ['from', 'to', 'cause', 'aura'].find((k) => opts[k] !== undefined);
      if (zonal !== undefined) throw badRequest(`watch: ${zonal}: is for a trigger on a zone change, not with phase: out`);
    }
    const o = this.object(opts.card);
    const from = this.zoneRef(opts.from === undefined ? 'any' : opts.from, 'watch: from', [OUTSIDE, 'any']);
    const to = this.zoneRef(opts.to === undefined ? 'any' : opts.to, 'watch: to', [OUTSIDE, 'any']);
    const words = MtgGame.words(opts.types, 'watch: types');
    if (opts.cause !== undefined && typeof opts.cause !== 'string') throw badRequest('watch: cause is a word');
    const aura = opts.aura === undefined ? null : this.object(opts.aura).handle; // CR 400.7f
    this.wk(this.s.triggers, name).set(name, {
      handle: o.handle, from, to, words, cause: opts.cause, aura, fired: false, found: null, controller: null, id: 0, firedStep: -1,
      onPhase: opts.phase === 'out',
    });
  }

  stepResolve(opts, result) {
    const t = typeof opts.trigger === 'string' ? this.s.triggers.get(opts.trigger) : undefined;
    if (t === undefined) throw badRequest(`resolve: unknown trigger ${show(opts.trigger)}`);
    if (opts.do !== undefined && opts.do !== null && !isObject(opts.do)) throw badRequest('resolve: do: is one step');
    if (!t.fired) {
      result.set('not_found', 'not_fired');
      return;
    }
    // CR 800.4d: a triggered ability its departed controller would control
    // is never put on the stack
    if (this.s.departed.size && t.controller !== null && this.s.departed.has(t.controller)) {
      result.set('rejected', 'wrong_player');
      return;
    }
    let o;
    this.w(t);
    if (t.onPhase) {
      // CR 603.10b, 702.26d: phasing is no zone change, so it finds the
      // permanent while it is the object that phased out, phased out or not
      // (what its effect may do to a phased-out one is the step's, 702.26b)
      o = this.s.objects.get(t.handle);
      t.found = o.exists && o.id === t.id;
    } else if (t.aura !== null) {
      // CR 400.7f, 603.6e: the Aura's new object in its owner's graveyard,
      // put there in the step the trigger fired in or by a later state
      // check (704.5m), not moved since
      o = this.s.objects.get(t.aura);
      t.found = o.exists && o.zone === `${o.owner}.graveyard` &&
        (o.arrivedStep === t.firedStep || (o.arrivedStep > t.firedStep && o.arrivedByCheck === true));
    } else {
      o = this.s.objects.get(t.handle);
      // CR 400.7e, 603.6: it finds the object it tracks only while that object
      // stays the object it became, in a public zone
      t.found = (o.id === t.id && MtgGame.findable(o)) || MtgGame.madnessFound(t, o);
    }
    if (!t.found) {
      result.set('not_found', 'not_found');
      result.event(o.handle, 'not_found');
    } else if (opts.do !== undefined && opts.do !== null) {
      const done = this.runStep(opts.do, o);
      result.set(done.outcome, done.error);
      result.events.push(...done.events);
    }
  }

  stepRemember(opts, result, followed) {
    const name = this.newName(opts.as, this.s.refs, 'remember');
    const o = this.target(opts, result, followed, 'remember');
    this.wk(this.s.refs, name).set(name, o === null ? { handle: null, id: 0 } : { handle: o.handle, id: o.id });
  }

  /** The moves a replace or cant step names (when:): zones to and from
   * (any when not written), and a cause word. */
  moveFilter(given, what) {
    const when = given === undefined || given === null ? {} : given;
    if (!isObject(when) || Object.keys(when).some((k) => !['to', 'from', 'cause'].includes(k))) {
      throw badRequest(`${what}: when: has to, from, cause`);
    }
    if (when.cause !== undefined && typeof when.cause !== 'string') throw badRequest(`${what}: when: cause is a word`);
    const special = [OUTSIDE, 'any'];
    return {
      to: this.zoneRef(when.to === undefined ? 'any' : when.to, `${what}: when: to`, special),
      from: this.zoneRef(when.from === undefined ? 'any' : when.from, `${what}: when: from`, special),
      cause: when.cause,
    };
  }

  stepReplace(opts) {
    const name = this.newName(opts.as, this.s.replacements, 'replace');
    const card = opts.card === 'any' ? 'any' : this.object(opts.card).handle;
    const when = this.moveFilter(opts.when, 'replace');
    const { instead } = opts;
    if (!isObject(instead) || ['card', 'ref', 'then'].some((k) => instead[k] !== undefined)) {
      throw badRequest('replace: instead: holds move options, without card, ref or then');
    }
    const unknown = Object.keys(instead).filter((k) => !MOVE_OPTIONS.includes(k));
    if (unknown.length) throw badRequest(`replace: instead: unknown option ${unknown[0]}`);
    this.checkMove(instead, 'replace: instead');
    if (opts.controller !== undefined) this.player(opts.controller, 'replace: controller'); // recorded by the case, unused
    const category = opts.category === undefined ? 'other' : opts.category;
    if (category !== 'self' && category !== 'other') throw badRequest('replace: category is self or other');
    this.wk(this.s.replacements, name).set(name, { card, when, instead: copyJson(instead), category });
  }

  /** A draw replacement (CR 614.11), in force from this step on: each
   * draw of `player`, one at a time, is replaced by the `instead` steps
   * (takeFromLibrary), even a draw from an empty library; with once: only
   * the next. Its name is a replacement's (choose_replacement orders it). */
  stepReplaceDraw(opts) {
    const name = this.newName(opts.as, this.s.replacements, 'replace_draw');
    const player = this.player(opts.player, 'replace_draw: player');
    const { instead } = opts;
    if (!Array.isArray(instead)) throw badRequest('replace_draw: instead: is a list of steps ([] for none)');
    MtgGame.checkStepList(instead, 'replace_draw: instead');
    if (opts.once !== undefined && typeof opts.once !== 'boolean') throw badRequest('replace_draw: once is true or false');
    this.wk(this.s.replacements, name).set(name, {
      draw: true, player, instead: copyJson(instead), once: opts.once === true, active: true, running: false,
    });
  }

  /** A "can't" effect on moves, in force from this step on and never
   * ending (CR 614.17): the moves it names fail, `forbidden` (move()). It
   * undoes nothing that already happened (614.17a). card: a handle (it
   * follows the card, like replace) or any; types: every one of them. */
  stepCant(opts) {
    if (opts.draw !== undefined) { // CR 121.3: a player who can't draw
      if (opts.card !== undefined || opts.when !== undefined || opts.types !== undefined) {
        throw badRequest('cant: draw: is instead of card:, when: and types:');
      }
      this.wc(this.s.cants).push({ draw: this.player(opts.draw, 'cant: draw') });
      return;
    }
    if (opts.card === undefined) throw badRequest('cant: card: is required (a handle or any)');
    const card = opts.card === 'any' ? 'any' : this.object(opts.card).handle;
    const when = this.moveFilter(opts.when, 'cant');
    const types = [...MtgGame.words(opts.types, 'cant: types')];
    this.wc(this.s.cants).push({ card, when, types });
  }

  stepChooseReplacement(opts, result) {
    const { order } = opts;
    if (!Array.isArray(order) || !order.every((n) => typeof n === 'string' && this.s.replacements.has(n))) {
      throw badRequest('choose_replacement: order lists replacement names');
    }
    if (opts.player !== undefined) {
      const player = this.player(opts.player, 'choose_replacement: player');
      const o = opts.card === undefined ? null : this.object(opts.card);
      // CR 616.1: the affected object's controller, or its owner, chooses;
      // for an object that is gone there is nobody to check
      if (o !== null && o.exists && o.born && player !== (o.controller || o.owner)) {
        result.set('rejected', 'wrong_player');
        return;
      }
    } else if (opts.card !== undefined) this.object(opts.card);
    this.ws('chosenOrder');
    this.s.chosenOrder = [...new Set(order)];
  }

  stepMark(opts, result, followed) {
    if (typeof opts.as !== 'string' || !/^[^.\s]+$/.test(opts.as)) throw badRequest('mark: as: needs a name without "." or spaces');
    if (this.s.markNames.has(opts.as)) throw badRequest(`mark: the name '${opts.as}' is already used`);
    if (!MARK_KINDS.includes(opts.kind)) throw badRequest(`mark: kind is one of ${MARK_KINDS.join(', ')}`);
    if (opts.until !== undefined && opts.kind !== 'effect') throw badRequest('mark: until is on a mark of kind effect');
    const turnOf = this.duration(opts, 'mark');
    const o = this.target(opts, result, followed, 'mark');
    this.wk(this.s.markNames, opts.as).add(opts.as);
    if (opts.until === 'end_of_turn') this.wk(this.s.untilMarks, opts.as).add(opts.as);
    else if (turnOf !== undefined) this.wk(this.s.nextMarks, opts.as).set(opts.as, turnOf);
    if (o !== null && o.phasedOut) result.set('failed', 'phased_out'); // CR 702.26b, 702.26e: unaffected
    else if (o !== null && o.zone === OUTSIDE) result.set('rejected', 'unsupported'); // CR 400.11c
    else if (o !== null) this.w(o).marks.set(opts.as, opts.kind);
  }

  // ---- what the players see ------------------------------------------------------

  /** CR 400.2: public when in a public zone and face up, while revealed
   * (CR 701.20a), or as the revealed top card of a library (401.5). */
  isPublic(o) {
    if (o.exists && o.zone !== OUTSIDE && MtgGame.shown(o) && MtgGame.shown(o).all) return true; // CR 701.20a
    if (o.exists && zoneType(o.zone) === 'library' && this.s.topShown.get(zonePlayer(o.zone)) === o.handle) return true;
    return o.exists && isPublicZone(o.zone) && o.face === 'up';
  }

  /** May `player` look at `o`? Public objects: everyone; a hand: its owner
   * (CR 402.3); a face-down spell or permanent: its controller (CR 708.5);
   * a library (CR 401.2), face-down exiled cards (CR 406.3) and anything
   * outside the game: nobody. */
  sees(player, o, isPublic = this.isPublic(o)) {
    if (!o.exists || o.zone === OUTSIDE) return false;
    if (isPublic) return true;
    if (MtgGame.shown(o) && MtgGame.shown(o).players.has(player)) return true; // CR 406.3
    const type = zoneType(o.zone);
    if (type === 'hand') return zonePlayer(o.zone) === player;
    return CONTROLLED_ZONES.has(type) && o.controller === player;
  }

  describe(o, isPublic = this.isPublic(o)) {
    if (!o.exists) {
      return {
        exists: false, zone: '', object: o.id, position: null, layer: null, visibility: 'private', face: 'up',
        controller: null, owner: o.owner, marks: [], under: null, phased_out: false, came_from: null,
      };
    }
    const pile = this.s.zones.get(o.zone);
    /** @type {Record<string, any>} */
    const d = {
      exists: true,
      zone: o.zone,
      object: o.id,
      position: pile && ORDERED_ZONES.has(zoneType(o.zone)) ? pile.indexOf(o.handle) : null,
      layer: null, // no stack layers in Magic
      visibility: isPublic ? 'public' : 'private',
      face: o.face,
      controller: o.controller,
      owner: o.owner,
      marks: [...o.marks.keys()],
      under: null, // no sub-cards in Magic
      phased_out: o.phasedOut,
      // FaB 3.0.9c's zone history; Magic keeps none (CR 400.7: a new object
      // has no memory of the old one): null in every Magic rule set, also
      // right after a move
      came_from: null,
    };
    // feature attachments: only while attached (CR 301.5, 303.4)
    const host = this.attachedTo(o);
    if (host !== null) d.attached_to = host;
    // feature attach_player: only while attached to a player (CR 303.4b)
    const enchanted = this.attachedPlayer(o);
    if (enchanted !== null) d.attached_to_player = enchanted;
    return d;
  }

  /** Who sees `o`: bit i set when this.s.players[i] does (8 players at most). */
  seenBy(o, isPublic) {
    const { players } = this.s;
    let bits = 0;
    for (let i = 0; i < players.length; i++) if (this.sees(players[i], o, isPublic)) bits |= 1 << i;
    return bits;
  }

  /** The triggers, refs and players parts of an observation, whole: each
   * costs one entry per trigger, reference or player. */
  smallParts() {
    const triggers = table();
    for (const [name, t] of this.s.triggers) triggers[name] = { fired: t.fired, found: t.found, controller: t.controller };
    const refs = table();
    for (const name of this.s.refs.keys()) {
      const o = this.referenced(name, 'observe');
      // the handle of the object it finds; null when it finds nothing
      refs[name] = { found: o !== null, handle: o === null ? null : o.handle };
    }
    const players = table();
    for (const p of this.s.players) players[p] = { lost: this.s.lost.has(p) };
    return { triggers, refs, players };
  }

  /** The whole observation (PROTOCOL.md, "The observation"); it is also
   * what the next observeDelta() starts from. */
  observe() {
    const objects = table();
    // what the runner now knows, by name, for observeDelta() (Maps of its
    // own: it updates them while this answer may not be written yet)
    const told = { objects: new Map(), sees: new Map(), triggers: new Map(), refs: new Map(), players: new Map() };
    const born = [...this.s.objects.values()].filter((o) => o.born);
    for (const o of born) {
      const isPublic = this.isPublic(o); // once per object: it costs most of an observation
      const d = this.describe(o, isPublic);
      objects[o.handle] = d;
      told.objects.set(o.handle, d);
      told.sees.set(o.handle, this.seenBy(o, isPublic));
    }
    const { triggers, refs, players } = this.smallParts();
    for (const name in triggers) told.triggers.set(name, triggers[name]);
    for (const name in refs) told.refs.set(name, refs[name]);
    for (const name in players) told.players.set(name, players[name]);
    const visible = table();
    this.s.players.forEach((p, i) => { visible[p] = born.filter((o) => told.sees.get(o.handle) & (1 << i)).map((o) => o.handle); });
    this.told = told;
    this.touched.clear();
    this.attachers = new Set(born.filter((o) => o.attached !== null).map((o) => o.handle));
    return { objects, triggers, refs, players, visible };
  }

  /** What changed since the observation this game last gave (observe() or
   * observeDelta(); before any, a whole one is made and nothing is said to
   * have changed), as run with observe: delta answers it (zcp/2;
   * observationDelta gives the same from two whole observations). Only the
   * touched objects are described again, with the objects attached to one
   * of them and the libraries' shown tops; the triggers, refs and players
   * are compared entry by entry (each costs a comparison, an object only
   * when it changed); a player's visible list is made again only when an
   * object described again changed who sees it. */
  observeDelta() {
    if (this.told === null) {
      this.observe();
      return { objects: table() };
    }
    const { told } = this;
    const objects = table();
    let lists = 0; // bit i: the visible list of player i changed
    for (const o of this.touchedObjects()) lists |= this.tellObject(o, objects, told);
    /** @type {Record<string, any>} */
    const out = { objects };
    this.tellParts(out, told);
    if (lists !== 0) out.visible = this.visibleLists(lists, told);
    return /** @type {any} */ (out);
  }

  /** The objects to describe again for observeDelta(), in the order of
   * this.s.objects (a whole observation's): the touched ones, the shown
   * tops of libraries (CR 401.5: public while on top) and the objects
   * attached to a touched one (attached_to ends with its host). Clears
   * `touched`. */
  touchedObjects() {
    const { touched } = this;
    if (this.s.topShown.size) this.s.topShown.forEach((h) => { if (h !== null) touched.add(h); });
    for (const h of this.attachers) {
      const a = this.s.objects.get(h);
      if (a !== undefined && a.attached !== null && touched.has(a.attached)) touched.add(h);
    }
    /** @type {any[]} */
    const again = [];
    for (const h of touched) {
      const o = this.s.objects.get(h);
      if (o !== undefined && o.born) again.push(o); // not one a failed step made, then dropped
    }
    touched.clear();
    if (again.length > 1) again.sort((a, b) => a.seq - b.seq);
    return again;
  }

  /** Describe `o` again: into `objects` (the delta) the fields that changed
   * since `told`, all of them for an object new to it; `told` updated.
   * Returns the players (bits) for whom it appeared or disappeared. */
  tellObject(o, objects, told) {
    const h = o.handle;
    const isPublic = this.isPublic(o);
    const now = this.describe(o, isPublic);
    const before = told.objects.get(h);
    const changed = before === undefined ? now : objectChanges(before, now);
    if (changed !== null) objects[h] = changed;
    told.objects.set(h, now);
    const sees = this.seenBy(o, isPublic);
    const was = told.sees.has(h) ? told.sees.get(h) : 0;
    told.sees.set(h, sees);
    if (o.attached !== null) this.attachers.add(h);
    else this.attachers.delete(h);
    return sees ^ was;
  }

  /** Into `out`, the entries of triggers, refs and players that changed
   * since `told` (each part only when one did); `told` updated. Each entry
   * costs a comparison, and an object only when it changed. */
  tellParts(out, told) {
    this.s.triggers.forEach((t, name) => {
      const was = told.triggers.get(name);
      if (was !== undefined && was.fired === t.fired && was.found === t.found && was.controller === t.controller) return;
      const now = { fired: t.fired, found: t.found, controller: t.controller };
      (out.triggers || (out.triggers = table()))[name] = now;
      told.triggers.set(name, now);
    });
    this.s.refs.forEach((_ref, name) => {
      const o = this.referenced(name, 'observe');
      const handle = o === null ? null : o.handle;
      const was = told.refs.get(name);
      if (was !== undefined && was.handle === handle) return; // found follows from handle
      const now = { found: o !== null, handle };
      (out.refs || (out.refs = table()))[name] = now;
      told.refs.set(name, now);
    });
    for (const p of this.s.players) {
      const lost = this.s.lost.has(p);
      const was = told.players.get(p);
      if (was !== undefined && was.lost === lost) continue;
      const now = { lost };
      (out.players || (out.players = table()))[p] = now;
      told.players.set(p, now);
    }
  }

  /** The visible lists of the players in `lists` (bits), whole, in the
   * order of this.s.objects, from who sees each object in `told`. */
  visibleLists(lists, told) {
    /** @type {string[][]} */
    const shown = this.s.players.map(() => []);
    for (const o of this.s.objects.values()) {
      const bits = o.born ? told.sees.get(o.handle) & lists : 0;
      if (bits !== 0) for (let i = 0; i < shown.length; i++) if (bits & (1 << i)) shown[i].push(o.handle);
    }
    const visible = table();
    this.s.players.forEach((p, i) => { if (lists & (1 << i)) visible[p] = shown[i]; });
    return visible;
  }
}

/** The method for a Flesh and Blood step (MtgGame.stepNotInMagic). @param {string} what */
const notInMagic = (what) => /** @this {MtgGame} */ function run(opts, result, followed) {
  this.stepNotInMagic(opts, result, followed, what);
};

/** Each step of the case language: its options and the method applying it.
 * @type {Map<string, {options: string[], run: (this: MtgGame, opts: any, result: StepResult, followed: any) => void}>} */
const STEP_KINDS = new Map(Object.entries({
  move: { options: [...MOVE_OPTIONS, 'costs'], run: MtgGame.prototype.stepMove },
  move_together: { options: ['moves', 'order', 'player', 'order_by'], run: MtgGame.prototype.stepMoveTogether },
  create: {
    options: ['as', 'kind', 'owner', 'zone', 'types', 'subtypes', 'controller', 'face', 'copy_of', 'lki', 'as_enters'],
    run: MtgGame.prototype.stepCreate,
  },
  control: { options: ['card', 'ref', 'player', 'until', 'turn_of'], run: MtgGame.prototype.stepControl },
  phase: { options: ['card', 'ref', 'out', 'with'], run: MtgGame.prototype.stepPhase },
  turn_face: { options: ['card', 'ref', 'face'], run: MtgGame.prototype.stepTurnFace },
  reorder: { options: ['zone', 'order', 'by', 'player'], run: MtgGame.prototype.stepReorder },
  shuffle: { options: ['zone', 'order', 'seed'], run: MtgGame.prototype.stepShuffle },
  draw: { options: ['player', 'count', 'then'], run: MtgGame.prototype.stepDraw },
  mill: { options: ['player', 'count', 'to'], run: MtgGame.prototype.stepMill },
  put_under: { options: ['card', 'ref', 'under'], run: notInMagic('put_under') },
  zone_create: { options: ['zone'], run: notInMagic('zone_create') },
  zone_remove: { options: ['zone', 'choose'], run: notInMagic('zone_remove') },
  state_check: { options: [], run: MtgGame.prototype.stepStateCheck },
  end_game: { options: ['winner'], run: MtgGame.prototype.stepEndGame },
  watch: { options: ['as', 'card', 'from', 'to', 'types', 'cause', 'aura', 'phase'], run: MtgGame.prototype.stepWatch },
  resolve: { options: ['trigger', 'do'], run: MtgGame.prototype.stepResolve },
  remember: { options: ['as', 'card', 'ref'], run: MtgGame.prototype.stepRemember },
  replace: { options: ['as', 'card', 'when', 'instead', 'controller', 'category'], run: MtgGame.prototype.stepReplace },
  choose_replacement: { options: ['order', 'player', 'card'], run: MtgGame.prototype.stepChooseReplacement },
  mark: { options: ['card', 'ref', 'as', 'kind', 'until', 'turn_of'], run: MtgGame.prototype.stepMark },
  look: { options: ['card', 'ref', 'player', 'then'], run: MtgGame.prototype.stepLook },
  reveal: { options: ['card', 'ref', 'end', 'top_of'], run: MtgGame.prototype.stepReveal },
  attach: { options: ['card', 'ref', 'to', 'to_player'], run: MtgGame.prototype.stepAttach },
  end_turn: { options: [], run: MtgGame.prototype.stepEndTurn }, // G4 of issue 12
  cant: { options: ['card', 'when', 'types', 'draw'], run: MtgGame.prototype.stepCant }, // CR 614.17; draw: 121.3
  replace_draw: { options: ['as', 'player', 'instead', 'once'], run: MtgGame.prototype.stepReplaceDraw }, // CR 614.11
  untap: { options: ['player', 'phasing'], run: MtgGame.prototype.stepUntap }, // CR 702.26a, 702.26n
  leave_game: { options: ['player'], run: MtgGame.prototype.stepLeaveGame }, // CR 800.4a
  as_enters: { options: ['card', 'steps'], run: MtgGame.prototype.stepAsEnters }, // CR 614.13
  unattach: { options: ['card', 'ref'], run: MtgGame.prototype.stepUnattach }, // CR 701.3d
}));

/** The rules half as the protocol half sees it.
 * @type {import('./engine').RulesEngine} */
const mtgCurrent = {
  name: 'nodezones',
  version: '1.1.0',
  rulesets: ['mtg-current'],
  // everything mtg-current has but sub_cards, zone_lifecycle and
  // stack_layers, which belong to Flesh and Blood
  features: ['triggers', 'replacement', 'phasing', 'face_down', 'ante', 'visibility', 'reorder', 'state_check', 'marks',
    'performer', 'look', 'reveal',
    'attachments', 'durations', 'kept_marks', 'aura_triggers', 'madness', 'copies', 'casting',
    'phasing_together', 'cant', 'draw_replacement', 'untap_phasing', 'leave_game', 'phasing_triggers', 'as_enters',
    'shuffle_order', 'draw_then', 'together_order', 'created_owner', 'control_effects', 'unattach',
    'cant_costs', 'look_then', 'enters_attached', 'cant_draw', 'token_as_enters', 'next_turn', 'attach_player',
    'unpaid_costs', 'cant_draw_moves'],
  newGame: (ruleset, players, cards) => new MtgGame(players, cards),
};

module.exports = {
  PROTOCOLS, KNOWN_FEATURES, ZcpError, badRequest, unsupported, featuresOfStep, featuresOfSetup,
  chooseFeatures, observationDelta, Server, main, MtgGame, mtgCurrent, seededShuffle,
};

if (require.main === module) main();
