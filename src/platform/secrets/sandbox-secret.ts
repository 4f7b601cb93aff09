/**
 * The sandbox's one private secret: it signs presigned upload URLs and derives hosted-page tokens. It is
 * random, never derived from the seed (the seed is public: the README prints the default), so nobody can
 * forge a link without being handed one.
 *
 * With a data file it is created once, in `<data file>.secret` (mode 0600), and read back on every start:
 * links handed out before a restart keep working. With `--memory` it lives as long as the process.
 * `--secret` / IDV_SANDBOX_SECRET pins it, for runs that must be byte-identical, signatures included.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, openSync, readFileSync, writeSync, closeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Where the secret of a data file is kept. */
export const secretFileOf = (dataFile: string): string => `${dataFile}.secret`;

/** A pinned secret must be long enough not to be guessed. */
export const MIN_PINNED_SECRET_LENGTH = 16;

const SECRET_TEXT = /^[0-9a-f]{64}$/;

function newSecret(): string {
  return randomBytes(32).toString('hex');
}

/** The pinned secret, else the data file's (created on first use), else a new one for this process. */
export function loadSandboxSecret(options: { pinned?: string; dataFile?: string }): string {
  if (options.pinned !== undefined) {
    if (options.pinned.length < MIN_PINNED_SECRET_LENGTH) {
      throw new Error(`The pinned secret (--secret or IDV_SANDBOX_SECRET) must be at least ${MIN_PINNED_SECRET_LENGTH} characters long.`);
    }
    return options.pinned;
  }
  if (options.dataFile === undefined) return newSecret();
  const file = secretFileOf(options.dataFile);
  mkdirSync(dirname(file), { recursive: true });
  try {
    // `wx`: two processes starting at once never both write; the loser reads the winner's secret.
    const fd = openSync(file, 'wx', 0o600);
    const secret = newSecret();
    try {
      writeSync(fd, `${secret}\n`);
    } finally {
      closeSync(fd);
    }
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stored = readFileSync(file, 'utf8').trim();
  if (!SECRET_TEXT.test(stored)) {
    throw new Error(`${file} does not hold a sandbox secret (64 hex digits): delete it to have a new one made (links handed out before stop working).`);
  }
  // Whoever copied the directory may have widened it: the secret stays readable by its owner only.
  chmodSync(file, 0o600);
  return stored;
}
