/**
 * Decode worker: runs jimp's (synchronous, pure-JS) decoders off the main thread so a slow or hostile
 * image can be stopped: the pool terminates a worker that exceeds the decode time budget.
 * Protocol: receives { id, bytes: Uint8Array, maxSide, maxMegapixels }; answers
 * { id, ok: true, width, height, mime, working: { width, height, rgb } } or { id, ok: false, message }.
 */
import { parentPort } from 'node:worker_threads';
import { decodeToWorking } from './codecs.mjs';

// Decoders talk on the console about broken input (omggif: "Warning, gif stream shorter than
// expected."); that is the client's problem, reported as an error, not server log noise.
console.log = () => {};
console.warn = () => {};

parentPort?.on('message', async (job) => {
  try {
    const result = await decodeToWorking(job.bytes, { maxSide: job.maxSide, maxMegapixels: job.maxMegapixels });
    parentPort.postMessage({ id: job.id, ok: true, ...result }, [result.working.rgb.buffer]);
  } catch (error) {
    parentPort.postMessage({ id: job.id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
