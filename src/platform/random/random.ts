/**
 * Seeded randomness. Nothing in the sandbox calls Math.random: every random-looking value is derived
 * from the sandbox seed (ids) or from a hash of the input it describes (synthetic people, scores), so
 * the same seed and the same requests give byte-identical answers.
 */
import { hash } from 'node:crypto';
import type { Faker } from '@faker-js/faker';
import { packageOnFirstUse } from '../package-on-first-use.ts';

/** A deterministic source of numbers in [0, 1) with helpers. */
export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  /** Uniform float in [min, max). */
  float(min: number, max: number): number;
  /** True with the given probability. */
  chance(probability: number): boolean;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** `count` distinct elements (or all when fewer), in random order. */
  sample<T>(items: readonly T[], count: number): T[];
  /** `length` random bytes. */
  bytes(length: number): Buffer;
}

/** SHA-256 of the parts joined with a separator that cannot occur inside them by accident. */
export function hashParts(...parts: readonly (string | number)[]): Buffer {
  return hash('sha256', joinedParts(parts), 'buffer');
}

/** `hashParts(...parts).toString('hex')`, encoded by the hash itself (no Buffer in between): request ids. */
export function hexHashParts(...parts: readonly (string | number)[]): string {
  return hash('sha256', joinedParts(parts), 'hex');
}

/**
 * The same bytes as one update per part and separator, hashed in one call (no Hash object): ids and
 * request ids are made on every request.
 */
function joinedParts(parts: readonly (string | number)[]): string {
  let text = '';
  for (const part of parts) text += `${part}\u0000`;
  return text;
}

/** sfc32: small, fast, well-distributed; state is four 32-bit words. */
function sfc32(a: number, b: number, c: number, d: number): () => number {
  return () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

function rngFromNext(next: () => number): Rng {
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    float: (min, max) => min + next() * (max - min),
    chance: (probability) => next() < probability,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick() needs a non-empty array');
      return items[Math.floor(next() * items.length)] as (typeof items)[number];
    },
    sample: (items, count) => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j] as (typeof copy)[number], copy[i] as (typeof copy)[number]];
      }
      return copy.slice(0, Math.max(0, Math.min(count, copy.length)));
    },
    bytes: (length) => {
      const out = Buffer.alloc(length);
      for (let i = 0; i < length; i++) out[i] = Math.floor(next() * 256);
      return out;
    },
  };
  return rng;
}

/** A PRNG whose whole sequence is fixed by the given parts (e.g. `rngFrom('session', id)`). */
export function rngFrom(...parts: readonly (string | number)[]): Rng {
  const digest = hashParts(...parts);
  const next = sfc32(digest.readUInt32LE(0), digest.readUInt32LE(4), digest.readUInt32LE(8), digest.readUInt32LE(12));
  for (let i = 0; i < 12; i++) next(); // warm up: the first outputs of sfc32 are weakly mixed
  return rngFromNext(next);
}

/** Formats 16 bytes as an RFC 4122 version-4 UUID (version nibble 4, variant 10xx). */
export function uuidFromBytes(bytes: Buffer): string {
  const b = Buffer.from(bytes.subarray(0, 16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** A UUID v4 fixed by the given parts: the same parts always give the same id. */
export function uuidFrom(...parts: readonly (string | number)[]): string {
  return uuidFromBytes(hashParts(...parts));
}

/** The 32-bit seed faker takes, derived from arbitrary parts. */
export function seedFrom(...parts: readonly (string | number)[]): number {
  return hashParts(...parts).readUInt32LE(0);
}

// The per-locale entry points: the package root loads all of faker's 70 locales (about 30 MB resident and
// most of a second of start-up) for the three the sandbox uses. Even these are half a megabyte of code and
// several MB resident: each loads on its first use (en_US at start-up, see `createSandbox`; the server runs
// these three from a bundle of their own, with the compiled code an earlier process kept: scripts/build.mjs).
const fakerEntries = {
  en: packageOnFirstUse<{ faker: Faker }>(import.meta.url, '@faker-js/faker/locale/en'),
  en_GB: packageOnFirstUse<{ faker: Faker }>(import.meta.url, '@faker-js/faker/locale/en_GB'),
  en_US: packageOnFirstUse<{ faker: Faker }>(import.meta.url, '@faker-js/faker/locale/en_US'),
};
export type FakerLocale = keyof typeof fakerEntries;

/**
 * One Faker per locale, made on the locale's first use (only that locale's entry point loads) and reseeded
 * for each caller: building a Faker costs about three times a reseed, and a reseeded one gives the same
 * values as a new one seeded alike (its only state is its randomizer's).
 */
const fakers = new Map<FakerLocale, Faker>();

/**
 * A faker instance whose output is fixed by the given parts. Never use the global `faker`: its state is
 * shared and unseeded. Use it at once and let it go: the next `fakerFrom` of the same locale reseeds the
 * same instance.
 */
export function fakerFrom(locale: FakerLocale, ...parts: readonly (string | number)[]): Faker {
  const faker = loadFaker(locale);
  faker.seed(seedFrom(...parts));
  return faker;
}

/** The locale's Faker, made (its entry point loaded) on the first call. */
export function loadFaker(locale: FakerLocale): Faker {
  let faker = fakers.get(locale);
  if (faker === undefined) {
    // The entry point's own instance is left unseeded and untouched: a Faker of its merged locale (the
    // class taken from it, as the entry points export none and the root would load every locale).
    const shared = fakerEntries[locale]().faker;
    faker = new (shared.constructor as typeof Faker)({ locale: shared.rawDefinitions });
    fakers.set(locale, faker);
  }
  return faker;
}
