/**
 * Independent contract check (1/3): every answer of sessions, auth, financial and credit checks can be
 * read by the real client. Requests are sent as the client sends them and every 2xx body is parsed with
 * schemas written from real-client-facts.md alone (test/api/real-client/), never with the sandbox's own.
 * Screening and async jobs: real-client-contract-screening.test.ts; images and liveness:
 * real-client-contract-images.test.ts; workflows and workflow sessions: real-client-contract-workflows.test.ts;
 * errors and transport: real-client-errors.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { pageAddress } from '../helpers/hosted-pages.ts';
import { FROZEN_AT, KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';
import { RealClient, sdkErrorOf } from './real-client/client.ts';
import { operationCoverage } from './real-client/coverage.ts';

/** org_demo's workflows in fixtures/workflows.json (data, not schemas: listed here by id). */
const WORKFLOWS = {
  identity72h: '7d3f9c2a-4b1e-4f6a-9c8d-2e5b7a1f3c90',
  identityAndPhone: '2b8e4d61-9a3c-4e7f-b5d2-6c1a8f4e9b37',
  noExpiry: 'e41c7a95-3f2d-4b86-a0e9-8d5c2b7f1a64',
  bankStatements: 'c6f1e8b3-7d24-4a9e-8b51-3e0f9d7c2a46',
} as const;
const WORKFLOW_72H = WORKFLOWS.identity72h;
const WORKFLOW_BANK = WORKFLOWS.bankStatements;

const APPLICANT = { email: 'jane.doe@example.com', firstName: 'Jane', lastName: 'Doe' } as const;
const TEST_SESSION_IDS = ['test_verified', 'test_rejected', 'test_submitted', 'test_pending', 'test_voided', 'test_failed'] as const;

const { track } = operationCoverage([
  'auth.verify',
  'creditChecks.createHard',
  'creditChecks.createSoft',
  'financial.create',
  'financial.list',
  'financial.listByExternalId',
  'financial.retrieve',
  'sessions.create',
  'sessions.createUploadUrls',
  'sessions.list',
  'sessions.retrieve',
  'sessions.updateStatus',
]);

async function liveClient(): Promise<{ sandbox: TestSandbox; client: RealClient }> {
  const sandbox = await testSandbox({ rateLimit: false });
  return { sandbox, client: track(new RealClient(sandbox, KEYS.live)) };
}

function driveOutcome(sandbox: TestSandbox, id: string, outcome: string, extra: Record<string, unknown> = {}) {
  return sandbox.call('POST', `/__sandbox/sessions/${encodeURIComponent(id)}/outcome`, { key: null, body: { outcome, ...extra } });
}

describe('the real client reads every sessions answer', () => {
  it('sessions.create: a minimal body and a full camelCase body, optional keys omitted when not sent', async () => {
    const { client } = await liveClient();
    const minimal = await client.sessions.create(APPLICANT);
    expect(minimal.status).toBe(200);
    expect(minimal.raw).not.toHaveProperty('externalId');
    expect(minimal.data.links.map((link) => link.rel).sort()).toEqual(['admin_console', 'session_details']);

    const full = await client.sessions.create({
      ...APPLICANT,
      phone: '+14155550123',
      externalId: 'customer-1',
      sendEmailInvite: false,
      sendPhoneInvite: false,
      workflowId: WORKFLOW_72H,
      redirectUrl: 'https://app.example.com/done?x=1',
      expiresInHours: 48,
    });
    expect(full.data.externalId).toBe('customer-1');
    expect(full.data.expires_at).toBe(new Date(Date.parse(FROZEN_AT) + 48 * 3_600_000).toISOString());
    expect(full.data.id).not.toBe(minimal.data.id);
  });

  it('sessions.retrieve, list and updateStatus read a fresh session, its uploads map and every list mode', async () => {
    const { sandbox, client } = await liveClient();
    const created = await client.sessions.create({ ...APPLICANT, externalId: 'customer-2', workflowId: WORKFLOW_72H });
    const fresh = await client.sessions.retrieve(created.data.id);
    expect(fresh.data.session_record).toMatchObject({ id: created.data.id, status: 'PENDING', external_id: 'customer-2', workflow_id: WORKFLOW_72H });
    expect(Object.keys(fresh.data.resource_links).length).toBeGreaterThan(0);

    // Session uploads: a named slot and a free slot, then the bytes for the named one.
    const uploads = await client.sessions.createUploadUrls(created.data.id, [
      { file_name: 'front.jpg', content_type: 'image/jpeg', upload_type: 'id_front' },
      { file_name: 'letter.pdf', content_type: 'application/pdf', slot: 'employment_letter' },
    ]);
    expect(uploads.data.signed_urls.map((url) => [url.slot, url.upload_type])).toEqual([
      ['id_front', 'id_front'],
      ['employment_letter', undefined],
    ]);
    const front = new URL(uploads.data.signed_urls[0]?.upload_url ?? '');
    const put = await sandbox.app.request(front.pathname + front.search, {
      method: 'PUT',
      headers: { 'content-type': 'image/jpeg' },
      body: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]),
    });
    expect(put.status).toBe(200);
    expect((await client.sessions.retrieve(created.data.id)).data.session_record.uploads?.id_front).toBe(true);

    // Every list mode, and paging with next_token.
    await client.sessions.create({ ...APPLICANT, email: 'second@example.com' });
    const byExternal = await client.sessions.list({ externalId: 'customer-2' });
    expect(byExternal.data.sessions.map((s) => s.id)).toEqual([created.data.id]);
    const byWorkflow = await client.sessions.list({ workflowId: WORKFLOW_72H });
    expect(byWorkflow.data.sessions.map((s) => s.id)).toEqual([created.data.id]);
    const firstPage = await client.sessions.list({ byOrganization: true, limit: 1 });
    expect(firstPage.data.sessions).toHaveLength(1);
    expect(typeof firstPage.data.next_token).toBe('string');
    const secondPage = await client.sessions.list({ byOrganization: true, limit: 1, nextToken: firstPage.data.next_token ?? '' });
    expect(secondPage.data.sessions).toHaveLength(1);
    expect(secondPage.data.sessions[0]?.id).not.toBe(firstPage.data.sessions[0]?.id);
    const mine = await client.sessions.list({ byOrganization: false });
    expect(mine.data.sessions).toHaveLength(2);
    const dated = await client.sessions.list({ startDate: '2026-01-01T00:00:00Z', endDate: '2026-12-31T00:00:00Z' });
    expect(dated.data.sessions).toHaveLength(2);
    const empty = await client.sessions.list({ externalId: 'nobody' });
    expect(empty.data).toEqual({ sessions: [], next_token: null });

    // updateStatus from PENDING, then the terminal refusal the client maps to ConflictError.
    const verified = await client.sessions.updateStatus(created.data.id, 'VERIFIED');
    expect(verified.data.session_record.status).toBe('VERIFIED');
    const conflict = await sdkErrorOf(client.sessions.updateStatus(created.data.id, 'REJECTED'));
    expect([conflict.className, conflict.status]).toEqual(['ConflictError', 409]);
    const refused = await sdkErrorOf(
      client.sessions.createUploadUrls(created.data.id, [{ file_name: 'a.jpg', content_type: 'image/jpeg', upload_type: 'id_back' }]),
    );
    expect(refused.status).toBe(409);
  });

  it('reads a session of every kind in every status the control plane can drive, single and listed', async () => {
    const { sandbox, client } = await liveClient();
    const outcomes = [
      { outcome: 'SUBMITTED', status: 'SUBMITTED' },
      { outcome: 'VERIFIED', status: 'VERIFIED' },
      { outcome: 'REJECTED', status: 'REJECTED' },
      { outcome: 'VOIDED', status: 'VOIDED' },
      { outcome: 'FAILED', status: 'FAILED' },
      { outcome: 'FAILED', status: 'FAILED', extra: { failed_attempts: 1 } },
      { outcome: 'abandoned', status: 'PENDING' },
      { outcome: 'expired', status: 'PENDING' },
    ];
    const phone = '+14155550123';
    const kinds: { label: string; create: (externalId: string) => Promise<string> }[] = [
      { label: 'standalone', create: async (externalId) => (await client.sessions.create({ ...APPLICANT, externalId })).data.id },
      ...Object.entries(WORKFLOWS).map(([label, workflowId]) => ({
        label,
        create: async (externalId: string) => (await client.sessions.create({ ...APPLICANT, phone, externalId, workflowId })).data.id,
      })),
      { label: 'credit hard', create: async (externalId) => (await client.creditChecks.createHard({ ...APPLICANT, phone, externalId })).data.id },
      {
        label: 'credit hard uat',
        create: async (externalId) =>
          (await client.creditChecks.createHard({ ...APPLICANT, phone, externalId, uat: true, uatType: 'BANKRUPTCY_PROPOSAL' })).data.id,
      },
      {
        label: 'credit soft uat',
        create: async (externalId) =>
          (await client.creditChecks.createSoft({ ...APPLICANT, phone, externalId, uat: true, uatType: 'COLLECTION_MULTIPLE' })).data.id,
      },
    ];
    const ids: string[] = [];
    for (const kind of kinds) {
      for (const [index, row] of outcomes.entries()) {
        const id = await kind.create(`${kind.label} ${index}`);
        const driven = await driveOutcome(sandbox, id, row.outcome, row.extra);
        expect(driven.status, `${kind.label} ${row.outcome}: ${driven.text}`).toBe(200);
        const read = await client.sessions.retrieve(id);
        expect(read.data.session_record.status, `${kind.label} ${row.outcome}`).toBe(row.status);
        expect(read.data.session_record.external_id).toBe(`${kind.label} ${index}`);
        ids.push(id);
      }
      // Submitted, then decided by the organization.
      const reviewed = await kind.create(`${kind.label} reviewed`);
      expect((await driveOutcome(sandbox, reviewed, 'SUBMITTED')).status).toBe(200);
      expect((await client.sessions.updateStatus(reviewed, 'VERIFIED')).data.session_record.status).toBe('VERIFIED');
      ids.push(reviewed);
    }
    // Auto-decline: a finished session ends REJECTED with meta_data.declinedData.
    expect((await sandbox.call('POST', '/__sandbox/scenarios/auto-decline/activate', { key: null })).status).toBe(200);
    for (const kind of kinds) {
      const declined = await kind.create(`${kind.label} declined`);
      expect((await driveOutcome(sandbox, declined, 'SUBMITTED')).status).toBe(200);
      const record = (await client.sessions.retrieve(declined)).data.session_record;
      expect(record.status, kind.label).toBe('REJECTED');
      ids.push(declined);
    }
    expect((await sandbox.call('POST', '/__sandbox/scenarios/auto-decline/deactivate', { key: null })).status).toBe(200);
    // Past every expiry, the list still reads every record of the organization, page by page.
    sandbox.clock.advance(400 * 3_600_000);
    const listed: string[] = [];
    let nextToken: string | undefined;
    do {
      const page = await client.sessions.list({ byOrganization: true, limit: 25, ...(nextToken ? { nextToken } : {}) });
      listed.push(...page.data.sessions.map((s) => s.id));
      nextToken = page.data.next_token ?? undefined;
    } while (nextToken);
    expect(listed.sort()).toEqual([...ids].sort());
    for (const id of ids) await client.sessions.retrieve(id);
  });

  it('reads the bank-statement workflow session, with its bank_statement_request_id', async () => {
    const { client } = await liveClient();
    const { data } = await client.sessions.create({ ...APPLICANT, phone: '+14155550123', workflowId: WORKFLOW_BANK });
    const record = (await client.sessions.retrieve(data.id)).data.session_record;
    expect(typeof record.bank_statement_request_id).toBe('string');
  });

  it('reads every sandbox-key answer: the test identifiers, hashed ids, odd ids and the list', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const client = track(new RealClient(sandbox, KEYS.sandbox));
    const statuses = new Set<string>();
    for (const id of TEST_SESSION_IDS) {
      const read = await client.sessions.retrieve(id);
      expect(read.data.session_record.status).toBe(id.slice('test_'.length).toUpperCase());
    }
    for (let n = 0; n < 40; n++) statuses.add((await client.sessions.retrieve(`sess_${n}`)).data.session_record.status);
    expect([...statuses].sort()).toEqual(['FAILED', 'PENDING', 'REJECTED', 'SUBMITTED', 'VERIFIED', 'VOIDED']);
    for (const odd of ['a/b c', 'customer 1/2026', 'ünïcødé?#&=%', '0f8c2d4e-5b6a-4c7d-8e9f-a1b2c3d4e5f6']) {
      const read = await client.sessions.retrieve(odd);
      expect(read.data.session_record.id).toBe(odd);
    }
    const list = await client.sessions.list();
    expect(list.data.sessions.map((s) => s.id)).toEqual(['test_verified', 'test_rejected', 'test_pending', 'test_submitted', 'test_voided']);
    expect(list.data.next_token).toBeNull();
    expect((await client.sessions.list({ byOrganization: true, limit: 2, externalId: 'x' })).data.sessions.length).toBeGreaterThan(0);
    const write = await sdkErrorOf(client.sessions.create(APPLICANT));
    expect([write.className, write.status]).toEqual(['AuthorizationError', 403]);
  });
});

describe('the real client reads auth, financial and credit-check answers', () => {
  it('auth.verify: valid is literally true for a live and a sandbox key', async () => {
    const { sandbox, client } = await liveClient();
    expect((await client.auth.verify()).data).toEqual({ valid: true, organization: { id: 'org_demo', name: 'Demo Org', status: 'active' } });
    expect((await track(new RealClient(sandbox, KEYS.sandbox)).auth.verify()).data.valid).toBe(true);
    const revoked = await sdkErrorOf(new RealClient(sandbox, KEYS.revoked).auth.verify());
    expect([revoked.className, revoked.status]).toEqual(['AuthenticationError', 401]);
  });

  it('financial: create, retrieve, list with nextToken and listByExternalId with an id that needs encoding', async () => {
    const { sandbox, client } = await liveClient();
    const applicant = { email: 'ana.silva@example.com', firstName: 'Ana', lastName: 'Silva', phone: '+14035550111' };
    const externalId = 'loan 42/2026 & co';
    const plain = await client.financial.create(applicant);
    expect(plain.raw).not.toHaveProperty('externalId');
    const tagged = await client.financial.create({ ...applicant, period: '6', externalId, sendEmailInvite: false, sendPhoneInvite: false });
    expect(tagged.data.externalId).toBe(externalId);
    const record = await client.financial.retrieve(tagged.data.bankStatementId);
    expect(record.data).toMatchObject({ id: tagged.data.bankStatementId, externalId, Config: { period: '6' } });
    const noExternal = await client.financial.retrieve(plain.data.bankStatementId);
    expect(noExternal.raw).not.toHaveProperty('externalId');

    // Link a bank on the hosted page so one record is COMPLETED with a statement.
    const link = await sandbox.app.request(pageAddress(tagged.data.bankStatementUrl, '/link'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ bank: 'TrueNorth', action: 'complete' }).toString(),
    });
    expect(link.status).toBeLessThan(400);
    // The record advances on the sandbox clock; the client must read every status on the way.
    const statuses: string[] = [];
    for (let step = 0; step < 4; step++) {
      statuses.push((await client.financial.retrieve(tagged.data.bankStatementId)).data.status);
      sandbox.clock.advance(2_000);
    }
    expect(statuses).toEqual(['IN_PROGRESS', 'FLINKS_IN_PROGRESS', 'FLINKS_IN_PROGRESS', 'COMPLETED']);
    const completed = await client.financial.retrieve(tagged.data.bankStatementId);
    expect(completed.data.statement).toBeDefined();

    const byExternal = await client.financial.listByExternalId(externalId);
    expect(byExternal.status).toBe(200);
    expect(byExternal.data.bankStatements.map((r) => r.id)).toEqual([tagged.data.bankStatementId]);
    expect(byExternal.data.nextToken).toBeNull();

    for (let n = 0; n < 30; n++) await client.financial.create({ ...applicant, email: `bulk${n}@example.com` });
    const seen: string[] = [];
    let nextToken: string | undefined;
    let pages = 0;
    do {
      const page = await client.financial.list(nextToken === undefined ? {} : { nextToken });
      expect(page.status).toBe(200);
      seen.push(...page.data.bankStatements.map((r) => r.id));
      nextToken = page.data.nextToken ?? undefined;
      pages += 1;
    } while (nextToken !== undefined && pages < 20);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(32);
    const unknownExternal = await client.financial.listByExternalId('nobody/at all');
    expect(unknownExternal.data).toEqual({ bankStatements: [], nextToken: null });
  });

  it('financial with a sandbox key: every test identifier and the list', async () => {
    const sandbox = await testSandbox({ rateLimit: false });
    const client = track(new RealClient(sandbox, KEYS.sandbox));
    for (const id of ['test_completed', 'test_pending', 'test_in_progress', 'test_flinks_in_progress', 'test_upload_completed']) {
      const read = await client.financial.retrieve(id);
      expect(read.data.id).toBe(id);
    }
    expect((await client.financial.retrieve('test_completed')).data.statement).toBeDefined();
    const list = await client.financial.list();
    expect(list.data.bankStatements.length).toBeGreaterThan(0);
    await client.financial.listByExternalId('any/external id');
  });

  it('creditChecks.createHard and createSoft, with and without the optional camelCase keys', async () => {
    const { client } = await liveClient();
    const applicant = { email: 'sam.lee@example.com', firstName: 'Sam', lastName: 'Lee', phone: '+14165550100' };
    const hard = await client.creditChecks.createHard(applicant);
    expect(hard.data.type).toBe('credit-check-hard');
    expect(hard.raw).not.toHaveProperty('externalId');
    const soft = await client.creditChecks.createSoft({
      ...applicant,
      externalId: 'applicant/7',
      sendEmailInvite: false,
      sendPhoneInvite: false,
      redirectUrl: 'https://app.example.com/credit',
      uat: true,
      uatType: 'STANDARD_HIT',
    });
    expect(soft.data).toMatchObject({ type: 'credit-check-soft', externalId: 'applicant/7' });
    await client.creditChecks.createHard({ ...applicant, uat: true, uatType: 'DEATH_NOTICE' });
    const broke = await sdkErrorOf(new RealClient(await testSandbox(), KEYS.broke).creditChecks.createHard(applicant));
    expect([broke.className, broke.status]).toEqual(['InsufficientFundsError', 402]);
  });
});
