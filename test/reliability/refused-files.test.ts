/**
 * Files that cannot be trusted are refused at start-up, never read as an empty store: a 0-byte or
 * truncated snapshot with a journal beside it, a snapshot or a journal record of the wrong shape (a
 * session whose `record` is null). The message names the file, the place, --repair and a restore.
 * `--repair` sets the damage aside, keeps a copy of every file it changes, and serves the rest.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../src/platform/platform.ts';
import { StoreOpenError } from '../../src/platform/store/store.ts';
import { directoryState, tempDataFile } from '../helpers/data-dir.ts';
import { silentLogger, testSandbox } from '../helpers/sandbox.ts';

const JANE = { firstName: 'Jane', lastName: 'Doe', email: 'jane@example.com' };
const fileSandbox = (file: string, options: { repair?: boolean; logger?: Logger } = {}) =>
  testSandbox({ memory: false, data: file, logger: silentLogger, ...options });

/** A data directory whose snapshot holds one session and whose journal holds another. */
async function storeWithJournal(): Promise<{ file: string; inSnapshot: string; inJournal: string; journal: string }> {
  const file = tempDataFile();
  const first = await fileSandbox(file);
  const inSnapshot = (await first.call('POST', '/v1/sessions', { body: JANE })).body.id as string;
  await first.close();
  const second = await fileSandbox(file);
  const inJournal = (await second.call('POST', '/v1/sessions', { body: JANE })).body.id as string;
  await second.closeNow();
  const journal = readdirSync(dirname(file)).find((name) => name.includes('.journal-')) as string;
  return { file, inSnapshot, inJournal, journal: join(dirname(file), journal) };
}

async function refusal(file: string): Promise<string> {
  const error = await fileSandbox(file).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(StoreOpenError);
  return (error as Error).message;
}

const cases: { label: string; damage: (files: { file: string; journal: string }) => void; file: 'snapshot' | 'journal'; place: RegExp }[] = [
  { label: 'a 0-byte snapshot', damage: ({ file }) => writeFileSync(file, ''), file: 'snapshot', place: /at its start: the file is empty \(0 bytes\)/ },
  {
    label: 'a truncated snapshot',
    damage: ({ file }) => writeFileSync(file, readFileSync(file, 'utf8').slice(0, -20)),
    file: 'snapshot',
    place: /stops early \(truncated\)|at line \d+/,
  },
  {
    label: 'a snapshot of the wrong shape',
    damage: ({ file }) => writeFileSync(file, readFileSync(file, 'utf8').replace(/"record":\{/, '"record":7,"was":{')),
    file: 'snapshot',
    place: /at namespaces\.default\.sessions\[0\]\.record: not a stored sessions record/,
  },
  {
    label: 'a journal record whose session record is null',
    damage: ({ journal }) => {
      const lines = readFileSync(journal, 'utf8').split('\n');
      const at = lines.findIndex((line) => line.includes('"c":"sessions"'));
      const entry = JSON.parse(lines[at] as string);
      lines[at] = JSON.stringify({ ...entry, v: { ...entry.v, record: null } });
      writeFileSync(journal, lines.join('\n'));
    },
    file: 'journal',
    place: /at line \d+\.v\.record: not a stored sessions record/,
  },
];

describe('files that cannot be trusted', () => {
  for (const { label, damage, file: which, place } of cases) {
    it(`refuses to start from ${label}, naming the file, the place, --repair and a restore, and changes nothing`, async () => {
      const files = await storeWithJournal();
      damage(files);
      const before = directoryState(dirname(files.file));
      const message = await refusal(files.file);
      expect(message).toContain(which === 'snapshot' ? `The store file ${files.file} is damaged` : `The store file ${files.journal} is damaged`);
      expect(message).toMatch(place);
      expect(message).toMatch(/Restore the data directory from a backup, or start once with --repair/);
      expect(directoryState(dirname(files.file))).toEqual(before);
    });
  }

  it('--repair sets a 0-byte snapshot aside, keeps a copy, serves what the journal holds and says what it did', async () => {
    const files = await storeWithJournal();
    writeFileSync(files.file, '');
    const warnings: string[] = [];
    const repaired = await fileSandbox(files.file, { repair: true, logger: { ...silentLogger, warn: (message: string) => void warnings.push(message) } });
    expect((await repaired.call('GET', `/v1/sessions/${files.inJournal}`)).status).toBe(200);
    expect(warnings.join('\n')).toMatch(
      /--repair set aside 1 damaged place.*\n.*at its start: the file is empty[\s\S]*Copies of the files as they were: .*store\.json\.before-repair/,
    );
    expect(readFileSync(`${files.file}.before-repair`, 'utf8')).toBe('');
    await repaired.close();
    expect(readFileSync(files.file, 'utf8')).toContain(files.inJournal);
  });

  it('--repair drops a journal record of the wrong shape, keeps a copy of the journal, and serves the rest', async () => {
    const files = await storeWithJournal();
    const original = readFileSync(files.journal, 'utf8');
    cases[3]?.damage(files);
    const damaged = readFileSync(files.journal, 'utf8');
    const repaired = await fileSandbox(files.file, { repair: true });
    expect((await repaired.call('GET', `/v1/sessions/${files.inSnapshot}`)).status).toBe(200);
    // The damaged session is gone, never a 500.
    expect((await repaired.call('GET', `/v1/sessions/${files.inJournal}`)).status).toBe(404);
    expect(readFileSync(`${files.journal}.before-repair`, 'utf8')).toBe(damaged);
    expect(damaged).not.toBe(original);
    await repaired.close();
  });
});
