#!/usr/bin/env node
'use strict';
// npx zoneoracle COMMAND [ARGS...]: the zoneoracle CLI in WebAssembly,
// with the native command's options, reports and exit codes. --engine CMD
// (not `run --engine oracle`) runs the engine as a process driven from a
// worker thread (process_engine.js): WebAssembly cannot fork.
const zo = require('./index.js');
const { ProcessEngine } = require('./process_engine.js');

const args = process.argv.slice(2);
let cmd = null;
let timeout = 5;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--') break;
  if ((a === '--engine' && i + 1 < args.length) || a.startsWith('--engine=')) {
    const value = a === '--engine' ? args[i + 1] : a.slice('--engine='.length);
    if (value === 'oracle') continue;
    cmd = value;
    args.splice(i, a === '--engine' ? 2 : 1, '--engine-plugin', '@process');
    i++;
  } else if (a === '--timeout' && i + 1 < args.length) {
    timeout = Number(args[i + 1]) || 5;
  } else if (a.startsWith('--timeout=')) {
    timeout = Number(a.slice('--timeout='.length)) || 5;
  }
}
let engine = null;
let rc;
try {
  if (cmd !== null) engine = new ProcessEngine(cmd, timeout);
  rc = zo.cli(args, engine ? { process: engine } : {});
} finally {
  if (engine) engine.close();
}
process.exitCode = rc;
