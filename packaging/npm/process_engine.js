'use strict';
// process_engine.js: an engine that is a process (a shell command, as the
// native CLI's --engine CMD) behind a synchronous answerLine(), so that
// the WebAssembly CLI, which cannot fork, drives it like an engine object:
// a worker thread (process_worker.js) owns the child and the pipes; this
// thread waits for each answer with Atomics.wait, up to the time limit.
// A request not answered in time is answered with an error ("timeout")
// and the child killed; the next request starts it again (hello first).
const { Worker } = require('worker_threads');
const path = require('path');

const MAX_ANSWER = 16 * 1024 * 1024; // the runner's longest line (ZCP_LINE_MAX)

class ProcessEngine {
  /** @param {string} cmd the command line, run by /bin/sh -c
   *  @param {number} [timeout] seconds per request (default 5) */
  constructor(cmd, timeout = 5) {
    this.cmd = cmd;
    this.timeoutMs = Math.max(1, timeout * 1000);
    this.sab = new SharedArrayBuffer(16 + MAX_ANSWER);
    this.ctl = new Int32Array(this.sab, 0, 4);
    this.worker = new Worker(path.join(__dirname, 'process_worker.js'), { workerData: { cmd, sab: this.sab } });
    this.worker.unref();
    this.restart = false;
  }

  /** One request line in, its answer line out (never throws). */
  answerLine(line) {
    Atomics.store(this.ctl, 0, 0);
    this.worker.postMessage({ line, restart: this.restart });
    this.restart = false;
    if (Atomics.wait(this.ctl, 0, 0, this.timeoutMs) === 'timed-out') {
      this.restart = true; // killed and started again with the next request
      let id = null;
      try { id = JSON.parse(line).id; } catch (e) { /* not JSON */ }
      return JSON.stringify({ id, ok: false, error: { code: 'internal', message: `timeout: no answer within ${this.timeoutMs / 1000} s (the engine was stopped)` } });
    }
    const n = Atomics.load(this.ctl, 1);
    return Buffer.from(new Uint8Array(this.sab, 16, n)).toString('utf8');
  }

  /** Kill the child and end the thread. */
  close() {
    Atomics.store(this.ctl, 0, 0);
    this.worker.postMessage({ stop: true });
    Atomics.wait(this.ctl, 0, 0, 1000);
    this.worker.terminate();
  }
}

module.exports = { ProcessEngine };
