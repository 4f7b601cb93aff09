/** TITLE_SEARCH on a hosted workflow session: `{address}` through the title engine, each of its four results. */
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../../helpers/sandbox.ts';
import { expectBadBody, expectFailedAttempt, expectHeadlessRefusal, hostedSession, sessionRecord, submitOk } from './hosted.ts';

const FOUND = '1 Sandbox Way, Springfield, IL 62701';

describe('TITLE_SEARCH step', () => {
  it('completes for a found property, the applicant as first owner, and records title_search_data', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['TITLE_SEARCH']);
    const envelope = await submitOk(sandbox, sessionId, 'TITLE_SEARCH', { address: FOUND });
    expect(envelope).toMatchObject({ step_status: 'COMPLETED', session_status: 'VERIFIED', title_search: { status: 'found', owner_matches_applicant: true } });
    const data = (await sessionRecord(sandbox, sessionId)).analysis_data.title_search_data;
    expect(data.status).toBe('found');
    expect(data.ownerInformation.Owner1LastName).toBe('DOE');
  });

  for (const [address, code, status] of [
    ['404 Nowhere Lane, Springfield, IL 62701', 'TITLE_NOT_FOUND', 'not_found'],
    ['2 Sandbox Towers, Springfield, IL 62701', 'TITLE_MULTIPLE_PROPERTIES', 'multiple_properties'],
    ['221B Baker Street, London NW1 6XE, United Kingdom', 'TITLE_UNSUPPORTED_REGION', 'unsupported_region'],
  ] as const) {
    it(`fails the attempt with ${code} for ${address}`, async () => {
      const sandbox = await testSandbox({ rateLimit: false });
      const sessionId = await hostedSession(sandbox, ['TITLE_SEARCH']);
      const envelope = await submitOk(sandbox, sessionId, 'TITLE_SEARCH', { address });
      expectFailedAttempt(envelope, code);
      expect(envelope.failure_reason).toBe('TITLE_NOT_VERIFIED');
      expect(envelope.title_search.status).toBe(status);
      expect((await sessionRecord(sandbox, sessionId)).meta_data.failureData.attempts).toHaveLength(1);
    });
  }

  it('changes its result with the address: a unit of the multi-unit building is found on the retry', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['TITLE_SEARCH']);
    const multiple = await submitOk(sandbox, sessionId, 'TITLE_SEARCH', { address: '2 Sandbox Towers, Springfield, IL 62701' });
    expect(multiple.title_search.availableUnits).toContain('1A');
    const unit = await submitOk(sandbox, sessionId, 'TITLE_SEARCH', { address: FOUND });
    expect(unit).toMatchObject({ step_status: 'COMPLETED', attempts_remaining: 2 });
  });

  it('answers 400 naming the client field for bad bodies, storing nothing', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const sessionId = await hostedSession(sandbox, ['TITLE_SEARCH']);
    await expectBadBody(sandbox, sessionId, 'TITLE_SEARCH', {}, 'address');
    await expectBadBody(sandbox, sessionId, 'TITLE_SEARCH', { address: '' }, 'address');
    await expectBadBody(sandbox, sessionId, 'TITLE_SEARCH', { address: 'x'.repeat(501) }, 'address');
    await expectBadBody(sandbox, sessionId, 'TITLE_SEARCH', { address: FOUND, first_name: 'Jane' }, 'first_name');
  });

  it('is refused by a headless session', async () => {
    await expectHeadlessRefusal(await testSandbox({ rateLimit: false }), 'TITLE_SEARCH', { address: FOUND });
  });
});
