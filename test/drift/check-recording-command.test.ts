import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkRecordingCommand } from '../../src/drift/check-recording-command.ts';
import { temporaryDirectory } from '../helpers/temporary-directory.ts';
import { recorder, toHar, toJsonl } from './recorder.ts';

const dir = temporaryDirectory('idv-drift-');
const harFile = join(dir, 'staging.har');
const driftedFile = join(dir, 'drifted.jsonl');

function io() {
  const out: string[] = [];
  const error: string[] = [];
  return { out, error, io: { out: (text: string) => out.push(text), error: (text: string) => error.push(text) } };
}

beforeAll(async () => {
  const r = await recorder(42);
  const session = await r.call('POST', '/v1/sessions', { first_name: 'Ana', last_name: 'Lima', email: 'ana@example.com' });
  await r.call('GET', `/v1/sessions/${session.id}`);
  await r.close();
  writeFileSync(harFile, toHar(r.exchanges));
  const [created, fetched] = r.exchanges;
  const body = JSON.parse(fetched?.response.body as string);
  body.session_record.status = 'AWAITING_REVIEW';
  writeFileSync(driftedFile, toJsonl([created!, { ...fetched!, response: { ...fetched!.response, body: JSON.stringify(body) } }]));
});

describe('idv-sandbox check-recording', () => {
  it('prints the Markdown report, writes the files asked for, and exits 0 without drift even under --fail-on-drift', async () => {
    const call = io();
    const outs = ['report.json', 'report.md', 'report.xml', 'report.html'].map((name) => join(dir, 'clean', name));
    const status = await checkRecordingCommand([harFile, '--fail-on-drift', ...outs.flatMap((file) => ['--out', file])], call.io);
    expect(call.error).toEqual([]);
    expect(status).toBe(0);
    expect(call.out.join('\n')).toContain('# Drift check: no drift');
    expect(JSON.parse(readFileSync(outs[0]!, 'utf8'))).toMatchObject({ exchanges: 2, matched: 2, drift: false });
    expect(readFileSync(outs[1]!, 'utf8')).toContain('| `GET /v1/sessions/{id}` | 1 | 1 | 0 |');
    const junit = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(outs[2]!, 'utf8'));
    expect(junit.testsuites.testsuite).toMatchObject({ '@_tests': '2', '@_failures': '0', '@_timestamp': '2026-02-01T10:00:02' });
    expect(readFileSync(outs[3]!, 'utf8')).toContain('<title>idv-sandbox drift check</title>');
  });

  it('names the drift, and exits 1 with --fail-on-drift (0 without)', async () => {
    const call = io();
    expect(await checkRecordingCommand([driftedFile, '--fail-on-drift'], call.io)).toBe(1);
    expect(call.out.join('\n')).toContain('| value | `$.session_record.status` | AWAITING_REVIEW | PENDING | 2 |');
    expect(await checkRecordingCommand([driftedFile], io().io)).toBe(0);
  });

  it('refuses a call it cannot run with the reason and exit 2', async () => {
    const missing = io();
    expect(await checkRecordingCommand([join(dir, 'nothing.har')], missing.io)).toBe(2);
    expect(missing.error.join('\n')).toMatch(/cannot read .*nothing\.har \(ENOENT\)/);
    const none = io();
    expect(await checkRecordingCommand([], none.io)).toBe(2);
    expect(none.error.join('\n')).toContain('name at least one recording');
    const broken = join(dir, 'broken.jsonl');
    writeFileSync(broken, '{"request": {}}\n');
    const bad = io();
    expect(await checkRecordingCommand([broken], bad.io)).toBe(2);
    expect(bad.error.join('\n')).toContain(`${broken} line 1: needs request and response objects.`);
    const unsendable = join(dir, 'unsendable.jsonl');
    const line = (headers: Record<string, string>, url = '/v1/auth/verify') =>
      JSON.stringify({ request: { method: 'GET', url, headers }, response: { status: 200 } });
    writeFileSync(unsendable, `${line({})}\n${line({ 'x-trace': 'a\nb' })}\n`);
    const header = io();
    expect(await checkRecordingCommand([unsendable], header.io)).toBe(2);
    expect(header.error.join('\n')).toMatch(/exchange 2 cannot be sent as recorded: /);
    writeFileSync(unsendable, line({}, 'http://[::1'));
    const url = io();
    expect(await checkRecordingCommand([unsendable], url.io)).toBe(2);
    expect(url.error.join('\n')).toContain('line 1: request url "http://[::1" is not a URL.');
  });
});
