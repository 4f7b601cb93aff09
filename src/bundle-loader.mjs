/**
 * Runs the server bundle (a CommonJS file) with V8's compiled code of an earlier start, and keeps the
 * compiled code for the next one. Node 20 keeps no compiled code of ES modules (22.1 and later have
 * `module.enableCompileCache`, for the files Node's own loaders read), and compiling the bundle is a fifth
 * of a start: a `vm.Script` takes V8's code cache, and one made after the start holds every function the
 * start compiled, not only the bundle's top level. Kept again at exit, it also holds what the requests
 * compiled (each area's routes, schemas and services are compiled on their first call): the next process's
 * first calls then skip parsing and compiling them, which is most of what a first call costs beyond a warm
 * one (docs/performance.md). A machine's first run compiles everything; every run after it reuses the code.
 *
 * The cache is only compiled code (no heap state: nothing random, secret or time-dependent is in it). It is
 * named after the bundle's text, the Node version and the process's flags; V8 itself refuses a cache of
 * another V8 or other flags. A missing, foreign or damaged cache only means the bundle compiles as before
 * and the next start finds a new one; a cache that cannot be written is not an error. Compiled code runs as
 * this process: it is read only from a folder this user owns and no one else may write to (the temporary
 * folder is shared), else the bundle compiles as before and nothing is written there.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import vm from 'node:vm';

/**
 * Files of compiled code kept at most: one per bundle (the server's, faker's, the image threads'), Node
 * version and flags, so a rebuild or an upgrade leaves old ones behind; past this many the least recently
 * written go. Room for the three of a build and an earlier build's.
 */
export const KEPT_CODE_FILES = 6;

/** Where compiled code is kept: beside Node's own compile cache if one is set, else in the temporary folder. */
export function defaultCodeCacheDir(env = process.env) {
  return join(env.NODE_COMPILE_CACHE ?? tmpdir(), 'idv-sandbox-code-cache');
}

/** The file that keeps the compiled code of the bundle `source` (its text or its bytes) run by this Node with the flags `execArgv`. */
export function codeCacheFile(source, execArgv, cacheDir = defaultCodeCacheDir()) {
  const key = createHash('sha256')
    .update(`${process.version}\0${execArgv.join(' ')}\0`)
    .update(source)
    .digest('hex')
    .slice(0, 32);
  return join(cacheDir, `${key}.bin`);
}

/**
/** Whether `folder` is this user's own, which no other user may write to (where ownership exists). */
function ownFolder(folder) {
  try {
    const stat = statSync(folder);
    return stat.isDirectory() && (process.getuid === undefined || (stat.uid === process.getuid() && (stat.mode & 0o022) === 0));
  } catch {
    return false;
  }
}

/**
 * Kept code is written again only when it grew by more than this share of what the process started from:
 * V8 compiles a function or two more or less from one run of the same requests to the next, and rewriting
 * the file for those would only cost a write.
 */
const GROWTH_WORTH_KEEPING = 1 / 64;

/**
 * Evaluates the CommonJS file `filename` as Node's loader would (exports, require, module, __filename,
 * __dirname; `import()` through the main loader) and returns its exports, whether V8 took the kept
 * compiled code, and `keepCompiledCode()`, to call once the start is done and again at exit.
 */
export function loadBundle(filename, cacheDir = defaultCodeCacheDir()) {
  // The key hashes the bytes as read (hashing the decoded text would encode it again).
  const bytes = readFileSync(filename);
  const cacheFile = codeCacheFile(bytes, process.execArgv, cacheDir);
  let cachedData;
  try {
    if (ownFolder(cacheDir)) cachedData = readFileSync(cacheFile);
  } catch {
    // no compiled code kept yet
  }
  // An ASCII file (the build makes the bundle one) is read as one-byte text: V8 would hold UTF-8 decoded text
  // with any other character at two bytes per character, and decoding it takes four times as long.
  const text = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  // On the wrapper's first line, so the bundle's lines and columns stay its own (source maps, stacks).
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${text}\n})`, {
    filename,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const cacheUsed = cachedData !== undefined && !script.cachedDataRejected;
  // The size of the code this process holds in its kept file (what it started from, or last wrote).
  let keptBytes = cacheUsed ? cachedData.length : 0;
  const module = { exports: {}, filename, id: filename, loaded: false };
  script.runInThisContext()(module.exports, createRequire(filename), module, filename, dirname(filename));
  module.loaded = true;
  return {
    exports: module.exports,
    cacheUsed,
    /**
     * Writes the compiled code of everything run so far when it holds more than the kept file this process
     * started from or last wrote (a start that found none, or requests that compiled new functions since);
     * false when not written. Synchronous, so it can run in an 'exit' listener.
     */
    keepCompiledCode() {
      const partial = `${cacheFile}.${process.pid}.partial`;
      try {
        const code = script.createCachedData();
        if (code.length <= keptBytes * (1 + GROWTH_WORTH_KEEPING)) return false;
        mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
        if (!ownFolder(cacheDir)) return false;
        writeFileSync(partial, code);
        // Whole or absent: a start reading it while another writes it finds the old file or the new one.
        renameSync(partial, cacheFile);
        keptBytes = code.length;
        forgetOldest(cacheDir);
        return true;
      } catch {
        try {
          rmSync(partial, { force: true });
        } catch {
          // the folder itself could not be made
        }
        return false;
      }
    },
  };
}

/** Removes the kept files past KEPT_CODE_FILES, least recently written first (another start may race: not an error). */
function forgetOldest(cacheDir) {
  try {
    const kept = readdirSync(cacheDir)
      .filter((name) => name.endsWith('.bin'))
      .map((name) => ({ path: join(cacheDir, name), written: statSync(join(cacheDir, name)).mtimeMs }))
      .sort((a, b) => b.written - a.written);
    for (const { path } of kept.slice(KEPT_CODE_FILES)) rmSync(path, { force: true });
  } catch {
    // another start removed one meanwhile
  }
}
