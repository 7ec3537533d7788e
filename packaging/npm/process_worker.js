'use strict';
// process_worker.js: the thread of a ProcessEngine (process_engine.js).
// It owns the engine's child process (a shell command, as --engine CMD)
// and answers each request line posted to it: writes it to the child's
// stdin, takes the next line of its stdout, puts it in the shared buffer
// and wakes the main thread, which waits with Atomics.wait. A child that
// exits is reported in an error answer and started again at the next
// request, with the last hello sent again first (its answer dropped).
const { workerData, parentPort } = require('worker_threads');
const { spawn } = require('child_process');

const ctl = new Int32Array(workerData.sab, 0, 4); // [0] ready flag, [1] answer length
const buf = new Uint8Array(workerData.sab, 16);
let child = null;
let pending = '';
let waiting = false; // a request is being answered
let waitingId = null; // its id, for an error answer
let skip = 0; // answers to drop (a replayed hello)
let hello = null;
let tail = []; // the child's last stderr lines

function reply(text) {
  let b = Buffer.from(text, 'utf8');
  if (b.length > buf.length) b = Buffer.from(errorLine(waitingId, `an answer of ${b.length} bytes: too long`));
  buf.set(b);
  waiting = false;
  Atomics.store(ctl, 1, b.length);
  Atomics.store(ctl, 0, 1);
  Atomics.notify(ctl, 0);
}

function errorLine(id, message) {
  const why = tail.length ? `${message}; stderr: ${tail.join(' | ')}` : message;
  return JSON.stringify({ id: Number.isSafeInteger(id) ? id : null, ok: false, error: { code: 'internal', message: why } });
}

function drain() {
  for (;;) {
    const i = pending.indexOf('\n');
    if (i < 0) return;
    const line = pending.slice(0, i);
    pending = pending.slice(i + 1);
    if (skip > 0) { skip--; continue; }
    if (waiting) reply(line);
  }
}

function start() {
  pending = '';
  tail = [];
  // a process group of its own, killed whole (as the native runner does)
  const c = spawn('/bin/sh', ['-c', workerData.cmd], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  child = c;
  c.stdout.setEncoding('utf8');
  c.stdout.on('data', (d) => { if (child === c) { pending += d; drain(); } });
  c.stderr.setEncoding('utf8');
  c.stderr.on('data', (d) => {
    tail.push(...d.split('\n').filter((l) => l.trim()));
    tail = tail.slice(-8);
  });
  c.stdin.on('error', () => {});
  c.on('error', (e) => { if (child === c) { child = null; if (waiting) reply(errorLine(waitingId, `crash: the engine could not be started: ${e.message}`)); } });
  c.on('exit', (code, signal) => {
    try { process.kill(-c.pid, 'SIGKILL'); } catch (e) { /* the group is gone */ }
    if (child !== c) return;
    child = null;
    if (waiting) reply(errorLine(waitingId, `crash: the engine exited (${signal ? `signal ${signal}` : `code ${code}`})`));
  });
}

function stop() {
  if (child) {
    const c = child;
    child = null;
    try { process.kill(-c.pid, 'SIGKILL'); } catch (e) { c.kill('SIGKILL'); }
  }
}

parentPort.on('message', (msg) => {
  if (msg.stop) {
    stop();
    Atomics.store(ctl, 0, 1);
    Atomics.notify(ctl, 0);
    return;
  }
  const line = msg.line;
  let id = null;
  let op;
  try { const r = JSON.parse(line); id = r && r.id; op = r && r.op; } catch (e) { /* the engine answers it */ }
  if (msg.restart) stop();
  if (!child) {
    start();
    if (hello && op !== 'hello') { skip++; child.stdin.write(hello + '\n'); }
  }
  if (op === 'hello') hello = line;
  waiting = true;
  waitingId = id;
  child.stdin.write(line + '\n');
  drain();
});
