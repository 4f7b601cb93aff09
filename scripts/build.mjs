// `npm run build` (and `prepare`, so `npm install` builds): compiles src/ into dist/ with type
// declarations, copies the hand-written JavaScript modules of src/ (and their declarations) as they are,
// then bundles the server entry (src/server-entry.ts, what `npm start`, the bin and the Docker image run)
// into the single file dist/server.cjs, so start-up reads one file instead of resolving hundreds of modules.
// The bundle is CommonJS so that the bin can run it with V8's compiled code of an earlier start
// (src/bundle-loader.mjs): Node 20 keeps no compiled code of ES modules. The per-file modules stay for the
// package's `exports` (the programmatic API) and the image codecs (src/images/codecs.cjs, required on first use).
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import { binLaunch } from './bin-launch.mjs';

const SERVER_BUNDLE = 'dist/server.cjs';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
cpSync('src', 'dist', { recursive: true, filter: (path) => !path.endsWith('.ts') || path.endsWith('.d.mts') });

const source = resolve('src');
const bundleDir = dirname(resolve(SERVER_BUNDLE));
/** Where a source file's compiled module sits in dist/, relative to the bundle. */
const compiledPath = (path) => relative(bundleDir, resolve('dist', relative(source, path))).replace(/\.ts$/, '.js');

// A source file finds its fixtures, its worker and its packages relative to `import.meta.url`; inside a
// bundle every file would share the bundle's URL, so each gets the URL its compiled module has in dist/.
// `rewrite(text, path)` changes a source file's text further, for one bundle.
const importMetaUrlPerFile = (rewrite = (text) => text) => ({
  name: 'import-meta-url-per-file',
  setup(bundler) {
    bundler.onLoad({ filter: /\.(ts|mjs)$/ }, async ({ path }) => {
      if (!path.startsWith(source)) return undefined;
      const text = rewrite(await readFile(path, 'utf8'), path);
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(compiledPath(path))}, import.meta.url).href`),
        loader: path.endsWith('.ts') ? 'ts' : 'js',
      };
    });
  },
});

// A package imported on first use only (nodemailer, with --smtp) stays out of the bundle and is loaded from
// node_modules then: bundled, its static imports of Node's built-ins (tls, https, dns, …) would be hoisted
// to the bundle's top and loaded by every start.
const packagesOnFirstUse = {
  name: 'packages-on-first-use',
  setup(bundler) {
    bundler.onResolve({ filter: /^[^./]/ }, ({ path, kind }) => (kind === 'dynamic-import' ? { path, external: true } : undefined));
  },
};

// @hono/node-server reads the platform's Request and Response classes when it is imported, and tests every
// request against http2's request class: on Node 20 the first read of `Request` loads undici
// (and with it zlib, worker_threads, web streams, perf_hooks) and compiles its HTTP parser, and http2 brings
// tls and the rest of crypto; some 40-60 ms of every start, though most requests never need a real Request
// (the lightweight request and response stand in for them; the request context reads the socket's headers).
// In the bundle, these reads happen on first need instead: the adapter's Request subclass is made, and its
// lightweight objects linked to the platform's classes, when anything first reads the global Request,
// builds a real Request or Response, or calls Response.json / redirect / error; a request is an http2 one
// only if it is not node:http's, so http2 is loaded only for one. (Until that first need, a lightweight
// response is an instance of the global Response, the adapter's, but not yet of undici's own class.)
// A plain record of headers is not a Headers object, so writing a response answered with one needs no
// Headers class either. Each rewrite must match exactly as many times as written here, or the build stops
// (a new version of the adapter is checked again, never rewritten blindly).
const ADAPTER = /[\\/]@hono[\\/]node-server[\\/]dist[\\/]index\.mjs$/;
const adapterRewrites = [
  ['Object.setPrototypeOf(requestPrototype, Request.prototype);\n', '', 1],
  [/import \{ Http2ServerRequest as Http2ServerRequest2, constants as h2constants \} from "http2";\n|import \{ Http2ServerRequest \} from "http2";\n/g, '', 2],
  [/(\w+) instanceof Http2ServerRequest2?\b/g, 'isHttp2Request($1)', 5],
  ['h2constants.', 'process.getBuiltinModule("node:http2").constants.', 1],
  [
    'var GlobalRequest = global.Request;\nvar Request = class extends GlobalRequest {',
    `var isHttp2Request = (incoming) => !(incoming instanceof IncomingMessage) && incoming instanceof process.getBuiltinModule("node:http2").Http2ServerRequest;
var platformGlobals = { Request: Object.getOwnPropertyDescriptor(global, "Request"), Response: Object.getOwnPropertyDescriptor(global, "Response") };
var platformClass = (name) => {
  const installed = Object.getOwnPropertyDescriptor(global, name);
  const original = platformGlobals[name];
  const value = original.get ? original.get.call(global) : original.value;
  // Node's own lazy getter puts the platform's class back on the global: the adapter's stays there.
  if (installed && (installed.get !== original.get || installed.value !== original.value)) Object.defineProperty(global, name, installed);
  return value;
};
var Request;
var requestGlobal = () => requestClass();
var requestClass = () => {
  if (Request) return Request;
  const installed = Object.getOwnPropertyDescriptor(global, "Request");
  Request = class extends platformClass("Request") {`,
    1,
  ],
  [
    '    super(input, options);\n  }\n};\n',
    '    super(input, options);\n  }\n};\n  Object.setPrototypeOf(requestPrototype, Request.prototype);\n  if (installed?.get === requestGlobal) Object.defineProperty(global, "Request", { value: Request });\n  return Request;\n};\n',
    1,
  ],
  ['new Request(url, init)', 'new (requestClass())(url, init)', 2],
  [
    'var GlobalResponse = global.Response;\n',
    `var GlobalResponse;
var globalResponse = () => {
  if (GlobalResponse) return GlobalResponse;
  GlobalResponse = platformClass("Response");
  Object.setPrototypeOf(Response2, GlobalResponse);
  Object.setPrototypeOf(Response2.prototype, GlobalResponse.prototype);
  return GlobalResponse;
};
`,
    1,
  ],
  ['new GlobalResponse(this.#body, this.#init)', 'new (globalResponse())(this.#body, this.#init)', 1],
  [
    'Object.setPrototypeOf(Response2, GlobalResponse);\nObject.setPrototypeOf(Response2.prototype, GlobalResponse.prototype);\n',
    `Object.setPrototypeOf(Response2, Object.create(Function.prototype, Object.fromEntries(["error", "json", "redirect"].map((name) => [name, { configurable: true, get: () => globalResponse()[name] }]))));
`,
    1,
  ],
  ['} else if (header instanceof Headers) {', '} else if (Object.getPrototypeOf(header) !== Object.prototype && header instanceof Headers) {', 1],
  [
    'if (options.overrideGlobalObjects !== false && global.Request !== Request) {\n    Object.defineProperty(global, "Request", {\n      value: Request\n    });',
    'const current = Object.getOwnPropertyDescriptor(global, "Request");\n  if (options.overrideGlobalObjects !== false && current?.get !== requestGlobal && (!Request || current?.value !== Request)) {\n    Object.defineProperty(global, "Request", Request ? { value: Request } : { get: requestGlobal, configurable: true });',
    1,
  ],
  ['import { createServer as createServerHTTP } from "http";', 'import { createServer as createServerHTTP, IncomingMessage } from "http";', 1],
  [
    'var requestPrototype = {\n',
    `var validHeaderName = /^[!#$%&'*+.^_\`|~0-9A-Za-z-]+$/;
var httpSpace = (code) => code === 32 || code === 9 || code === 10 || code === 13;
// What Headers.get answers, from the header lines as parsed: names in any case, values without surrounding
// whitespace, repeats joined with ", " ("; " for Cookie), null for none.
var rawHeaderValue = (rawHeaders, name) => {
  const lower = name.toLowerCase();
  let value = null;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const key = rawHeaders[i];
    if (key.length !== lower.length || key.toLowerCase() !== lower) continue;
    let one = rawHeaders[i + 1];
    if (one.length > 0 && (httpSpace(one.charCodeAt(0)) || httpSpace(one.charCodeAt(one.length - 1)))) one = one.replace(/^[\\t\\n\\r ]+|[\\t\\n\\r ]+$/g, "");
    value = value === null ? one : value + (lower === "cookie" ? "; " : ", ") + one;
  }
  return value;
};
var requestPrototype = {
  // Hono's header(name) asks here: until something makes the Headers object, one header is read off the
  // header lines (an invalid name goes to Headers, which refuses it as before).
  [Symbol.for("idv-sandbox.headerValue")](name) {
    return this[headersKey] || !validHeaderName.test(name) ? this.headers.get(name) : rawHeaderValue(this[incomingKey].rawHeaders, name);
  },
`,
    1,
  ],
];
// Hono's validator reads the request's content type whatever it validates; only a body's validation uses it,
// and reading a request header makes the Headers object (undici again) for a read that has no body.
const VALIDATOR = /[\\/]hono[\\/]dist[\\/]validator[\\/]validator\.js$/;
const validatorRewrites = [
  [
    'const contentType = c.req.header("Content-Type");',
    'const contentType = target === "json" || target === "form" ? c.req.header("Content-Type") : void 0;',
    1,
  ],
];
// Hono reads one request header (a body's content type, read by the validator and by zod-openapi's media
// type gate on every create) through the request's Headers object: the adapter's lightweight request
// answers it from the socket's header lines instead (above), without making one.
const HONO_REQUEST = /[\\/]hono[\\/]dist[\\/]request\.js$/;
const honoRequestRewrites = [
  [
    'if (name) return this.raw.headers.get(name) ?? void 0;',
    'if (name) return (headerValue in this.raw ? this.raw[headerValue](name) : this.raw.headers.get(name)) ?? void 0;',
    1,
  ],
  ['var HonoRequest = class {', 'const headerValue = Symbol.for("idv-sandbox.headerValue");\nvar HonoRequest = class {', 1],
];
const undiciOnFirstNeed = {
  name: 'undici-on-first-need',
  setup(bundler) {
    for (const [filter, rewrites] of [
      [ADAPTER, adapterRewrites],
      [VALIDATOR, validatorRewrites],
      [HONO_REQUEST, honoRequestRewrites],
    ]) {
      bundler.onLoad({ filter }, async ({ path }) => {
        let text = await readFile(path, 'utf8');
        for (const [from, to, times] of rewrites) {
          const found = typeof from === 'string' ? text.split(from).length - 1 : (text.match(from) ?? []).length;
          if (found !== times) throw new Error(`${path}: expected ${times} of ${from}, found ${found}: check the rewrite against this version`);
          text = typeof from === 'string' ? text.replaceAll(from, to) : text.replace(from, to);
        }
        return { contents: text, loader: 'js' };
      });
    }
  },
};

const COMMONJS_BUNDLE = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // The bundle's own URL, from which each file's `import.meta.url` above is made (CommonJS has no import.meta).
  define: { 'import.meta.url': 'bundleUrl' },
  banner: { js: "const bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
};

// faker's three locale entry points (en, en_GB, en_US; never the package root with its 70 locales) are a bundle
// of their own, FAKER_BUNDLE, which the server bundle runs on a locale's first use (en_US at start-up, for a
// first create's sender user) through the bin's loader (src/bundle-loader.mjs), with the compiled code it kept at the exit
// of an earlier process: required from node_modules, Node's ES module loader resolved and compiled some
// 500 KB of modules there, every process. Not in the server bundle: its kept code would then hold faker's
// compiled data, which every start reads and holds (start CPU +10 ms, idle memory +3 MB).
const FAKER_BUNDLE = 'dist/faker-locales.cjs';
const FAKER_LOCALE = /^@faker-js\/faker\/locale\/(en|en_GB|en_US)$/;
const fakerLocalesBundled = (text, path) => {
  const rewritten = text.replace(/packageOnFirstUse<([^>]*)>\(import\.meta\.url, '([^']+)'\)/g, (call, type, specifier) => {
    const locale = FAKER_LOCALE.exec(specifier)?.[1];
    return locale ? `(() => fakerLocalesBundle().${locale}() as ${type})` : call;
  });
  if (rewritten === text) return text;
  // Paths from the file's compiled module in dist/, which its `import.meta.url` names (above).
  const fromDist = (file) => JSON.stringify(relative(dirname(compiledPath(path)), file));
  return `${rewritten}
let fakerLocales: any;
function fakerLocalesBundle() {
  if (fakerLocales === undefined) {
    const { loadBundle } = packageOnFirstUse<any>(import.meta.url, ${fromDist('bundle-loader.cjs')})();
    fakerLocales = loadBundle(process.getBuiltinModule('node:url').fileURLToPath(new URL(${fromDist(relative('dist', FAKER_BUNDLE))}, import.meta.url)));
    process.once('exit', () => fakerLocales.keepCompiledCode());
  }
  return fakerLocales.exports;
}
`;
};

await build({
  ...COMMONJS_BUNDLE,
  stdin: {
    contents: ['en', 'en_GB', 'en_US'].map((locale) => `exports.${locale} = () => require('@faker-js/faker/locale/${locale}');`).join('\n'),
    resolveDir: '.',
  },
  outfile: FAKER_BUNDLE,
  logLevel: 'warning',
});

await build({
  ...COMMONJS_BUNDLE,
  entryPoints: ['src/server-entry.ts'],
  outfile: SERVER_BUNDLE,
  plugins: [importMetaUrlPerFile(fakerLocalesBundled), packagesOnFirstUse, undiciOnFirstNeed],
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
});

// Each thread of the image pool runs IMAGE_WORKER_BUNDLE (through src/images/image-thread.cjs and the bin's
// loader, from the compiled code an earlier thread kept): the task module with the codecs and sharp's
// JavaScript in one CommonJS file. sharp's native binding and libvips stay in node_modules (a .node file is
// not bundled), and so does jimp, which the codecs require for the first BMP only.
const IMAGE_WORKER_BUNDLE = 'dist/image-worker.cjs';
// sharp first tries a binding of its own build folder (a path made at run time, absent from a published
// package): left to run time, where it is not found and sharp goes on to its prebuilt binding.
const sharpOwnBuildAtRunTime = {
  name: 'sharp-own-build-at-run-time',
  setup(bundler) {
    bundler.onLoad({ filter: /[\\/]sharp[\\/]dist[\\/]sharp\.cjs$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      const found = text.split('require(`../src/build/Release/').length - 1;
      if (found !== 2) throw new Error(`${path}: expected 2 requires of sharp's own build folder, found ${found}: check this version`);
      return { contents: `const requireAtRunTime = require;\n${text.replaceAll('require(`../src/build/Release/', 'requireAtRunTime(`../src/build/Release/')}`, loader: 'js' };
    });
  },
};
const codecsBundled = (text) =>
  text.replace(/packageOnFirstUse<([^>]*)>\(import\.meta\.url, '(\.\/codecs\.cjs)'\)/g, (_, type, specifier) => `(() => require('${specifier}') as ${type})`);
await build({
  ...COMMONJS_BUNDLE,
  entryPoints: ['src/images/image-worker.ts'],
  outfile: IMAGE_WORKER_BUNDLE,
  plugins: [importMetaUrlPerFile(codecsBundled), sharpOwnBuildAtRunTime],
  external: ['@img/sharp-*', 'jimp', '@jimp/*'],
  logOverride: { 'indirect-require': 'silent' },
  logLevel: 'warning',
});

// The programmatic API for CommonJS callers (`require('idv-sandbox')`; Jest runs test files as CommonJS by
// default): the same modules and their dependencies, several of them ES modules only (lowdb, hono), in one
// CommonJS file that the package's `exports` give to `require`. The packages the server requires on first
// use (faker, libphonenumber) are bundled too: Jest's require cannot load an ES module before Node 24.9.
const bundledOnFirstUse = (text) => text.replace(/packageOnFirstUse<([^>]*)>\(import\.meta\.url, ('[^']+')\)/g, '(() => require($2) as $1)');
await build({
  ...COMMONJS_BUNDLE,
  entryPoints: ['src/index.ts'],
  outfile: 'dist/index.cjs',
  plugins: [importMetaUrlPerFile(bundledOnFirstUse), packagesOnFirstUse],
  logLevel: 'warning',
});

// The bin is CommonJS, so that a start never sets up Node's ES module loader: it requires the bundle's
// loader as CommonJS too, made from the same source (src/bundle-loader.mjs, which tests import).
await build({
  entryPoints: ['src/bundle-loader.mjs'],
  outfile: 'dist/bundle-loader.cjs',
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
});

// The bundle in ASCII only: V8 holds a source text with any other character at two bytes per character, so
// the loader reads an ASCII bundle as one-byte text (half the memory, and a start decodes it in a quarter of
// the time). esbuild escapes the strings already; the characters it leaves, in comments, regular expressions
// and template literals, become \u escapes, which mean the same characters there (a tagged template's raw
// strings would differ: none of the bundle's tags reads them, hono's `html` joins the cooked ones).
for (const file of [SERVER_BUNDLE, FAKER_BUNDLE, IMAGE_WORKER_BUNDLE]) {
  const bundled = readFileSync(file, 'utf8');
  // A backslash right before such a character would escape the escape instead (`\é` would read `\\u00e9`).
  if (/\\[^\x00-\x7f]/.test(bundled)) throw new Error(`${file}: a backslash before a character beyond ASCII; write that character as \\u in the source`);
  writeFileSync(
    file,
    bundled.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

// The bin keeps the bundle's compiled code after a start, for the next one (src/bundle-loader.mjs): one
// start now, with the bin's Node flags, makes the first start after a build or an install a fast one too.
// Best effort: where the bin or the fixtures are not there (the image's build stage), the first start does it.
const BIN = 'bin/idv-sandbox.js';
const { nodeFlags: flags, env: binEnv } = existsSync(BIN) ? binLaunch() : { nodeFlags: [], env: {} };
const { codeCacheFile } = await import('../dist/bundle-loader.mjs');
const kept = codeCacheFile(readFileSync(SERVER_BUNDLE), flags);
if (existsSync(BIN) && !existsSync(kept)) {
  // The start's own settings only: none of this shell's sandbox settings (a data file, a port, a config).
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(IDV_SANDBOX_|PORT$|HOST$)/.test(name))), ...binEnv };
  const start = spawn(process.execPath, [...flags, BIN, '--memory', '--port', '0', '--host', '127.0.0.1'], { env, stdio: 'ignore' });
  const exited = new Promise((done) => start.on('close', done));
  // Stopped once it wrote the code, or after 30 s.
  for (let waited = 0; waited < 30_000 && start.exitCode === null && !existsSync(kept); waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  start.kill('SIGTERM');
  await exited;
}
