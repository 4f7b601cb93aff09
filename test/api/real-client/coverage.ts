/** Per-file operation coverage of the contract tests: which client operations answered 2xx at least once. */
import { afterAll, expect } from 'vitest';
import type { RealClient } from './client.ts';

interface TaskLike {
  type: string;
  mode: string;
  tasks?: readonly TaskLike[];
}

function tests(task: TaskLike): TaskLike[] {
  if (task.type === 'test') return [task];
  return (task.tasks ?? []).flatMap(tests);
}

/**
 * Tracks every client passed to `track`; after the file, the operations they got a 2xx for must be
 * exactly `expected` (checked only when every test of the file ran: not on a `-t` or `.only` run).
 */
export function operationCoverage(expected: readonly string[]): { track(client: RealClient): RealClient } {
  const clients: RealClient[] = [];
  afterAll(({}, file) => {
    if (tests(file as unknown as TaskLike).some((test) => test.mode !== 'run')) return;
    const exercised = new Set(clients.flatMap((client) => [...client.succeeded()]));
    expect([...exercised].sort()).toEqual([...expected].sort());
  });
  return {
    track(client: RealClient) {
      clients.push(client);
      return client;
    },
  };
}
