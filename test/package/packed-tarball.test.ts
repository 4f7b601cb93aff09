/**
 * The package as npm users take it, by the README's install lines (the package is not on the registry):
 * `npm pack` in the clone makes the tarball, an empty project outside the repository installs it with the
 * documented command (its dependencies from the registry or npm's cache), and there, with nothing of the
 * repository in reach, `npx idv-sandbox --version` answers, the bin starts a server that answers
 * /healthz and stops on SIGTERM, and plain Node (no TypeScript loader) imports `createSandbox`.
 * The install takes a minute or more and needs the registry: it runs when IDV_SANDBOX_PACKED_TEST=1
 * (.ci/run sets it).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { blockUnder, INSTALL_CLONE_PLACEHOLDER, installCommands, README } from '../docs/readme-blocks.ts';
import { temporaryDirectory } from '../helpers/temporary-directory.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

describe.runIf(process.env.IDV_SANDBOX_PACKED_TEST === '1')('the packed tarball, installed in an empty project', () => {
  let project: string;
  /** Runs a command in the project, with an environment that names nothing of the repository. */
  const inProject = (command: string, args: string[]) =>
    execFileSync(command, args, { cwd: project, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME } });

  beforeAll(() => {
    const [pack, install, version, ...others] = installCommands();
    expect(others).toEqual([]);
    // `npm ci` is the clone's own install, done already here; `npm pack` runs `prepare`, which builds dist/.
    expect(pack).toBe('npm ci && npm pack');
    const tarball = `${manifest.name}-${manifest.version}.tgz`;
    execFileSync(NPM, ['pack'], { cwd: ROOT, stdio: 'pipe' });
    expect(existsSync(join(ROOT, tarball)), `npm pack wrote no ${tarball}`).toBe(true);
    const packed = temporaryDirectory('idv-sandbox-packed-');
    renameSync(join(ROOT, tarball), join(packed, tarball));
    project = temporaryDirectory('idv-sandbox-consumer-');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    // The documented line, with the clone's folder where it says /path/to/idv-sandbox.
    expect(install).toBe(`npm install --save-dev ${INSTALL_CLONE_PLACEHOLDER}/${tarball}`);
    const [npm, ...args] = (install as string).replace(INSTALL_CLONE_PLACEHOLDER, packed).split(' ');
    expect(npm).toBe('npm');
    execFileSync(NPM, args, { cwd: project, stdio: 'pipe', env: { PATH: process.env.PATH, HOME: process.env.HOME, npm_config_prefer_offline: 'true' } });
    expect(version).toBe('npx idv-sandbox --version');
  }, 600_000);

  it('installs files from the tarball, not a link to the repository', () => {
    const installed = join(project, 'node_modules', manifest.name);
    expect(readFileSync(join(installed, 'package.json'), 'utf8')).toContain(`"version": "${manifest.version}"`);
    expect(inProject('node', ['-e', `console.log(require('node:fs').realpathSync(${JSON.stringify(installed)}))`]).trim()).toBe(installed);
  });

  it('answers `npx idv-sandbox --version` and lists every flag in --help', () => {
    expect(inProject('npx', ['--no-install', 'idv-sandbox', '--version']).trim()).toBe(manifest.version);
    expect(inProject('npx', ['--no-install', 'idv-sandbox', '--help'])).toMatch(/--config <file>[\s\S]*--log-format <f>[\s\S]*--version/);
  }, 60_000);

  it('starts a server from the bin that answers /healthz and stops with exit 0 on SIGTERM', async () => {
    const child = spawn(join(project, 'node_modules/.bin/idv-sandbox'), ['--port', '0', '--host', '127.0.0.1', '--memory'], {
      cwd: project,
      env: { PATH: process.env.PATH },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const match = /listening on (http:\/\/\S+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        void exited.then((code) => reject(new Error(`the bin exited with ${code}:\n${output}`)));
      });
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 60_000);

  it("runs the README's in-process example under Jest, which requires the package as CommonJS", () => {
    inProject(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev', 'jest@30']);
    const example = blockUnder(README, 'In-process', 'ts').replace("import { createSandbox } from 'idv-sandbox';", '');
    writeFileSync(
      join(project, 'sandbox.test.cjs'),
      `const { createSandbox } = require('idv-sandbox');
      test('the in-process example', async () => {
        ${example}
        expect(answer.status).toBe(200);
        await sandbox.close({ report: false });
      });`,
    );
    expect(() => inProject('npx', ['--no-install', 'jest', '--ci', 'sandbox.test.cjs'])).not.toThrow();
  }, 300_000);

  it('imports createSandbox in plain Node and serves a request in-process', () => {
    const script = `
      import { createSandbox } from 'idv-sandbox';
      const sandbox = await createSandbox({ port: null, memory: true, seed: 7 });
      const response = await sandbox.app.request('/v1/auth/verify', { headers: { 'x-api-key': 'sk_live_demo' } });
      console.log(JSON.stringify({ status: response.status, resolved: import.meta.resolve('idv-sandbox') }));
      await sandbox.close();`;
    const output = inProject('node', ['--input-type=module', '-e', script]);
    const { status, resolved } = JSON.parse(output.trim().split('\n').at(-1) ?? '') as { status: number; resolved: string };
    expect(status).toBe(200);
    expect(fileURLToPath(resolved).startsWith(join(project, 'node_modules', manifest.name))).toBe(true);
  }, 60_000);
});
