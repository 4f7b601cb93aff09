/**
 * AML enrolment over HTTP: every row of the spec's 'Monitored user' table, the bot and subject checks,
 * camelCase, the sandbox key (full validation, nothing stored) and the control plane's list and remove.
 */
import { describe, expect, it } from 'vitest';
import { MonitoredUserSchema } from '../../src/aml/aml.schemas.ts';
import { FROZEN_AT, KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const enrol = (sandbox: TestSandbox, bot: string, body: unknown, key?: string) =>
  sandbox.call('POST', `/v1/aml/bots/${bot}/monitored-users`, { body, ...(key === undefined ? {} : { key }) });
const listed = async (sandbox: TestSandbox, query = '') => {
  const answer = await sandbox.call('GET', `/__sandbox/organizations/org_demo/aml/monitored-users${query}`, { key: null });
  expect(answer.status).toBe(200);
  return answer.body.monitored_users as unknown[];
};
const DAY = 86_400_000;
const at = (ms: number) => new Date(Date.parse(FROZEN_AT) + ms).toISOString();

describe('the monitored-user state table', () => {
  it('none -> add -> active (201), with cadence, schedule, subject facts and the key id', async () => {
    const sandbox = await testSandbox();
    const answer = await enrol(sandbox, 'bot_daily', { subject_user_id: 'cust_001' });
    expect(answer.status).toBe(201);
    expect(MonitoredUserSchema.parse(answer.body)).toEqual({
      org_id: 'org_demo',
      bot_id: 'bot_daily',
      subject_user_id: 'cust_001',
      subject_user_name: 'Alice Martin',
      subject_country: 'GB',
      status: 'active',
      cadence_days: 1,
      next_check_at: at(DAY),
      last_checked_at: null,
      added_at: FROZEN_AT,
      added_by: 'key_live_demo',
      updated_at: FROZEN_AT,
    });
    expect(await listed(sandbox)).toEqual([answer.body]);
  });

  it('active -> add -> active (200): the existing enrolment unchanged, schedule not reset', async () => {
    const sandbox = await testSandbox();
    const first = await enrol(sandbox, 'bot_daily', { subject_user_id: 'cust_002' });
    sandbox.clock.advance(3 * 3_600_000);
    const again = await enrol(sandbox, 'bot_daily', { subjectUserId: 'cust_002' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.body.next_check_at).toBe(at(DAY));
  });

  it('removed -> add -> active: reactivated (201), schedule restarted from now', async () => {
    const sandbox = await testSandbox();
    await enrol(sandbox, 'bot_daily', { subject_user_id: 'cust_001' });
    sandbox.clock.advance(2 * DAY);
    const removed = await sandbox.call('DELETE', '/__sandbox/organizations/org_demo/aml/bots/bot_daily/monitored-users/cust_001', { key: null });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ removed: true, monitored_user: { status: 'removed', updated_at: at(2 * DAY) } });
    expect(await listed(sandbox, '?status=active')).toEqual([]);
    expect((await sandbox.call('DELETE', '/__sandbox/organizations/org_demo/aml/bots/bot_daily/monitored-users/cust_001', { key: null })).body.removed).toBe(
      false,
    );

    sandbox.clock.advance(DAY);
    const back = await enrol(sandbox, 'bot_daily', { subject_user_id: 'cust_001' });
    expect(back.status).toBe(201);
    expect(back.body).toMatchObject({ status: 'active', added_at: FROZEN_AT, updated_at: at(3 * DAY), next_check_at: at(4 * DAY) });
    expect(await listed(sandbox, '?status=active')).toHaveLength(1);
  });
});

describe('enrolment rules', () => {
  it('a real-time bot checks now (cadence 0); an unknown country is XX and an unknown name null', async () => {
    const sandbox = await testSandbox();
    const answer = await enrol(sandbox, 'bot_realtime', { subject_user_id: 'cust_003' });
    expect(answer.body).toMatchObject({ cadence_days: 0, next_check_at: FROZEN_AT, subject_user_name: null, subject_country: 'XX' });
  });

  it("a session's external_id is a known subject: the applicant's name, and the submission country once submitted", async () => {
    const sandbox = await testSandbox();
    const session = await sandbox.call('POST', '/v1/sessions', {
      body: { first_name: 'Jo', last_name: 'Ray', email: 'jo@example.com', external_id: 'player-77' },
    });
    expect((await enrol(sandbox, 'bot_daily', { subject_user_id: 'player-77' })).body).toMatchObject({ subject_user_name: 'Jo Ray', subject_country: 'XX' });
    await sandbox.call('POST', `/__sandbox/sessions/${session.body.id}/outcome`, { key: null, body: { outcome: 'SUBMITTED' } });
    expect((await enrol(sandbox, 'bot_realtime', { subject_user_id: 'player-77' })).body).toMatchObject({ subject_user_name: 'Jo Ray', subject_country: 'US' });
  });

  it('camelCase is accepted and wins over snake_case', async () => {
    const sandbox = await testSandbox();
    const answer = await enrol(sandbox, 'bot_daily', { subject_user_id: 'unknown-subject', subjectUserId: 'cust_002' });
    expect(answer.status).toBe(201);
    expect(answer.body.subject_user_id).toBe('cust_002');
  });

  it('404 for a bot or subject outside the organization; 400 BOT_CADENCE_INVALID; 400 for a missing subject or malformed bot id; nothing stored', async () => {
    const sandbox = await testSandbox();
    const cases: [string, unknown, number, string, string?][] = [
      ['bot_nope', { subject_user_id: 'cust_001' }, 404, 'Bot bot_nope was not found'],
      ['bot_daily', { subject_user_id: 'stranger' }, 404, 'Subject stranger is not known'],
      ['bot_misconfigured', { subject_user_id: 'cust_001' }, 400, 'unusable check interval', 'BOT_CADENCE_INVALID'],
      ['bot_daily', {}, 400, 'subject_user_id (or subjectUserId) is required'],
      ['bot_daily', { subject_user_id: '  ' }, 400, 'subject_user_id must not be empty'],
      ['bot%20daily', { subject_user_id: 'cust_001' }, 400, 'bot_id must be'],
    ];
    for (const [bot, body, status, message, code] of cases) {
      const answer = await enrol(sandbox, bot, body);
      expect(answer.status, `${bot} ${JSON.stringify(body)}`).toBe(status);
      expect(answer.body.error).toContain(message);
      if (code !== undefined) expect(answer.body.code).toBe(code);
    }
    // Another organization's key does not see org_demo's bots.
    expect((await enrol(sandbox, 'bot_daily', { subject_user_id: 'cust_001' }, KEYS.other)).status).toBe(404);
    expect(await listed(sandbox)).toEqual([]);
  });

  it('a sandbox key: full validation, a realistic enrolment, nothing stored', async () => {
    const sandbox = await testSandbox();
    const answer = await enrol(sandbox, 'bot_daily', { subject_user_id: 'cust_001' }, KEYS.sandbox);
    expect(answer.status).toBe(201);
    expect(MonitoredUserSchema.parse(answer.body)).toMatchObject({
      subject_user_id: 'cust_001',
      status: 'active',
      added_by: 'key_test_demo',
      next_check_at: at(DAY),
    });
    expect((await enrol(sandbox, 'bot_daily', { subject_user_id: 'cust_001' }, KEYS.sandbox)).status).toBe(201);
    expect((await enrol(sandbox, 'bot_nope', { subject_user_id: 'cust_001' }, KEYS.sandbox)).status).toBe(404);
    expect((await enrol(sandbox, 'bot_daily', { subject_user_id: 'stranger' }, KEYS.sandbox)).status).toBe(404);
    expect((await enrol(sandbox, 'bot_misconfigured', { subject_user_id: 'cust_001' }, KEYS.sandbox)).body.code).toBe('BOT_CADENCE_INVALID');
    expect(await listed(sandbox)).toEqual([]);
    // The live key still enrols for the first time.
    expect((await enrol(sandbox, 'bot_daily', { subject_user_id: 'cust_001' })).status).toBe(201);
  });

  it('missing key 403, invalid or revoked 401', async () => {
    const sandbox = await testSandbox();
    expect((await sandbox.call('POST', '/v1/aml/bots/bot_daily/monitored-users', { key: null, body: { subject_user_id: 'cust_001' } })).status).toBe(403);
    expect((await enrol(sandbox, 'bot_daily', { subject_user_id: 'cust_001' }, 'sk_live_wrong_0000')).status).toBe(401);
    expect((await enrol(sandbox, 'bot_daily', { subject_user_id: 'cust_001' }, KEYS.revoked)).status).toBe(401);
  });
});

describe('control plane', () => {
  it('lists by bot and status, 404 for an unknown organization or enrolment, 400 for a bad status', async () => {
    const sandbox = await testSandbox();
    await enrol(sandbox, 'bot_daily', { subject_user_id: 'cust_001' });
    await enrol(sandbox, 'bot_realtime', { subject_user_id: 'cust_001' });
    expect(await listed(sandbox, '?bot_id=bot_realtime')).toMatchObject([{ bot_id: 'bot_realtime' }]);
    expect((await sandbox.call('GET', '/__sandbox/organizations/org_nope/aml/monitored-users', { key: null })).status).toBe(404);
    expect((await sandbox.call('GET', '/__sandbox/organizations/org_demo/aml/monitored-users?status=gone', { key: null })).status).toBe(400);
    expect((await sandbox.call('DELETE', '/__sandbox/organizations/org_demo/aml/bots/bot_daily/monitored-users/cust_002', { key: null })).status).toBe(404);
  });
});
