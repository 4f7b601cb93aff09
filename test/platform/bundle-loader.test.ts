import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultCodeCacheDir, KEPT_CODE_FILES } from '../../src/bundle-loader.mjs';
import { temporaryDirectory } from '../helpers/temporary-directory.ts';

const LOADER = pathToFileURL(new URL('../../src/bundle-loader.mjs', import.meta.url).pathname).href;

/** A CommonJS "bundle" in a fresh folder, and the folder its compiled code is kept in. */
function bundleOf(source: string) {
  const folder = temporaryDirectory('idv-sandbox-bundle-loader-');
  const file = join(folder, 'server.cjs');
  writeFileSync(file, source);
  return { folder, file, cacheDir: join(folder, 'code-cache') };
}

interface Start {
  cacheUsed: boolean;
  exports: Record<string, unknown>;
  kept: boolean;
}

/**
 * Loads the bundle in a fresh Node process, as the bin does (V8 also keeps compiled code within one
 * process, which would hide what the kept file does), awaits its `later` export if any, then keeps its code;
 * with `serve`, calls the bundle's `serve` export after that and keeps its code again (as the bin does at exit).
 */
function start(file: string, cacheDir: string, options: { serve?: boolean } = {}): Start & { keptAfterServing?: boolean } {
  const script = `
    import { loadBundle } from ${JSON.stringify(LOADER)};
    const loaded = loadBundle(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)});
    const exports = { ...loaded.exports };
    if (typeof exports.later === 'function') exports.later = { ...(await exports.later()) };
    const started = { cacheUsed: loaded.cacheUsed, exports, kept: loaded.keepCompiledCode() };
    if (process.env.SERVE === 'yes') started.keptAfterServing = (loaded.exports.serve(), loaded.keepCompiledCode());
    console.log(JSON.stringify(started));`;
  // The script's text is the same either way: it is among the flags that name the kept file.
  const env = { ...process.env, SERVE: options.serve === true ? 'yes' : 'no' };
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env }));
}

const keptFiles = (cacheDir: string) => readdirSync(cacheDir);

describe('loadBundle (the bin runs the server bundle with the compiled code of an earlier start)', () => {
  it('runs a CommonJS file with its own require, module, __filename and __dirname', () => {
    const { folder, file, cacheDir } = bundleOf(
      "const { join } = require('node:path'); module.exports = { where: join(__dirname, 'x'), file: __filename, same: exports === module.exports };",
    );
    expect(start(file, cacheDir).exports).toEqual({ where: join(folder, 'x'), file, same: true });
  });

  it('reads a file with characters beyond ASCII as UTF-8, and an ASCII one (as the build makes the bundle) as the same text', () => {
    const utf8 = bundleOf("module.exports = { text: 'Older → · — ß' };");
    const ascii = bundleOf("module.exports = { text: 'Older \\u2192 \\u00b7 \\u2014 \\u00df' };");
    expect(start(utf8.file, utf8.cacheDir).exports).toEqual({ text: 'Older → · — ß' });
    expect(start(ascii.file, ascii.cacheDir).exports).toEqual({ text: 'Older → · — ß' });
  });

  it('keeps the compiled code after the first start, and the next start takes it without writing it again', () => {
    const { file, cacheDir } = bundleOf('function answer() { return 42; } module.exports = { answer: answer() };');
    expect(start(file, cacheDir)).toEqual({ cacheUsed: false, exports: { answer: 42 }, kept: true });
    const [kept] = keptFiles(cacheDir);
    const bytes = readFileSync(join(cacheDir, kept as string));

    expect(start(file, cacheDir)).toEqual({ cacheUsed: true, exports: { answer: 42 }, kept: false });
    expect(keptFiles(cacheDir)).toEqual([kept]);
    expect(readFileSync(join(cacheDir, kept as string)).equals(bytes)).toBe(true);
  });

  it('keeps again the code that calls after the start compiled, and only when there is more of it', () => {
    // Functions first run after the start, as an area's on its first request: V8 compiles them then.
    const handlers = Array.from(
      { length: 40 },
      (_, n) => `function handler${n}(x) { const parts = []; for (let i = 0; i < x; i += 1) parts.push(i * ${n}); return parts.join(','); }`,
    );
    const { file, cacheDir } = bundleOf(`${handlers.join('\n')}\nmodule.exports = { serve: () => [${handlers.map((_, n) => `handler${n}(3)`).join(', ')}] };`);
    const size = () => statSync(join(cacheDir, keptFiles(cacheDir)[0] as string)).size;

    expect(start(file, cacheDir)).toMatchObject({ cacheUsed: false, kept: true });
    const atStart = size();
    // From the start's code, serving compiles the handlers: kept.
    expect(start(file, cacheDir, { serve: true })).toMatchObject({ cacheUsed: true, kept: false, keptAfterServing: true });
    const afterServing = size();
    expect(afterServing).toBeGreaterThan(atStart);
    // From the served code, the same calls compile nothing new: the file stays as it is.
    const written = statSync(join(cacheDir, keptFiles(cacheDir)[0] as string)).mtimeMs;
    expect(start(file, cacheDir, { serve: true })).toMatchObject({ cacheUsed: true, kept: false, keptAfterServing: false });
    expect(statSync(join(cacheDir, keptFiles(cacheDir)[0] as string)).mtimeMs).toBe(written);
    // A start that serves nothing never writes code smaller than the kept one.
    expect(start(file, cacheDir)).toMatchObject({ cacheUsed: true, kept: false });
    expect(size()).toBe(afterServing);
  });

  it('never runs the compiled code of another text of the same length (V8 itself checks only the length)', () => {
    const { file, cacheDir } = bundleOf('module.exports = { value: 1 };');
    start(file, cacheDir);
    writeFileSync(file, 'module.exports = { value: 2 };');
    expect(start(file, cacheDir)).toEqual({ cacheUsed: false, exports: { value: 2 }, kept: true });
  });

  it('compiles as before when the kept code is damaged, and keeps sound code in its place', () => {
    const { file, cacheDir } = bundleOf('module.exports = { value: 3 };');
    start(file, cacheDir);
    writeFileSync(join(cacheDir, keptFiles(cacheDir)[0] as string), 'not compiled code');

    expect(start(file, cacheDir)).toEqual({ cacheUsed: false, exports: { value: 3 }, kept: true });
    expect(start(file, cacheDir).cacheUsed).toBe(true);
  });

  it('starts, and says the code was not kept, when the cache folder cannot be made', () => {
    const { folder, file } = bundleOf('module.exports = { value: 4 };');
    expect(start(file, join(folder, 'server.cjs', 'code-cache'))).toEqual({ cacheUsed: false, exports: { value: 4 }, kept: false });
    expect(readdirSync(folder)).toEqual(['server.cjs']);
  });

  it('neither takes nor writes compiled code in a folder that other users may write to', () => {
    const { file, cacheDir } = bundleOf('module.exports = { value: 5 };');
    start(file, cacheDir);
    const [kept] = keptFiles(cacheDir);
    chmodSync(cacheDir, 0o777);

    expect(start(file, cacheDir)).toEqual({ cacheUsed: false, exports: { value: 5 }, kept: false });
    rmSync(join(cacheDir, kept as string));
    expect(start(file, cacheDir).kept).toBe(false);
    expect(keptFiles(cacheDir)).toEqual([]);
  });

  it('keeps the newest files of compiled code only, so rebuilds and upgrades do not fill the folder', () => {
    const { file, cacheDir } = bundleOf('module.exports = { value: 6 };');
    start(file, cacheDir);
    const [current] = keptFiles(cacheDir);
    // Older builds' files, written a day apart, the oldest first.
    const older = Array.from({ length: KEPT_CODE_FILES + 1 }, (_, n) => `older-${n}.bin`);
    older.forEach((name, n) => {
      writeFileSync(join(cacheDir, name), 'old compiled code');
      const written = new Date(Date.UTC(2026, 0, 1 + n));
      utimesSync(join(cacheDir, name), written, written);
    });
    rmSync(join(cacheDir, current as string));

    start(file, cacheDir);
    expect(keptFiles(cacheDir).sort()).toEqual([current, ...older.slice(-(KEPT_CODE_FILES - 1))].sort());
  });

  it("imports ES modules from the bundle's folder on first use (the image codecs, nodemailer)", () => {
    const { folder, file, cacheDir } = bundleOf("module.exports = { later: () => import('./later.mjs') };");
    writeFileSync(join(folder, 'later.mjs'), 'export const loaded = true;');
    expect(start(file, cacheDir).exports).toEqual({ later: { loaded: true } });
  });

  it("keeps compiled code beside Node's own compile cache when NODE_COMPILE_CACHE names one", () => {
    expect(defaultCodeCacheDir({ NODE_COMPILE_CACHE: '/var/cache/node' })).toBe(join('/var/cache/node', 'idv-sandbox-code-cache'));
  });
});
