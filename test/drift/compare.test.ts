import { describe, expect, it } from 'vitest';
import { compareAnswers } from '../../src/drift/compare.ts';
import { buildDriftReport, driftJunit } from '../../src/drift/drift-report.ts';
import type { Exchange } from '../../src/drift/recording.ts';
import { keyMapping } from '../../src/drift/replayer.ts';
import { junitSchemaErrors } from '../coverage/junit-schemas.ts';

const json = { 'content-type': 'application/json; charset=utf-8' };

describe('comparing two answers', () => {
  it('compares the headers clients read by presence and kind, not by value', () => {
    const recorded = {
      status: 429,
      headers: { ...json, 'retry-after': '2', 'x-ratelimit-limit': '35', 'x-ratelimit-remaining': '0', 'x-request-id': 'req_1' },
      body: '{"error":"Too many"}',
    };
    const same = {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '7', 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '0', 'x-request-id': 'req_9' },
      body: '{"error":"Slow down"}',
    };
    expect(compareAnswers(recorded, same)).toEqual([]);
    const other = {
      status: 429,
      headers: { 'content-type': 'text/plain', 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT', 'x-ratelimit-limit': '35', 'idempotent-replayed': 'true' },
      body: 'slow down',
    };
    expect(compareAnswers(recorded, other)).toEqual([
      { kind: 'content-type', path: 'content-type', recorded: 'application/json', sandbox: 'text/plain' },
      { kind: 'header', path: 'header idempotent-replayed', recorded: 'absent', sandbox: 'true' },
      { kind: 'header', path: 'header retry-after', recorded: 'integer', sandbox: 'http-date' },
      { kind: 'header', path: 'header x-ratelimit-remaining', recorded: 'integer', sandbox: 'absent' },
      { kind: 'type', path: '$', recorded: 'json', sandbox: 'not json' },
    ]);
  });

  it('compares ids, dates and free text by type, enum-like fields by value, array items pairwise', () => {
    const recorded = {
      id: 'a1b2',
      created_at: '2026-01-01T00:00:00Z',
      message: 'Queued.',
      status: 'pending',
      items: [{ verdict: 'PASS' }, { verdict: 'PASS' }],
    };
    const sandbox = {
      id: 'zz99',
      created_at: '2027-05-05T10:00:00Z',
      message: 'Job accepted.',
      status: 'pending',
      items: [{ verdict: 'PASS' }, { verdict: 'REVIEW' }, { verdict: 'x' }],
    };
    const answer = (body: unknown) => ({ status: 200, headers: json, body: JSON.stringify(body) });
    expect(compareAnswers(answer(recorded), answer(sandbox))).toEqual([{ kind: 'value', path: '$.items[1].verdict', recorded: 'PASS', sandbox: 'REVIEW' }]);
  });
});

const exchange = (number: number, key: string, status: number): Exchange => ({
  number,
  request: { method: 'GET', url: '/v1/auth/verify', headers: { 'x-api-key': key } },
  response: { status, headers: {} },
});

describe('mapping recorded keys to fixture keys', () => {
  it('maps by kind: live keys in order of use, sandbox keys to the sandbox key, a key only ever refused to the revoked key', () => {
    const mapping = keyMapping([
      exchange(1, 'sk_live_mine', 200),
      exchange(2, 'sk_test_mine', 200),
      exchange(3, 'sk_live_partner', 403),
      exchange(4, 'sk_live_old', 401),
      exchange(5, 'sk_live_mine', 401),
    ]);
    expect(Object.fromEntries(mapping)).toEqual({
      sk_live_mine: 'sk_live_demo',
      sk_test_mine: 'sk_test_demo',
      sk_live_partner: 'sk_live_other',
      sk_live_old: 'sk_live_revoked',
    });
  });
});

describe('the JUnit drift report', () => {
  it('is valid against the Jenkins and Ant schemas, drift and unserved requests failing', async () => {
    const report = buildDriftReport({
      replayed: [
        {
          number: 1,
          operation: { method: 'GET', template: '/v1/sessions/{id}' },
          differences: [{ kind: 'missing', path: '$.a', recorded: 'string', sandbox: 'absent' }],
        },
        { number: 2, operation: { method: 'POST', template: '/v1/sessions' }, differences: [] },
      ],
      unserved: [{ number: 3, method: 'GET', path: '/v1/audit' }],
    });
    const junit = driftJunit(report, { at: '2026-02-01T10:00:00.000Z', hostname: 'localhost' });
    expect(await junitSchemaErrors(junit, 'jenkins')).toEqual([]);
    expect(await junitSchemaErrors(junit, 'ant')).toEqual([]);
    expect(junit).toContain('tests="3" failures="2"');
    expect(junit).toContain('missing at $.a: recorded string, sandbox absent (exchanges 1)');
  });
});
