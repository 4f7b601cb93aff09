/** Starts the real CLI (`src/main.ts` through tsx) as a child process and waits for its banner. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

export function runCli(args: string[], env: Record<string, string> = {}): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Starts the CLI on a free port and resolves once it listens. */
export async function startCli(args: string[], env: Record<string, string> = {}): Promise<CliProcess> {
  const run = runCli(['--port', '0', ...args], env);
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /listening on (http:\/\/[^\s]+)/.exec(run.output());
      if (match?.[1]) resolve(match[1]);
    };
    run.child.stdout?.on('data', onData);
    void run.exited.then((code) => reject(new Error(`CLI exited with ${code} before listening:\n${run.output()}`)));
  });
  return { ...run, url };
}
