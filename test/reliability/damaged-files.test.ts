import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store, StoreOpenError } from '../../src/platform/store/store.ts';
import { directoryState, tempDataFile } from '../helpers/data-dir.ts';

const header = (fields: Record<string, unknown> = {}) => ({ format: 'idv-sandbox-store', version: 1, generation: 1, namespaces: {}, ...fields });
const snapshot = (fields: Record<string, unknown> = {}) => JSON.stringify(header(fields), null, 2);
const put = (id: string) => JSON.stringify({ ns: 'default', op: 'put', c: 'things', id, v: { id } });
const STREAMED = [
  '{"format":"idv-sandbox-store","version":1,"generation":1,"namespaces":{',
  '"default":{',
  '"things":[',
  '{"id":"a"},',
  '{"id":"b"}',
  ']',
  '}',
  '}}',
  '',
];

interface Case {
  label: string;
  files: Record<string, string>;
  /** What the message must name besides the file and the fix. */
  place: RegExp;
  damagedFile?: string;
}

const cases: Case[] = [
  {
    label: 'namespaces.default a number',
    files: { 'store.json': snapshot({ namespaces: { default: 7 } }) },
    place: /at namespaces\.default: .*expected record/,
  },
  {
    label: 'a collection that is a string',
    files: { 'store.json': snapshot({ namespaces: { default: { sessions: 'x' } } }) },
    place: /at namespaces\.default\.sessions: .*expected array/,
  },
  { label: 'store version 0', files: { 'store.json': snapshot({ version: 0 }) }, place: /at version: / },
  { label: 'store version -7', files: { 'store.json': snapshot({ version: -7 }) }, place: /at version: / },
  {
    label: 'a record without id',
    files: { 'store.json': snapshot({ namespaces: { default: { things: [{ name: 'x' }] } } }) },
    place: /at namespaces\.default\.things\[0\]\.id: /,
  },
  { label: 'generation 1.5', files: { 'store.json': snapshot({ generation: 1.5 }) }, place: /at generation: .*int/ },
  { label: 'no generation', files: { 'store.json': JSON.stringify({ format: 'idv-sandbox-store', version: 1, namespaces: {} }) }, place: /at generation: / },
  {
    label: 'a stray journal-999',
    files: { 'store.json': snapshot(), 'store.json.journal-1.ndjson': `${put('a')}\n`, 'store.json.journal-999.ndjson': `${put('b')}\n` },
    place: /at its generation: .*journal-2 is missing/,
    damagedFile: 'store.json.journal-999.ndjson',
  },
  {
    label: 'a journal whose generation is not a whole number',
    files: { 'store.json': snapshot(), 'store.json.journal-1.5.ndjson': `${put('a')}\n` },
    place: /at its name: .*"1\.5"/,
    damagedFile: 'store.json.journal-1.5.ndjson',
  },
  {
    label: 'garbage in the middle of a journal',
    files: { 'store.json': snapshot(), 'store.json.journal-1.ndjson': `${put('a')}\n{"ns":"def\n${put('b')}\n` },
    place: /at line 2: not JSON/,
    damagedFile: 'store.json.journal-1.ndjson',
  },
  {
    label: 'an unknown journal op',
    files: { 'store.json': snapshot(), 'store.json.journal-1.ndjson': `${put('a')}\n{"ns":"default","op":"merge","c":"things","id":"a"}\n` },
    place: /at line 2\.op: /,
    damagedFile: 'store.json.journal-1.ndjson',
  },
  {
    label: 'a journal put without id',
    files: { 'store.json': snapshot(), 'store.json.journal-1.ndjson': `{"ns":"default","op":"put","c":"things","v":{"id":"a"}}\n` },
    place: /at line 1\.id: /,
    damagedFile: 'store.json.journal-1.ndjson',
  },
  {
    label: 'a torn line that is not the last of the newest journal',
    files: { 'store.json': snapshot(), 'store.json.journal-1.ndjson': `${put('a')}\n{"ns":"de`, 'store.json.journal-2.ndjson': `${put('b')}\n` },
    place: /at line 2: not JSON/,
    damagedFile: 'store.json.journal-1.ndjson',
  },
  {
    label: 'a record line of the streamed layout that is not JSON',
    files: { 'store.json': STREAMED.join('\n').replace('{"id":"b"}', '{"id":"b"') },
    place: /at line 5: not JSON/,
  },
  {
    label: 'a record of the streamed layout without id',
    files: { 'store.json': STREAMED.join('\n').replace('{"id":"b"}', '{"idd":"b"}') },
    place: /at line 5 \(namespaces\.default\.things\)\.id: /,
  },
  { label: 'a truncated streamed snapshot', files: { 'store.json': STREAMED.slice(0, 6).join('\n') }, place: /at its end: the document stops early/ },
];

describe('a damaged store file is refused', () => {
  it.each(cases)('$label: start-up refused naming the file, the place and the fix; nothing written', async ({ files, place, damagedFile }) => {
    const file = tempDataFile();
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dirname(file), name), content);
    const before = directoryState(dirname(file));
    const error = await Store.open({ file }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreOpenError);
    const message = (error as Error).message;
    expect(message).toContain(join(dirname(file), damagedFile ?? 'store.json'));
    expect(message).toMatch(place);
    expect(message).toMatch(/it was left untouched\. .*--memory/);
    expect(directoryState(dirname(file))).toEqual(before);
  });

  it('loads the streamed layout, and a torn last line of the newest journal (never acknowledged) is the one damage tolerated', async () => {
    const file = tempDataFile();
    writeFileSync(file, STREAMED.join('\n'));
    writeFileSync(`${file}.journal-1.ndjson`, `${put('c')}\n`);
    writeFileSync(`${file}.journal-2.ndjson`, `${put('d')}\n{"ns":"default","op":"put","c":"thi`);
    const store = await Store.open({ file });
    expect(
      store
        .partition('default')
        .collection('things')
        .all()
        .map((record) => record.id),
    ).toEqual(['a', 'b', 'c', 'd']);
    await store.close();
  });
});
