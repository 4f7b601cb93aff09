/**
 * Property: every timestamp of a session record lies between the events that bound it, over many
 * sessions and outcomes (live sessions driven at seeded random delays, and sandbox-key sessions derived
 * from many ids). Issue: applicantViewTime came before created_at when the session was submitted soon
 * after creation.
 */
import { describe, expect, it } from 'vitest';
import { rngFrom } from '../../src/platform/random/random.ts';
import { CONTROL_OUTCOMES } from '../../src/sessions/sessions.schemas.ts';
import { KEYS, testSandbox } from '../helpers/sandbox.ts';
import { actionOf, createSession, getSession, JANE, openPage, press } from './route-helpers.ts';

const RUNS = Number(process.env.TIMESTAMP_PROPERTY_RUNS ?? 60);

/** Each ordering violation of the record's timestamps, as `a > b` strings. */
function orderViolations(record: any): string[] {
  const at = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso));
  const violations: string[] = [];
  const notAfter = (earlierName: string, earlier: string | undefined, laterName: string, later: string | undefined) => {
    const a = at(earlier);
    const b = at(later);
    if (a !== undefined && b !== undefined && a > b) violations.push(`${earlierName} ${earlier} > ${laterName} ${later}`);
  };
  const meta = record.meta_data ?? {};
  notAfter('created_at', record.created_at, 'updated_at', record.updated_at);
  notAfter('created_at', record.created_at, 'applicantViewTime', meta.applicantViewTime);
  notAfter('applicantViewTime', meta.applicantViewTime, 'submitted_at', record.submitted_at);
  notAfter('submitted_at', record.submitted_at, 'updated_at', record.updated_at);
  notAfter('applicantViewTime', meta.applicantViewTime, 'updated_at', record.updated_at);
  notAfter('created_at', record.created_at, 'declinedAt', meta.declinedData?.declinedAt);
  notAfter('declinedAt', meta.declinedData?.declinedAt, 'updated_at', record.updated_at);
  for (const attempt of meta.failureData?.attempts ?? []) {
    notAfter('created_at', record.created_at, 'failedAt', attempt.failedAt);
    notAfter('failedAt', attempt.failedAt, 'updated_at', record.updated_at);
  }
  return violations;
}

describe('the timestamps of a session record are in order', () => {
  it(`holds for ${RUNS} live sessions driven to every outcome after seeded random delays (0 s included)`, async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const rng = rngFrom('timestamp-order-property');
    const seen = new Set<string>();
    for (let run = 0; run < RUNS; run += 1) {
      const created = await sandbox.call('POST', '/v1/sessions', { body: { email: `p${run}@example.com`, firstName: 'Pat', lastName: `Doe${run}` } });
      expect(created.status).toBe(200);
      const outcomes = [rng.pick(CONTROL_OUTCOMES), rng.pick(['VERIFIED', 'REJECTED', 'VOIDED'] as const)];
      for (const outcome of outcomes) {
        // Half of the runs act at once: the case that put the view before the creation.
        if (rng.chance(0.5)) sandbox.clock.advance(rng.int(1, 3_600) * 1000);
        const driven = await sandbox.call('POST', `/__sandbox/sessions/${created.body.id}/outcome`, { key: null, body: { outcome } });
        if (driven.status === 200) seen.add(outcome);
      }
      const record = (await sandbox.call('GET', `/v1/sessions/${created.body.id}`)).body.session_record;
      expect(orderViolations(record), `run ${run}: ${outcomes.join(' then ')}`).toEqual([]);
    }
    expect(seen.size).toBeGreaterThanOrEqual(5);
  });

  it(`holds for ${RUNS * 3} sandbox-key sessions, the documented test identifiers included`, async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const ids = [
      'test_verified',
      'test_rejected',
      'test_submitted',
      'test_pending',
      'test_voided',
      'test_failed',
      ...Array.from({ length: RUNS * 3 }, (_, i) => `property-${i}`),
    ];
    for (const id of ids) {
      const record = (await sandbox.call('GET', `/v1/sessions/${id}`, { key: KEYS.sandbox })).body.session_record;
      expect(orderViolations(record), id).toEqual([]);
    }
  });

  it('the checker itself reports a view before the creation', () => {
    expect(
      orderViolations({
        created_at: '2026-01-15T09:30:00.000Z',
        updated_at: '2026-01-15T09:30:00.000Z',
        meta_data: { applicantViewTime: '2026-01-15T09:25:00.000Z' },
      }),
    ).toEqual(['created_at 2026-01-15T09:30:00.000Z > applicantViewTime 2026-01-15T09:25:00.000Z']);
  });

  it('takes applicantViewTime from the moment the applicant really opened the hosted page', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const created = await createSession(sandbox, { ...JANE, redirectUrl: 'https://example.com/kyc/done' });
    sandbox.clock.advance(90_000);
    const openedAt = new Date(sandbox.clock.now()).toISOString();
    const page = await openPage(sandbox, created.session_url);
    expect(page.status).toBe(200);
    sandbox.clock.advance(3_600_000);
    // A second look at the page is not the first opening.
    expect((await openPage(sandbox, created.session_url)).status).toBe(200);
    sandbox.clock.advance(600_000);
    expect((await press(sandbox, actionOf(page.html), 'success')).status).toBe(303);
    const record = (await getSession(sandbox, created.id)).session_record as any;
    expect(record.meta_data.applicantViewTime).toBe(openedAt);
    expect(orderViolations(record)).toEqual([]);
  });
});
