#!/usr/bin/env -S MALLOC_MMAP_THRESHOLD_=131072 node --max-semi-space-size=4 --heap-growing-percent=100 --no-concurrent-marking
// Runs the compiled code (dist/, built by `npm install` through the prepare script, or `npm run build`).
// `npm start` and the Docker image run this file too, so the Node flags above are the only ones to keep:
// a young generation of at most 4 MB per semi-space lowers resident memory under read load by 15-30 MB
// (measured with `npm run bench`) for about the same CPU per request, and an old generation let grow to
// twice what the last full collection kept (V8 lets a small heap grow to four times) holds it another
// 10-15 MB lower: the journal's dropped entries and other promoted garbage are collected sooner.
// --no-concurrent-marking: a full collection marks in short steps on the main thread. On a server held to one
// core (taskset, a container's cpuset) V8's marking threads took that core from the main thread in scheduler
// slices: under saturating creates at 1M stored, 4 of 16 one-second bursts had a slowest create of 47-88 ms,
// none above 33 without them, at the same rates; a CI suite's cold and warm runs measured the same.
// MALLOC_MMAP_THRESHOLD_ holds glibc's threshold for memory mapped on its own at its default, 128 KiB: glibc
// otherwise raises it to the size of each large block freed, so request bodies and decoded pictures of a few
// MB come from its heap, whose freed pages stay resident. A 12-MP selfie's peak resident memory 188-203 →
// 174-178 MB, at the same latency (other C libraries ignore the variable).
// This file is CommonJS (bin/package.json), as is the loader it requires: a start then never sets up
// Node's ES module loader, which took some 25 ms of CPU (the bundle's `import()` sets it up on first use).
const { enableCompileCache } = require('node:module');
const { join } = require('node:path');
const { loadBundle } = require('../dist/bundle-loader.cjs');

// Node 22.1 and later keep V8's compiled code of the packages loaded on first use (in the system's temporary
// folder, or NODE_COMPILE_CACHE); the bundle's own is kept by loadBundle, on every Node version.
enableCompileCache?.();
const server = loadBundle(join(__dirname, '../dist/server.cjs'));
server.exports.main().then(() => {
  // Now that the server listens, its compiled code covers the start: kept for the next one (a start that
  // ran from kept code has it already).
  if (!server.cacheUsed) server.keepCompiledCode();
  // At exit (a stop, Ctrl-C, an end), also what the requests compiled: the next process's first calls run
  // from it. Not on SIGKILL, which leaves the kept code as it was.
  process.once('exit', () => server.keepCompiledCode());
});
