/**
 * The package as users get it: `npm run build` compiles src/ to dist/ with declarations, another project
 * that installed the package imports it in plain Node, and `npm start` runs the compiled code so SIGTERM
 * reaches the server (port freed, store flushed to the JSON file). The server entry is one bundled file that
 * loads the image codecs only when an image arrives.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { binLaunch } from '../../scripts/bin-launch.mjs';
import { codeCacheFile } from '../../src/bundle-loader.mjs';
import { temporaryDirectory } from '../helpers/temporary-directory.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

/** A process's descendants (Linux /proc), e.g. the node that `npm start` runs. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent pid is the second field after the parenthesized command name.
      parents.set(Number(entry), Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]));
    } catch {
      // The process ended while the list was read.
    }
  }
  const isDescendant = (candidate: number): boolean => {
    const parent = parents.get(candidate);
    return parent === pid || (parent !== undefined && parent > 1 && isDescendant(parent));
  };
  return [...parents.keys()].filter(isDescendant);
}

const commandLine = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');

/** Spawns a server command and resolves once it printed the address it listens on (killed after the test). */
async function startServer(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGTERM');
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`${[command, ...args].join(' ')} exited with ${code}:\n${output}`)));
  });
  return { child, url, output: () => output, exited };
}

/** Signals a server started with a `--require` script that answers SIGUSR2 with a `<label> <JSON>` line, and resolves with the JSON. */
function answerToSignal<T>({ child, output }: Awaited<ReturnType<typeof startServer>>, label: string): Promise<T> {
  return new Promise<T>((resolve) => {
    const from = output().length;
    child.stderr.on('data', function printed() {
      const line = new RegExp(`^${label} (.*)$`, 'm').exec(output().slice(from));
      if (!line?.[1]) return;
      child.stderr.off('data', printed);
      resolve(JSON.parse(line[1]) as T);
    });
    child.kill('SIGUSR2');
  });
}

/** Sends `request` as written on a new connection and resolves with everything the server answered. */
async function rawRequest(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let answer = '';
  socket.on('data', (chunk) => (answer += String(chunk)));
  socket.write(request);
  await new Promise((resolve) => socket.once('close', resolve));
  return answer;
}

describe('the compiled package', () => {
  beforeAll(() => {
    execFileSync(NPM, ['run', 'build'], { cwd: ROOT, stdio: 'pipe' });
  }, 300_000);

  it('builds JavaScript with type declarations that the package exports point at', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const entry = manifest.exports['.'];
    expect(existsSync(join(ROOT, entry.import))).toBe(true);
    expect(existsSync(join(ROOT, entry.types))).toBe(true);
    expect(readFileSync(join(ROOT, entry.types), 'utf8')).toContain('createSandbox');
    // The image codecs are a JavaScript source, required on first decode: it must sit beside the compiled code.
    expect(existsSync(join(ROOT, 'dist/images/codecs.cjs'))).toBe(true);
    expect(readFileSync(join(ROOT, manifest.bin['idv-sandbox']), 'utf8')).toContain('../dist/server.cjs');
  });

  it('imports in plain Node from another project that installed it', () => {
    const project = temporaryDirectory('idv-sandbox-consumer-');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    execFileSync(NPM, ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', ROOT], { cwd: project, stdio: 'pipe' });
    const script = `
      const { createSandbox } = await import('idv-sandbox');
      const sandbox = await createSandbox({ port: null, memory: true, seed: 7 });
      const response = await sandbox.app.request('/healthz');
      console.log(JSON.stringify({ status: response.status, body: await response.json() }));
      await sandbox.close();`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' });
    expect(JSON.parse(output.trim().split('\n').at(-1) ?? '')).toEqual({ status: 200, body: { status: 'ok' } });
  }, 300_000);

  it('requires in plain Node (CommonJS) from another project, the image codecs included', () => {
    const project = temporaryDirectory('idv-sandbox-consumer-');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
    execFileSync(NPM, ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', ROOT], { cwd: project, stdio: 'pipe' });
    const script = `
      const { readFileSync } = require('node:fs');
      const { createSandbox } = require('idv-sandbox');
      const image = (name) => readFileSync(${JSON.stringify(join(ROOT, 'fixtures/images'))} + '/' + name).toString('base64');
      (async () => {
        const sandbox = await createSandbox({ port: null, memory: true, seed: 7, logger: { info() {}, warn() {}, error() {} } });
        const headers = { 'x-api-key': 'sk_live_demo', 'content-type': 'application/json' };
        const session = await sandbox.app.request('/v1/sessions', { method: 'POST', headers, body: JSON.stringify({ email: 'jane.doe@example.com', first_name: 'Jane', last_name: 'Doe' }) });
        const compared = await sandbox.app.request('/v1/face/compare', { method: 'POST', headers, body: JSON.stringify({ source: image('face.jpg'), target: image('face-cropped.jpg') }) });
        console.log(JSON.stringify({ session: session.status, compared: compared.status, entry: require.resolve('idv-sandbox') }));
        await sandbox.close({ report: false });
      })();`;
    const output = execFileSync(process.execPath, ['-e', script], { cwd: project, encoding: 'utf8' });
    const answer = JSON.parse(output.trim().split('\n').at(-1) ?? '');
    expect(answer).toEqual({ session: 200, compared: 200, entry: expect.stringMatching(/dist\/index\.cjs$/) });
  }, 300_000);

  it('stops `npm start` on SIGTERM: the port is freed and the data file holds the last write', async () => {
    const data = join(temporaryDirectory('idv-sandbox-start-'), 'sandbox.json');
    const { child, url, output, exited } = await startServer(NPM, ['start', '--', '--port', '0', '--data', data]);
    if (existsSync('/proc/self/stat')) {
      // `npm start` runs the bin, whose first line gives node its flags and environment (the Docker image runs it too).
      const { nodeFlags: flags, env } = binLaunch();
      expect(flags).toContain('--max-semi-space-size=4');
      expect(flags).toContain('--heap-growing-percent=100');
      expect(flags).toContain('--no-concurrent-marking');
      expect(env).toEqual({ MALLOC_MMAP_THRESHOLD_: '131072' });
      const servers = descendants(child.pid ?? 0).filter((pid) => commandLine(pid).includes('bin/idv-sandbox.js'));
      expect(servers.map(commandLine)).toEqual([expect.stringContaining(`node ${flags.join(' ')} `)]);
      expect(readFileSync(`/proc/${servers[0]}/environ`, 'utf8').split('\0')).toContain('MALLOC_MMAP_THRESHOLD_=131072');
    }

    const write = await fetch(`${url}/__sandbox/organizations/org_demo/balance`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ balance: 4321 }),
    });
    expect(write.status).toBe(200);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output()).toContain('SIGTERM received');
    expect(await portIsFree(Number(new URL(url).port))).toBe(true);
    const snapshot = readFileSync(data, 'utf8');
    expect(snapshot).toMatch(/"balance":\s*4321/);
  }, 120_000);

  it("starts the bundle with the compiled code of the previous start, kept in NODE_COMPILE_CACHE's folder", async () => {
    const env = { ...process.env, NODE_COMPILE_CACHE: temporaryDirectory('idv-sandbox-compile-cache-') };
    const cacheDir = join(env.NODE_COMPILE_CACHE, 'idv-sandbox-code-cache');
    const flags = binLaunch().nodeFlags;
    const face = readFileSync(join(ROOT, 'fixtures/images/face.jpg')).toString('base64');
    // The server bundle's compiled code, faker's (its en_US, which every start loads) and the image threads'
    // (a thread has the process's flags).
    const [serverKept, fakerKept, imageThreadKept] = ['dist/server.cjs', 'dist/faker-locales.cjs', 'dist/image-worker.cjs'].map((bundle) =>
      codeCacheFile(readFileSync(join(ROOT, bundle)), flags, cacheDir),
    );
    const keptSize = () => statSync(serverKept as string).size;
    const startAndStop = async () => {
      const { child, url, exited } = await startServer(process.execPath, [...flags, 'bin/idv-sandbox.js', '--port', '0', '--memory'], env);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const atStart = keptSize();
      // The image codecs load on the first image, from kept compiled code too (where Node refuses import()).
      const detected = await fetch(`${url}/v1/face/detect`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'sk_live_demo' },
        body: JSON.stringify({ image: face }),
      });
      expect(detected.status, await detected.clone().text()).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      return { atStart, atExit: keptSize() };
    };

    const firstRun = await startAndStop();
    const keptFiles = [serverKept, fakerKept, imageThreadKept].map((file) => basename(file as string)).sort();
    expect(readdirSync(cacheDir).sort()).toEqual(keptFiles);
    const imageThreadFirst = statSync(imageThreadKept as string);
    // The first image thread kept what it compiled (the decoder, sharp's JavaScript and the face analysis).
    expect(imageThreadFirst.size).toBeGreaterThan(50_000);
    expect(firstRun.atStart).toBeGreaterThan(100_000);
    // At exit the server kept the code its requests compiled as well (the routes, the face area, the decoder's client).
    expect(firstRun.atExit).toBeGreaterThan(firstRun.atStart);
    const first = statSync(serverKept as string);
    // V8 took it (same bundle, Node and flags): the second run has nothing new to write, at its start or its exit.
    await startAndStop();
    expect(readdirSync(cacheDir).sort()).toEqual(keptFiles);
    expect(statSync(serverKept as string)).toMatchObject({ ino: first.ino, mtimeMs: first.mtimeMs });
    // Nor has the second run's image thread, which started from it.
    expect(statSync(imageThreadKept as string)).toMatchObject({ ino: imageThreadFirst.ino, mtimeMs: imageThreadFirst.mtimeMs });
  }, 120_000);

  /** Starts the bin with a module hook that prints every file the process (and its worker threads) loads as a module. */
  async function startPrintingLoads(args: string[]) {
    const hook = join(temporaryDirectory('idv-sandbox-bundle-'), 'print-loads.mjs');
    const printLoads =
      "export async function load(url, context, next) { if (url.startsWith('file:')) process.stderr.write('loaded ' + url + '\\n'); return next(url, context); }";
    // require() passes no module hook on Node 20: Module._load is wrapped to print what it loads from a file too.
    const printRequires =
      "const load = Module._load; Module._load = function (request, parent, isMain) { const exports = load.apply(this, arguments); if (!Module.isBuiltin(request)) process.stderr.write('loaded ' + pathToFileURL(Module._resolveFilename(request, parent, isMain)).href + '\\n'); return exports; };";
    writeFileSync(
      hook,
      `import Module, { register } from 'node:module';\nimport { pathToFileURL } from 'node:url';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(printLoads)}`)});\n${printRequires}\n`,
    );
    const { url, output } = await startServer(process.execPath, [
      '--import',
      pathToFileURL(hook).href,
      'bin/idv-sandbox.js',
      '--port',
      '0',
      '--memory',
      ...args,
    ]);
    const loaded = () => [...new Set([...output().matchAll(/^loaded (\S+)$/gm)].map((match) => fileURLToPath(match[1] as string).slice(ROOT.length)))];
    return { url, loaded };
  }

  it('starts the server from the one bundled file and loads the image codecs on the first image only', async () => {
    const { url, loaded } = await startPrintingLoads([]);

    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    // The bin and its loader (CommonJS, which reads and runs the bundle itself): no other module.
    expect(new Set(loaded())).toEqual(new Set(['bin/idv-sandbox.js', 'dist/bundle-loader.cjs']));
    // Nor did the bundle take the codecs in (esbuild marks each bundled file with its path).
    expect(readFileSync(join(ROOT, 'dist/server.cjs'), 'utf8')).not.toMatch(/node_modules\/(jimp|@jimp|@jsquash)\//);

    const image = (name: string) => readFileSync(join(ROOT, 'fixtures/images', name)).toString('base64');
    const compared = await fetch(`${url}/v1/face/compare`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sk_live_demo' },
      body: JSON.stringify({ source: image('face.jpg'), target: image('face-cropped.jpg') }),
    });
    expect(compared.status).toBe(200);
    expect(await compared.json()).toMatchObject({ isMatch: true, sourceFaceDetected: true, targetFaceDetected: true });
    // The image pool from node_modules; in its threads the task file, which runs the task bundle (the task
    // module, the codecs and sharp's JavaScript) through the loader, and sharp's native binding; jimp waits for a BMP.
    expect(loaded()).toEqual(expect.arrayContaining(['node_modules/piscina/dist/main.js', 'dist/images/image-thread.cjs', 'dist/bundle-loader.cjs']));
    expect(loaded().filter((file) => /^node_modules\/@img\/sharp-[^/]+\/.*\.node$/.test(file))).toHaveLength(1);
    expect(loaded().filter((file) => file.startsWith('node_modules/sharp/') || file.startsWith('dist/images/'))).toEqual(['dist/images/image-thread.cjs']);
    expect(loaded()).not.toContain('node_modules/jimp/dist/commonjs/index.js');
  }, 120_000);

  it('starts, answers reads and reads a JSON body without undici or http2, and loads undici for the first body of undeclared length', async () => {
    // On SIGUSR2 the server prints the built-in modules it has loaded so far.
    const report = join(temporaryDirectory('idv-sandbox-builtins-'), 'report-builtins.cjs');
    writeFileSync(report, "process.on('SIGUSR2', () => process.stderr.write('builtins ' + JSON.stringify(process.moduleLoadList) + '\\n'));");
    // As `npm start` runs it (rate limits on), without the test run's strict responses, which read headers
    // through undici's Headers.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('IDV_SANDBOX_')));
    const args = ['--require', report, 'bin/idv-sandbox.js', '--port', '0', '--memory'];
    const server = await startServer(process.execPath, args, env);
    const { url } = server;
    const loadedBuiltins = () => answerToSignal<string[]>(server, 'builtins');
    const UNDICI = 'NativeModule internal/deps/undici/undici';

    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const read = await fetch(`${url}/v1/sessions/test_verified`, { method: 'GET', headers: { 'x-api-key': 'sk_test_demo' } });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ session_record: { id: 'test_verified' } });
    // The key's rate-limit headers are on the answer, beside the request id.
    expect([read.headers.get('x-ratelimit-limit'), read.headers.get('x-ratelimit-remaining'), read.headers.get('x-request-id')]).toEqual([
      '35',
      '34',
      expect.stringMatching(/^req_/),
    ]);
    const atStart = await loadedBuiltins();
    expect(atStart).toContain('NativeModule http');
    expect(atStart).not.toContain(UNDICI);
    expect(atStart).not.toContain('NativeModule http2');
    // The bin and its loader are CommonJS: a start sets up none of Node's ES module loading (an ES module bin
    // made it load and link its loader as modules, some 25 ms of CPU).
    expect(atStart).not.toContain('NativeModule internal/modules/esm/module_job');

    // A JSON body of declared length is read off the socket, and its content type (which the validator and
    // the media type gate read through Hono) off the header lines, in any case, repeated or not: no undici.
    const create = (headers: Record<string, string>, body: string | ReadableStream) =>
      fetch(`${url}/v1/sessions`, { method: 'POST', headers: { 'x-api-key': 'sk_live_demo', ...headers }, body, duplex: 'half' } as RequestInit);
    const jane = JSON.stringify({ firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com' });
    const created = await create({ 'CONTENT-TYPE': 'application/json; charset=utf-8' }, jane);
    expect(created.status).toBe(200);
    expect(await created.json()).toMatchObject({ id: expect.any(String), session_url: expect.stringContaining('/verify/') });
    // Two header lines (fetch would join them into one): their values joined, as Headers gives them.
    const twice = await rawRequest(
      url,
      `POST /v1/sessions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nx-api-key: sk_live_demo\r\nContent-Type: application/json\r\ncontent-type:\tapplication/json\t\r\ncontent-length: ${jane.length}\r\n\r\n${jane}`,
    );
    expect(twice).toMatch(/^HTTP\/1\.1 415 /);
    expect(twice).toContain('{"error":"Unsupported Content-Type \\"application/json, application/json\\": send the body as application/json."}');
    // An upload's bytes and an image route's JSON, of declared length, are read off the socket when their
    // handler asks for them: no undici either.
    const photo = readFileSync(join(ROOT, 'fixtures/images/face.jpg'));
    const presign = await fetch(`${url}/v1/upload/presign`, {
      method: 'POST',
      headers: { 'x-api-key': 'sk_live_demo', 'content-type': 'application/json' },
      body: JSON.stringify({ files: [{ contentType: 'image/jpeg', byteLength: photo.length }] }),
    });
    expect(presign.status).toBe(200);
    const { uploads } = (await presign.json()) as { uploads: { uploadUrl: string }[] };
    const uploaded = await fetch(uploads[0]?.uploadUrl ?? '', { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: photo });
    expect(uploaded.status).toBe(200);
    expect(await uploaded.json()).toMatchObject({ byteLength: photo.length, contentType: 'image/jpeg' });
    const detected = await fetch(`${url}/v1/face/detect`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sk_live_demo' },
      body: JSON.stringify({ image: photo.toString('base64') }),
    });
    expect(detected.status).toBe(200);
    // Nor do a route's declared header parameters (Hono's validator reads them all), nor a request with no body.
    const screened = await fetch(`${url}/v1/screening/adverse-media`, {
      method: 'POST',
      headers: { 'x-api-key': 'sk_live_demo', 'content-type': 'application/json', 'Idempotency-Key': 'package-test-1' },
      body: JSON.stringify({ firstName: 'Jane', lastName: 'Doe', dateOfBirth: '1980-04-23', country: 'GB' }),
    });
    expect(screened.status).toBe(202);
    const { jobId } = (await screened.json()) as { jobId: string };
    const replayed = await fetch(`${url}/v1/screening/adverse-media`, {
      method: 'POST',
      headers: { 'x-api-key': 'sk_live_demo', 'content-type': 'application/json', 'idempotency-key': 'package-test-1' },
      body: JSON.stringify({ firstName: 'Jane', lastName: 'Doe', dateOfBirth: '1980-04-23', country: 'GB' }),
    });
    // The key was read (under the name in either case): the same job again.
    expect(replayed.status).toBe(200);
    expect(await replayed.json()).toMatchObject({ jobId, message: expect.stringMatching(/^Existing job returned/) });
    expect((await fetch(`${url}/__sandbox/requests`, { method: 'DELETE' })).status).toBe(200);
    expect(await loadedBuiltins()).not.toContain(UNDICI);
    // A body of undeclared length is read through a real Request (undici), made on this first need.
    const chunked = await create({ 'content-type': 'application/json' }, new Blob([jane]).stream());
    expect(chunked.status).toBe(200);
    expect(await loadedBuiltins()).toContain(UNDICI);
    expect((await create({ 'content-type': 'text/plain' }, jane)).status).toBe(415);
  }, 120_000);

  it('builds the bundle in ASCII, which the loader holds as one-byte text, and its pages keep their characters', async () => {
    // V8 holds a source text with any character beyond ASCII at two bytes per character.
    const bundle = readFileSync(join(ROOT, 'dist/server.cjs'));
    expect(bundle.findIndex((byte) => byte > 0x7f)).toBe(-1);
    const { url } = await startServer(process.execPath, ['bin/idv-sandbox.js', '--port', '0', '--memory']);
    const page = await (await fetch(`${url}/console`)).text();
    expect(page).toContain('— idv-sandbox console</title>');
  }, 120_000);

  it("bundles faker's three locale entry points on their own: en_US run by a start, before its first answer, en_GB on first use", async () => {
    // The faker bundle's functions as V8 counts their calls: esbuild names each bundled file's evaluation after its path.
    const report = join(temporaryDirectory('idv-sandbox-coverage-'), 'report-faker.cjs');
    writeFileSync(
      report,
      `const session = new (require('node:inspector').Session)();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
const evaluated = new Set();
process.on('SIGUSR2', () => session.post('Profiler.takePreciseCoverage', (error, { result }) => {
  for (const { functionName, ranges } of result.find((script) => script.url.endsWith('faker-locales.cjs'))?.functions ?? [])
    if (functionName.startsWith('node_modules/@faker-js/') && ranges[0].count > 0) evaluated.add(functionName);
  process.stderr.write('faker ' + JSON.stringify([...evaluated].sort()) + '\\n');
}));`,
    );
    const fakerBundle = readFileSync(join(ROOT, 'dist/faker-locales.cjs'), 'utf8');
    expect([...fakerBundle.matchAll(/^\/\/ node_modules\/@faker-js\/faker\/dist\/locale\/(\w+)\.js$/gm)].map((match) => match[1])).toEqual([
      'en',
      'en_GB',
      'en_US',
    ]);
    // Not in the server bundle, whose kept code every start reads.
    expect(readFileSync(join(ROOT, 'dist/server.cjs'), 'utf8')).not.toMatch(/node_modules\/@faker-js\//);
    const env = { ...process.env, NODE_COMPILE_CACHE: temporaryDirectory('idv-sandbox-compile-cache-') };
    const server = await startServer(process.execPath, ['--require', report, 'bin/idv-sandbox.js', '--port', '0', '--memory'], env);
    const { url } = server;
    const fakerEvaluated = () => answerToSignal<string[]>(server, 'faker');

    // A create's sender user is a synthetic person of en_US (which needs all of en): loaded before the first
    // answer, so an integrator's first create does not pay for it.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const atStart = await fakerEvaluated();
    expect(atStart).toEqual(expect.arrayContaining(['node_modules/@faker-js/faker/dist/locale/en_US.js']));
    expect(atStart).not.toContain('node_modules/@faker-js/faker/dist/locale/en_GB.js');
    const created = await fetch(`${url}/v1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sk_live_demo' },
      body: JSON.stringify({ firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com' }),
    });
    expect(created.status).toBe(200);
    expect(await fakerEvaluated()).toEqual(atStart);

    // At exit the process keeps the faker bundle's compiled code, which the next one's first synthetic person runs from.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const kept = codeCacheFile(Buffer.from(fakerBundle), ['--require', report], join(env.NODE_COMPILE_CACHE, 'idv-sandbox-code-cache'));
    expect(statSync(kept).size).toBeGreaterThan(100_000);
  }, 120_000);

  it('leaves nodemailer and libphonenumber out of the bundle and loads each from node_modules on first use', async () => {
    // Bundled, they would be compiled at every start, and nodemailer's imports of tls, https, dns and
    // child_process would load with it.
    expect(readFileSync(join(ROOT, 'dist/server.cjs'), 'utf8')).not.toMatch(/node_modules\/(nodemailer|libphonenumber-js)\//);
    const { url, loaded } = await startPrintingLoads(['--smtp', 'smtp://127.0.0.1:25']);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    // The module hooks print from their own thread on Node 20, so the bin and its loader may be told in either order.
    expect(new Set(loaded().slice(0, 3))).toEqual(new Set(['bin/idv-sandbox.js', 'dist/bundle-loader.cjs', 'node_modules/nodemailer/dist/esm/nodemailer.js']));

    // A fixture session's synthetic person (faker, from the bundle) and a phone check (libphonenumber) answer
    // from the built server.
    const session = await fetch(`${url}/v1/sessions/test_verified`, { headers: { 'x-api-key': 'sk_test_demo' } });
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({ session_record: { id: 'test_verified', status: 'VERIFIED' } });
    const phone = await fetch(`${url}/v1/screening/phone-ownership`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sk_live_demo' },
      body: JSON.stringify({ phone: '+14155550123', firstName: 'Jane', lastName: 'Doe' }),
    });
    expect(phone.status).toBe(200);
    // libphonenumber placed the number in the US, where the sandbox has no carrier data.
    expect(await phone.json()).toMatchObject({ outcome: 'NO_DATA', statusMessage: expect.stringContaining('US and Canadian') });
  }, 120_000);
});
