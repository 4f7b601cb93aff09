/**
 * The reference the image rows of `npm run bench` are set against: jimp's default decoding (jpeg-js for
 * JPEG), then the same area-averaged working image the sandbox analyses, run in a process of its own so its
 * peak memory is its own.
 *
 *   node --import tsx bench/jimp-decoding.ts <runs> <file>...   → {"p50Ms":…,"peakRssMb":…} on stdout
 *
 * One run decodes every file in turn (face compare sends two pictures); p50 is over the runs.
 */
import { readFileSync } from 'node:fs';
import { Jimp } from 'jimp';
import { downscaleToRgb } from '../src/images/codecs.cjs';
import { IMAGE_LIMITS } from '../src/images/image-checks.ts';

const [runsArg, ...files] = process.argv.slice(2);
const pictures = files.map((file) => readFileSync(file));
const times: number[] = [];
for (let run = 0; run < Number(runsArg); run++) {
  const started = performance.now();
  for (const bytes of pictures) downscaleToRgb((await Jimp.fromBuffer(bytes)).bitmap, IMAGE_LIMITS.workingMaxSide);
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const p50Ms = Math.round(times[Math.floor(times.length / 2)] ?? 0);
console.log(JSON.stringify({ p50Ms, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
