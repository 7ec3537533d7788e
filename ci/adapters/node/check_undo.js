#!/usr/bin/env node
// ci/adapters/node/check_undo.js: check the undo log of engine.js against a
// recorded session, and what undoing a step costs (GUIDE.md section 6):
//
//     python3 ci/adapters/bench_steps.py record /tmp/session.jsonl -- ...   (see there)
//     node ci/adapters/node/check_undo.js /tmp/session.jsonl [ROUNDS]
//
// 1. Every step of the session (each `step`, and each step of each `run`)
//    is first run and rolled back, and the whole state (MtgGame's `s`) must
//    then be exactly what it was (a write that bypassed the log shows
//    here); then it is run for real, so the session goes on as the runner
//    played it, and what the game's observeDelta() says it changed must be
//    exactly the difference of whole observations before and after it
//    (observationDelta): an object the step changed without touching it
//    shows here.
// 2. The session is played in process three ways, best of ROUNDS (default
//    5): with the undo log, with a structuredClone of the state before
//    every step (snapshot()/restore(), the old way), and unprotected; the
//    differences are what protecting a step costs, in microseconds.
// Exit 1 when a step is not undone exactly or its delta is wrong. Node 18+,
// standard library only.
'use strict';

const fs = require('node:fs');
const { Server, mtgCurrent, observationDelta } = require('./engine');

/** The whole state under x, canonical: Maps and arrays in order, Sets
 * sorted, record fields by name. */
function dump(x) {
  if (x instanceof Map) return ['Map', [...x].map(([k, v]) => [k, dump(v)])];
  if (x instanceof Set) return ['Set', [...x].map((v) => JSON.stringify(dump(v))).sort()];
  if (Array.isArray(x)) return x.map(dump);
  if (x !== null && typeof x === 'object') return Object.keys(x).sort().map((k) => [k, dump(x[k])]);
  return x === undefined ? ['undefined'] : x;
}

const stepsOf = (r) => (r.op === 'step' ? [r.step] : r.op === 'run' ? r.steps || [] : null);

function check(requests) {
  const server = new Server(mtgCurrent, [...mtgCurrent.features]);
  let n = 0;
  let bad = 0;
  let wrongDeltas = 0;
  const quiet = process.stderr.write;
  process.stderr.write = () => true; // internal errors are part of some sessions
  try {
    for (const r of requests) {
      const steps = stepsOf(r);
      if (steps === null || server.game === null) {
        server.answer(r);
        continue;
      }
      for (const step of steps) {
        const game = server.game;
        if (game === null) break; // a step could not be undone: the runner would set up again
        const seen = game.observe(); // also what observeDelta() answers from
        const before = JSON.stringify(dump(game.s));
        const mark = game.begin();
        try {
          server.applyStep(game, step);
        } catch (e) { // a step that throws is part of the check
        } finally {
          game.rollback(mark);
        }
        n += 1;
        if (server.game !== game || JSON.stringify(dump(game.s)) !== before) {
          bad += 1;
          if (bad <= 5) console.log(`not undone exactly: ${JSON.stringify(step)}`);
        }
        try {
          server.applyStep(server.game, step);
        } catch (e) { // answered with an error, as the runner saw it
        }
        if (server.game !== game) continue;
        const own = JSON.stringify(game.observeDelta());
        const whole = JSON.stringify(observationDelta(seen, game.observe()));
        if (own !== whole) {
          wrongDeltas += 1;
          if (wrongDeltas <= 5) console.log(`wrong delta after ${JSON.stringify(step)}:\n  said ${own}\n  not  ${whole}`);
        }
      }
    }
  } finally {
    process.stderr.write = quiet;
  }
  return [n, bad, wrongDeltas];
}

function costs(lines, rounds) {
  const steps = lines.reduce((k, l) => k + (stepsOf(JSON.parse(l)) || []).length, 0);
  const ways = {
    'undo log': (g) => g,
    copy: (g) => ({
      step: (s) => g.step(s), observe: () => g.observe(), observeDelta: () => g.observeDelta(),
      snapshot: () => g.snapshot(), restore: (x) => g.restore(x),
    }),
    none: (g) => ({
      step: (s) => g.step(s), observe: () => g.observe(), observeDelta: () => g.observeDelta(),
      begin: () => -2, commit() {}, rollback() {},
    }),
  };
  const best = {};
  for (let i = 0; i < rounds; i++) {
    for (const [name, wrap] of Object.entries(ways)) {
      const rules = { ...mtgCurrent, newGame: (r, p, c) => wrap(mtgCurrent.newGame(r, p, c)) };
      const server = new Server(rules, [...rules.features]);
      const t = process.cpuUsage();
      for (const l of lines) server.answerLine(l);
      const used = process.cpuUsage(t);
      const us = (used.user + used.system) / Math.max(steps, 1);
      best[name] = Math.min(best[name] ?? Infinity, us);
    }
  }
  console.log(`${steps} steps, in process, CPU us per step (best of ${rounds}): ${Object.entries(best).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
  console.log(`protecting a step: undo log ${(best['undo log'] - best.none).toFixed(1)} us, copy ${(best.copy - best.none).toFixed(1)} us`);
}

function main(argv) {
  if (argv.length < 1) {
    console.error('usage: check_undo.js SESSION.jsonl [ROUNDS]');
    return 2;
  }
  const lines = fs.readFileSync(argv[0], 'utf8').split('\n').filter((l) => l.trim() !== '');
  const [n, bad, wrongDeltas] = check(lines.map((l) => JSON.parse(l)));
  console.log(`${n} steps run and rolled back: ${bad} not undone exactly; ${wrongDeltas} wrong deltas`);
  costs(lines, argv[1] === undefined ? 5 : Number(argv[1]));
  return bad || wrongDeltas ? 1 : 0;
}

module.exports = { dump };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
