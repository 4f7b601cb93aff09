/**
 * What each thread of the image pool (image-decoding.ts) runs in the compiled package: the task bundle
 * dist/image-worker.cjs (image-worker.ts with the codecs and sharp's JavaScript, built by `npm run build`),
 * through the bin's loader (src/bundle-loader.mjs), with the compiled code an earlier thread kept. A thread
 * that imported the task module as ES modules set up Node's ES module loader and resolved and compiled some
 * thirty files, sharp's among them, before its first image: every thread, in every process, and the pool
 * starts threads again after 30 s idle.
 *
 * Plain CommonJS, copied to dist/images/ as it is: piscina requires its task file, and an ES module would
 * bring the ES module loader back.
 */
'use strict';
const { join } = require('node:path');
const { loadBundle } = require('../bundle-loader.cjs');

const bundle = loadBundle(join(__dirname, '../image-worker.cjs'));
let tasksDone = 0;

/** The pool's task (image-worker.ts: runImageTask). */
module.exports = async function runImageTask(task) {
  // Readying the thread (image-worker.ts: PrepareThreadTask) is not an image: the kept-code schedule counts images.
  if (typeof task === 'string') return bundle.exports.default(task);
  try {
    return await bundle.exports.default(task);
  } finally {
    tasksDone += 1;
    // A thread that found no kept code (the machine's first since a build) keeps what it compiled after its
    // 1st, 2nd, 4th … 64th image, by when it has met each kind of image a suite sends; written only when it
    // grew, before the answer (a few ms; a thread stopped when idle runs no exit listener). Threads that
    // started from kept code keep nothing: what they compile beyond it, they compile on first use.
    if (!bundle.cacheUsed && tasksDone <= 64 && (tasksDone & (tasksDone - 1)) === 0) bundle.keepCompiledCode();
  }
};
