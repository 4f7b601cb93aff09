/**
 * The port file: where a listening sandbox says which address it is on (`--port-file`, env
 * IDV_SANDBOX_PORT_FILE), for tools that did not choose the port themselves (the container health check,
 * a CI script that started it with --port 0). JSON `{ "url": "http://127.0.0.1:4010", "pid": 7 }`: the
 * sandbox's URL, which names the loopback address when it listens on every interface (0.0.0.0, ::).
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

export interface PortFile {
  url: string;
  pid: number;
}

export function writePortFile(path: string, listeningUrl: string, pid: number): void {
  const url = new URL(listeningUrl);
  // Written beside, then renamed: a reader never sees half a file.
  const partial = `${path}.${pid}.partial`;
  writeFileSync(partial, `${JSON.stringify({ url: url.origin, pid } satisfies PortFile)}\n`);
  renameSync(partial, path);
}

/** The sandbox's address, or why there is none (no file, a damaged one, or its process is gone). */
export function readPortFile(path: string): PortFile | string {
  let parsed: Partial<PortFile>;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<PortFile>;
  } catch (error) {
    return `Cannot read the port file ${path}: ${(error as Error).message}`;
  }
  if (typeof parsed.url !== 'string' || typeof parsed.pid !== 'number') return `The port file ${path} does not hold { url, pid }.`;
  try {
    process.kill(parsed.pid, 0);
  } catch (error) {
    // EPERM: the process exists under another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return `The sandbox that wrote ${path} (pid ${parsed.pid}) is not running.`;
  }
  return { url: parsed.url, pid: parsed.pid };
}
