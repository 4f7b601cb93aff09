/**
 * The container health check finds the sandbox however its port was given: the sandbox writes the address
 * it listens on to its port file, and the check (the command the Dockerfile runs) reads it. Each case
 * starts the real CLI and runs the real check as a process; a misleading PORT in the check's env shows it
 * does not guess from the environment.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli-process.ts';
import { outputMatches } from '../helpers/keep-alive-traffic.ts';
import { temporaryDirectory } from '../helpers/temporary-directory.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the health check as Docker would; resolves with its exit code and output. */
function healthCheck(env: Record<string, string>, args: string[] = []): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/health-check.ts', ...args],
      { cwd: ROOT, env: { ...process.env, PORT: '1', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, output: stdout + stderr }),
    );
  });
}

/** A port that was free a moment ago (for the cases where the port is given, not picked by the server). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** How the port is given, and how the port file is named to the sandbox and to the check. */
const ways: [
  string,
  (port: number, portFile: string) => { args: string[]; env: Record<string, string>; check: { env: Record<string, string>; args: string[] } },
][] = [
  [
    '--port',
    (port, portFile) => ({
      args: ['--port', String(port)],
      env: { IDV_SANDBOX_PORT_FILE: portFile },
      check: { env: { IDV_SANDBOX_PORT_FILE: portFile }, args: [] },
    }),
  ],
  [
    'PORT',
    (port, portFile) => ({
      args: [],
      env: { PORT: String(port), IDV_SANDBOX_PORT_FILE: portFile },
      check: { env: { IDV_SANDBOX_PORT_FILE: portFile }, args: [] },
    }),
  ],
  [
    '--port 0 (any free port), with --port-file',
    (_port, portFile) => ({ args: ['--port', '0', '--port-file', portFile], env: {}, check: { env: {}, args: ['--port-file', portFile] } }),
  ],
];

describe('the health check', () => {
  it.each(ways)('finds a sandbox whose port was given by %s, and fails once it stopped', async (_way, given) => {
    const portFile = join(temporaryDirectory(), 'idv-sandbox.port');
    const { args, env, check } = given(await freePort(), portFile);
    const cli = runCli(['--memory', '--host', '0.0.0.0', ...args], env);
    try {
      await outputMatches(cli, /listening on/);
      const written = JSON.parse(readFileSync(portFile, 'utf8')) as { url: string; pid: number };
      expect(written.pid).toBe(cli.child.pid);
      expect(written.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const healthy = await healthCheck(check.env, check.args);
      expect(healthy).toEqual({ code: 0, output: `idv-sandbox health check: ${written.url}/healthz answered 200\n` });
    } finally {
      cli.child.kill('SIGTERM');
      await cli.exited;
    }
    const stopped = await healthCheck(check.env, check.args);
    expect(stopped.code).toBe(1);
    expect(stopped.output).toMatch(/is not running|did not answer/);
  });

  it('fails with a reason a person can act on without a port file', async () => {
    const none = await healthCheck({});
    expect(none.code).toBe(1);
    expect(none.output).toMatch(/No port file: start the sandbox with --port-file <path> \(env IDV_SANDBOX_PORT_FILE\)/);
    const missing = await healthCheck({ IDV_SANDBOX_PORT_FILE: join(temporaryDirectory(), 'absent.port') });
    expect(missing.code).toBe(1);
    expect(missing.output).toMatch(/Cannot read the port file/);
  });

  it('is what the Docker image runs, with the port file set in its environment', () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^ENV .*IDV_SANDBOX_PORT_FILE=\/tmp\/idv-sandbox\.port/m);
    expect(dockerfile).toMatch(/^\s*CMD \["node", "dist\/health-check\.js"\]$/m);
  });
});
