import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Jimp } from 'jimp';
import { describe, expect, it } from 'vitest';
import { decodeBitmap } from '../../src/images/codecs.mjs';
import { decode, decodeScratchBytes, OutOfSpecScan } from '../../src/images/jpeg-decoder.mjs';
import { drawSyntheticFace, encodeImage } from '../../src/images/synthetic-images.ts';
import { rngFrom } from '../../src/platform/random/random.ts';

/**
 * src/images/jpeg-decoder.mjs must give exactly jimp's own JPEG decoding (jpeg-js): the same bytes for every
 * picture, the same error for every broken one. The variants were made with libjpeg-turbo's cjpeg from
 * generated pictures (progressive, 4:2:0, 4:2:2, 4:4:0, grey, RGB, restart markers, odd sizes); jpeg-js's own
 * encoder makes the baseline 4:4:4 pictures the sandbox's fixtures are.
 */

const variantsDir = join(import.meta.dirname, 'jpeg-variants');
const variants = readdirSync(variantsDir)
  .filter((name) => name.endsWith('.jpg'))
  .map((name) => ({ name, bytes: readFileSync(join(variantsDir, name)) }));
const fixturesDir = join(import.meta.dirname, '..', '..', 'fixtures', 'images');
const fixtures = readdirSync(fixturesDir)
  .filter((name) => name.endsWith('.jpg'))
  .map((name) => ({ name, bytes: readFileSync(join(fixturesDir, name)) }));
const LIMITS = { maxResolutionInMP: 17, maxMemoryUsageInMB: 166 };

type Outcome = { width: number; height: number; data: Uint8Array } | { error: string };

async function jimpDecode(bytes: Buffer, limits = LIMITS): Promise<Outcome> {
  try {
    const image = await Jimp.fromBuffer(bytes, { 'image/jpeg': limits });
    return { width: image.bitmap.width, height: image.bitmap.height, data: image.bitmap.data };
  } catch (error) {
    return { error: String(error instanceof Error ? error.message : error) };
  }
}

async function ourDecode(bytes: Buffer, maxMegapixels = 17): Promise<Outcome> {
  try {
    const bitmap = await decodeBitmap(bytes, { maxMegapixels });
    return { width: bitmap.width, height: bitmap.height, data: bitmap.data };
  } catch (error) {
    return { error: String(error instanceof Error ? error.message : error) };
  }
}

async function expectSameDecoding(name: string, bytes: Buffer): Promise<Outcome> {
  const ours = await ourDecode(bytes);
  const theirs = await jimpDecode(bytes);
  if ('error' in theirs) expect(ours, name).toEqual(theirs);
  else {
    expect('error' in ours ? ours.error : `${ours.width}x${ours.height}`, name).toBe(`${theirs.width}x${theirs.height}`);
    expect(Buffer.compare((ours as { data: Uint8Array }).data, theirs.data), `${name}: pixels differ`).toBe(0);
  }
  return theirs;
}

/** Offsets of the SOS (start of scan) markers. */
function scanStarts(bytes: Buffer): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < bytes.length; i++) if (bytes[i] === 0xff && bytes[i + 1] === 0xda) out.push(i);
  return out;
}

describe('the JPEG decoder gives exactly the pixels jimp gives', () => {
  it('decodes every variant and fixture JPEG to the same bytes', async () => {
    expect(variants.length).toBeGreaterThanOrEqual(7);
    for (const { name, bytes } of [...variants, ...fixtures]) {
      const outcome = await expectSameDecoding(name, bytes);
      // jpeg-js cannot read Huffman tables defined between the scans of this one; it must fail the same way.
      if (name === 'card-progressive-restart.jpg') expect(outcome).toEqual({ error: 'unexpected marker: ffc4' });
      else expect('error' in outcome, name).toBe(false);
    }
  });

  it('decodes pictures from jimp’s own encoder at any quality and odd sizes to the same bytes', async () => {
    for (const [width, height, quality] of [
      [1, 1, 90],
      [9, 7, 50],
      [97, 61, 20],
      [161, 203, 75],
      [333, 250, 100],
    ] as const) {
      const bytes = await encodeImage(drawSyntheticFace(`jpeg-decoder-${width}`, width, height), 'jpeg', { quality });
      await expectSameDecoding(`${width}x${height} q${quality}`, bytes);
    }
  });

  it('answers damaged pictures (flipped bytes, cut short) with the same pixels or the same error', async () => {
    const rng = rngFrom('jpeg-decoder-damage');
    let errors = 0;
    for (const { name, bytes } of variants) {
      const firstScan = scanStarts(bytes)[0] ?? 0;
      for (let round = 0; round < 6; round++) {
        const damaged = Buffer.from(bytes);
        for (let flips = 0; flips < 1 + round; flips++) damaged[rng.int(firstScan + 12, damaged.length - 3)] = rng.int(0, 255);
        const outcome = await expectSameDecoding(`${name} damaged ${round}`, damaged);
        if ('error' in outcome) errors++;
      }
      const cut = await expectSameDecoding(`${name} cut short`, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
      if ('error' in cut) errors++;
    }
    // The damage reaches both paths: some pictures still decode (to the same pixels), some fail (the same way).
    expect(errors).toBeGreaterThan(0);
    expect(errors).toBeLessThan(variants.length * 7);
  });

  it('decodes a progressive scan past coefficient 63 (out of the specification) as jimp does', async () => {
    const progressive = variants.find((v) => v.name === 'face-progressive-420.jpg')?.bytes as Buffer;
    const patched = Buffer.from(progressive);
    // An AC refinement scan's header: FF DA, length (2), count n, n × (id, tables), Ss, Se, Ah/Al.
    const refinement = scanStarts(patched).find((at) => {
      const count = patched[at + 4] ?? 0;
      return (patched[at + 5 + 2 * count] ?? 0) > 0 && (patched[at + 7 + 2 * count] ?? 0) >> 4 > 0;
    }) as number;
    expect(refinement).toBeGreaterThan(0);
    patched[refinement + 6 + 2 * (patched[refinement + 4] ?? 0)] = 0x50;
    // The fast decoder declines it (see jpeg-decoder.mjs) and jpeg-js decodes it.
    expect(() => decode(patched, LIMITS)).toThrow(OutOfSpecScan);
    await expectSameDecoding('Se = 80', patched);
  });

  it('stops at the same resolution and memory limits with the same message', async () => {
    const bytes = variants[0]?.bytes as Buffer;
    const ours = await ourDecode(bytes, 0.01);
    const theirs = await jimpDecode(bytes, { maxResolutionInMP: 0.01, maxMemoryUsageInMB: Math.ceil(0.01 * 4 * 1.5) + 64 });
    expect(ours).toEqual(theirs);
    expect(ours).toEqual({ error: expect.stringContaining('maxResolutionInMP limit exceeded') });
  });
});

describe('the arrays a decode leaves for the next one', () => {
  const MIB = 1024 * 1024;

  it('hand every later picture, smaller, larger or damaged, the pixels a first decode gives', async () => {
    const megapixel = await encodeImage(drawSyntheticFace('jpeg-decoder-scratch', 896, 1120), 'jpeg', { quality: 90 });
    const first = await expectSameDecoding('1 MP first', megapixel);
    expect(decodeScratchBytes()).toBeGreaterThan(12 * MIB);
    const expectFirstPixels = async (label: string) => {
      const again = await ourDecode(megapixel);
      expect(Buffer.compare((again as { data: Uint8Array }).data, (first as { data: Uint8Array }).data), label).toBe(0);
    };
    for (const { name, bytes } of variants) {
      await expectSameDecoding(`${name} after 1 MP`, bytes);
      await expectFirstPixels(`1 MP after ${name}`);
    }
    const damaged = Buffer.from(megapixel);
    damaged.fill(0x5a, Math.floor(damaged.length / 2), Math.floor(damaged.length / 2) + 40);
    await expectSameDecoding('1 MP damaged', damaged);
    await expectFirstPixels('1 MP after the damaged one');
  });

  it('stay within 15 MiB per thread whatever was decoded (a larger picture’s arrays are dropped)', async () => {
    const large = await encodeImage(drawSyntheticFace('jpeg-decoder-scratch-large', 1300, 1100), 'jpeg', { quality: 80 });
    expect('error' in (await ourDecode(large))).toBe(false);
    expect(decodeScratchBytes()).toBeLessThanOrEqual(15 * MIB);
    for (const { bytes } of variants) await ourDecode(bytes);
    expect(decodeScratchBytes()).toBeLessThanOrEqual(15 * MIB);
  });
});
