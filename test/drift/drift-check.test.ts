import { beforeAll, describe, expect, it } from 'vitest';
import { buildDriftReport, type DriftReport, renderDriftReport } from '../../src/drift/drift-report.ts';
import { COVERAGE_FORMATS } from '../../src/platform/coverage/coverage-report.ts';
import { type Exchange, readHar, readJsonl, readRecording } from '../../src/drift/recording.ts';
import { replay } from '../../src/drift/replay.ts';
import { recordKycFlow } from './flow.ts';
import { type Recorder, recorder, toHar, toJsonl } from './recorder.ts';

let recording: Recorder;

beforeAll(async () => {
  recording = await recorder(42);
  await recordKycFlow(recording);
  await recording.close();
});

const check = async (exchanges: Exchange[]) => buildDriftReport(await replay(exchanges));

/** A copy of the exchanges with one recorded answer's JSON body changed. */
function perturbed(exchanges: Exchange[], number: number, change: (body: any) => void): Exchange[] {
  return exchanges.map((exchange) => {
    if (exchange.number !== number) return exchange;
    const body = JSON.parse(exchange.response.body as string);
    change(body);
    return { ...exchange, response: { ...exchange.response, body: JSON.stringify(body) } };
  });
}

const allDifferences = (report: DriftReport) => report.operations.flatMap((o) => o.differences.map((d) => ({ operation: o.operation, ...d })));

describe('reading recordings', () => {
  it('reads HAR 1.2 and JSONL into the same exchanges, bytes included', () => {
    const fromJsonl = readJsonl(toJsonl(recording.exchanges));
    const fromHar = readHar(toHar(recording.exchanges));
    expect(fromJsonl).toEqual(fromHar);
    expect(fromHar).toHaveLength(recording.exchanges.length);
    const upload = fromHar.find((e) => e.request.method === 'PUT');
    expect(upload?.request.body).toBeInstanceOf(Uint8Array);
    expect(readRecording(toHar(recording.exchanges), 'x.har')).toEqual(fromHar);
  });

  it('names the line and what is wrong in a broken recording', () => {
    expect(() => readJsonl('{"request":{"method":"GET","url":"/v1/x"},"response":{"status":200}}\nnot json', 'r.jsonl')).toThrow(/r.jsonl line 2: not JSON/);
    expect(() => readJsonl('{"request":{"url":"/v1/x"},"response":{"status":200}}', 'r.jsonl')).toThrow(/line 1: request needs method and url/);
    expect(() => readHar('{"log":{}}', 'a.har')).toThrow(/a.har: a HAR file holds log.entries/);
  });
});

describe('replaying a recording of a sandbox with another seed', () => {
  it('reports no drift: ids follow the run, uploads go to its own URLs, the clock follows the recording', async () => {
    expect(recording.exchanges.map((e) => e.response.status)).toEqual([200, 200, 200, 201, 200, 200, 200, 200, 200, 200, 202, 200, 200]);
    const report = await check(readJsonl(toJsonl(recording.exchanges)));
    expect(allDifferences(report)).toEqual([]);
    expect(report).toMatchObject({ exchanges: 13, replayed: 13, matched: 13, drift: false, unserved: [] });
    expect(report.operations.map((o) => o.operation)).toContain('PUT /uploads/{id}');
  });

  it('reports what the recorded service answered differently, at its path, and nothing else', async () => {
    // Exchange 2 is GET /v1/sessions/{id}; 13 the ready job; 11 the job's creation.
    let exchanges = perturbed(recording.exchanges, 2, (body) => {
      body.session_record.sessionStatus = body.session_record.status;
      delete body.session_record.status;
      body.session_record.created_at = 1769940001;
      body.user.first_name = null;
    });
    exchanges = exchanges.map((e) => (e.number === 11 ? { ...e, response: { ...e.response, status: 201 } } : e));
    exchanges = perturbed(exchanges, 13, (body) => {
      body.result.riskLevel = 'SEVERE';
    });
    exchanges.push({
      number: 14,
      request: { method: 'GET', url: 'https://api.idv.example/v1/sessions/0d7c2e1a-5b8f-4c47-9a63-2f1e8d4b6c90/audit-trail', headers: {} },
      response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' },
    });
    const report = await check(exchanges);
    const byOperation = (operation: string) =>
      allDifferences(report)
        .filter((d) => d.operation === operation)
        .map(({ kind, path, recorded, sandbox, exchanges }) => ({ kind, path, recorded, sandbox, exchanges }));
    expect(byOperation('GET /v1/sessions/{id}')).toEqual([
      { kind: 'type', path: '$.session_record.created_at', recorded: 'number', sandbox: 'string', exchanges: [2] },
      { kind: 'missing', path: '$.session_record.sessionStatus', recorded: 'string', sandbox: 'absent', exchanges: [2] },
      { kind: 'extra', path: '$.session_record.status', recorded: 'absent', sandbox: 'string', exchanges: [2] },
      { kind: 'null', path: '$.user.first_name', recorded: 'null', sandbox: 'string', exchanges: [2] },
    ]);
    expect(byOperation('POST /v1/screening/adverse-media')).toEqual([{ kind: 'status', path: 'status', recorded: '201', sandbox: '202', exchanges: [11] }]);
    expect(byOperation('GET /v1/async-jobs/{jobId}')).toEqual([
      { kind: 'value', path: '$.result.riskLevel', recorded: 'SEVERE', sandbox: 'LOW', exchanges: [13] },
    ]);
    expect(allDifferences(report)).toHaveLength(6);
    expect(report.unserved).toEqual([{ number: 14, method: 'GET', path: expect.stringMatching(/^\/v1\/sessions\/\{#[0-9a-f]{8}\}\/audit-trail$/) }]);
    expect(report.drift).toBe(true);
  });

  it('marks the differences that fall on a part the API reference does not show, in every format', async () => {
    // Exchange 9 submits a step: the reference shows its step_id only. Exchange 2 reads a session record, which it shows.
    let exchanges = perturbed(recording.exchanges, 9, (body) => {
      body.step_status = 3;
      body.step_id = null;
    });
    exchanges = perturbed(exchanges, 2, (body) => {
      body.session_record.created_at = 1769940001;
    });
    const report = await check(exchanges);
    const stepGuess =
      'Response fields other than step_id, and the shape of the liveness object, are not shown. Error statuses for this operation are not shown.';
    expect(allDifferences(report).map(({ path, guess }) => ({ path, guess }))).toEqual([
      { path: '$.session_record.created_at', guess: undefined },
      { path: '$.step_id', guess: undefined },
      { path: '$.step_status', guess: stepGuess },
    ]);
    expect(report.onGuesses).toBe(1);
    for (const format of COVERAGE_FORMATS) {
      const rendered = renderDriftReport(report, format, { at: '2026-02-01T10:00:00.000Z', hostname: 'localhost' });
      expect(rendered, format).toContain('Response fields other than step_id');
      if (format !== 'json') expect(rendered, format).toContain('1 of the differences fall on parts the API reference does not show');
    }
  });
});
