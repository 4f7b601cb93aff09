import { describe, expect, it } from 'vitest';
import { senderUserIdFor } from '../../src/sessions/session-record.ts';
import { CreateSessionResponseSchema } from '../../src/sessions/sessions.schemas.ts';
import { FROZEN_AT, KEYS, testSandbox } from '../helpers/sandbox.ts';
import { addMs } from './helpers.ts';
import { balanceOf, BASE, createSession, expectNoNulls, getSession, HOUR, JANE, listAll, UUID_V4, WORKFLOWS } from './route-helpers.ts';

describe('POST /v1/sessions', () => {
  it('answers exactly id, session_url, externalId, expires_at and the two links, and charges one token', async () => {
    const sandbox = await testSandbox();
    const response = await sandbox.call('POST', '/v1/sessions', {
      body: { ...JANE, externalId: 'cust-42', redirectUrl: 'https://example.com/done?step=2', expiresInHours: 5 },
    });
    expect(response.status).toBe(200);
    const body = CreateSessionResponseSchema.parse(response.body);
    expect(body.id).toMatch(UUID_V4);
    expect(response.body).toEqual({
      id: body.id,
      session_url: `${BASE}/verify/${body.id}?oid=org_demo&redirect_url=https%3A%2F%2Fexample.com%2Fdone%3Fstep%3D2&token=${sandbox.pageToken(body.id)}`,
      externalId: 'cust-42',
      expires_at: addMs(FROZEN_AT, 5 * HOUR),
      links: [
        { rel: 'admin_console', href: `${BASE}/console/sessions/${body.id}`, description: 'View and review this session in the admin console' },
        { rel: 'session_details', href: `${BASE}/v1/sessions/${body.id}`, description: 'Retrieve this session and its results through the API' },
      ],
    });
    expect(Object.keys(response.body)).toEqual(['id', 'session_url', 'externalId', 'expires_at', 'links']);
    expect(response.headers.get('x-sandbox-explain')).toContain('1 token charged, balance 999');
    expect(await balanceOf(sandbox)).toBe(999);
  });

  it('leaves externalId and expires_at out when none was given and no workflow expiry applies', async () => {
    const sandbox = await testSandbox();
    const body = await createSession(sandbox, JANE);
    expect(Object.keys(body)).toEqual(['id', 'session_url', 'links']);
    expect(body.session_url).toBe(`${BASE}/verify/${body.id}?oid=org_demo&token=${sandbox.pageToken(body.id)}`);
    const noExpiryWorkflow = await createSession(sandbox, { ...JANE, workflowId: WORKFLOWS.noExpiry });
    expect(noExpiryWorkflow).not.toHaveProperty('expires_at');
  });

  it('stores the full record, the applicant from the request and the sender from the organization', async () => {
    const sandbox = await testSandbox();
    const created = await createSession(sandbox, {
      first_name: 'Jane',
      last_name: 'Doe',
      email: 'jane.doe@example.com',
      phone: '+14155550123',
      external_id: 'cust-7',
      workflow_id: WORKFLOWS.identity72h,
      redirect_url: 'https://example.com/cb',
    });
    const { session_record: record, user, sender_user: sender, resource_links: links } = await getSession(sandbox, created.id);
    expect(record).toEqual({
      id: created.id,
      organization_id: 'org_demo',
      user_id: user.id,
      sender_user_id: senderUserIdFor('org_demo'),
      status: 'PENDING',
      type: 'session',
      session_progress: 'PENDING',
      created_at: FROZEN_AT,
      updated_at: FROZEN_AT,
      external_id: 'cust-7',
      workflow_id: WORKFLOWS.identity72h,
      workflow_steps: ['id-verification', 'face-liveness'],
      meta_data: {},
      uploads: {
        id_front: false,
        id_back: false,
        secondary_id_front: false,
        secondary_id_back: false,
        tertiary_id_front: false,
        tertiary_id_back: false,
        selfie_front: false,
        selfie_right: false,
        selfie_left: false,
        hold_up_3_fingers: false,
      },
      redirect_url: 'https://example.com/cb',
      expires_at: addMs(FROZEN_AT, 72 * HOUR),
    });
    expect(user).toEqual({
      id: user.id,
      email: 'jane.doe@example.com',
      first_name: 'Jane',
      last_name: 'Doe',
      phone: '+14155550123',
      created_at: FROZEN_AT,
      updated_at: FROZEN_AT,
    });
    expect(user.id).toMatch(UUID_V4);
    expect(sender.id).toBe(senderUserIdFor('org_demo'));
    expect(sender.email).toMatch(/@demo-org\.example$/);
    expect(links).toEqual({
      session_url: created.session_url,
      admin_console: `${BASE}/console/sessions/${created.id}`,
      session_details: `${BASE}/v1/sessions/${created.id}`,
    });
  });

  it('lets camelCase win over snake_case, without even validating the shadowed snake value', async () => {
    const sandbox = await testSandbox();
    const created = await createSession(sandbox, {
      ...JANE,
      first_name: 42,
      firstName: 'Janet',
      external_id: 'snake',
      externalId: 'camel',
      expires_in_hours: 0,
      expiresInHours: 2,
    });
    expect(created.externalId).toBe('camel');
    expect(created.expires_at).toBe(addMs(FROZEN_AT, 2 * HOUR));
    const { user, session_record: record } = await getSession(sandbox, created.id);
    expect(user.first_name).toBe('Janet');
    expect(record.external_id).toBe('camel');
  });

  it("applies the workflow's expiry, and expires_in_hours overrides it", async () => {
    const sandbox = await testSandbox();
    const fromWorkflow = await createSession(sandbox, { ...JANE, workflowId: WORKFLOWS.identity72h });
    expect(fromWorkflow.expires_at).toBe(addMs(FROZEN_AT, 72 * HOUR));
    const overridden = await createSession(sandbox, { ...JANE, workflowId: WORKFLOWS.identity72h, expiresInHours: 1 });
    expect(overridden.expires_at).toBe(addMs(FROZEN_AT, HOUR));
    const onNoExpiryWorkflow = await createSession(sandbox, { ...JANE, workflowId: WORKFLOWS.noExpiry, expiresInHours: 8760 });
    expect(onNoExpiryWorkflow.expires_at).toBe(addMs(FROZEN_AT, 8760 * HOUR));
  });

  it('requires a phone when the workflow has a PHONE_VERIFICATION step, and stores nothing without one', async () => {
    const sandbox = await testSandbox();
    const refused = await sandbox.call('POST', '/v1/sessions', { body: { ...JANE, workflowId: WORKFLOWS.identityAndPhone } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/"phone" is required because workflow 2b8e4d61-9a3c-4e7f-b5d2-6c1a8f4e9b37 has a PHONE_VERIFICATION step/);
    expect(await listAll(sandbox)).toEqual([]);
    expect(await balanceOf(sandbox)).toBe(1000);
    const accepted = await createSession(sandbox, { ...JANE, workflowId: WORKFLOWS.identityAndPhone, phone: '+447700900123' });
    expect(accepted.expires_at).toBe(addMs(FROZEN_AT, 168 * HOUR));
  });

  it('creates a bank-statement request for a workflow with BANK_STATEMENT_UPLOAD and points bank_statement_request_id at it', async () => {
    const sandbox = await testSandbox();
    const refused = await sandbox.call('POST', '/v1/sessions', { body: { ...JANE, workflowId: WORKFLOWS.bankStatements } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/"phone" is required because workflow c6f1e8b3-7d24-4a9e-8b51-3e0f9d7c2a46 has a BANK_STATEMENT_UPLOAD step/);

    const created = await createSession(sandbox, { ...JANE, workflowId: WORKFLOWS.bankStatements, phone: '+14155550123', externalId: 'loan-77' });
    const { session_record: record } = await getSession(sandbox, created.id);
    expect(record.bank_statement_request_id).toMatch(UUID_V4);
    const statement = await sandbox.call('GET', `/v1/financial/${record.bank_statement_request_id}`);
    expect(statement.status).toBe(200);
    expect(statement.body).toMatchObject({
      id: record.bank_statement_request_id,
      organizationId: 'org_demo',
      userId: record.user_id,
      senderUserId: record.sender_user_id,
      externalId: 'loan-77',
      status: 'PENDING',
      type: 'request',
    });
    // One token for the session; the linked request is part of it.
    expect(await balanceOf(sandbox)).toBe(999);
    // A session without that step has no bank_statement_request_id.
    const plain = await createSession(sandbox, { ...JANE, workflowId: WORKFLOWS.identity72h });
    expect((await getSession(sandbox, plain.id)).session_record).not.toHaveProperty('bank_statement_request_id');
  });

  it('answers 404 for an unknown workflow and for another organization’s workflow', async () => {
    const sandbox = await testSandbox();
    for (const workflowId of ['6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b', WORKFLOWS.otherOrganization]) {
      const response = await sandbox.call('POST', '/v1/sessions', { body: { ...JANE, workflowId } });
      expect(response.status).toBe(404);
      expect(response.body.error).toBe(
        `Workflow ${workflowId} was not found in your organization: send the id of one of your workflows as workflow_id, or omit it for a standalone verification.`,
      );
    }
    expect(await listAll(sandbox)).toEqual([]);
    const other = await sandbox.call('POST', '/v1/sessions', { key: KEYS.other, body: { ...JANE, workflowId: WORKFLOWS.otherOrganization } });
    expect(other.status).toBe(200);
  });

  it('answers 402 with an empty balance and stores nothing', async () => {
    const sandbox = await testSandbox();
    const response = await sandbox.call('POST', '/v1/sessions', { key: KEYS.broke, body: JANE });
    expect(response.status).toBe(402);
    expect(response.body.error).toMatch(/^Insufficient funds or subscription/);
    const list = await sandbox.call('GET', '/v1/sessions?by_organization=true', { key: KEYS.broke });
    expect(list.body).toEqual({ sessions: [], next_token: null });
  });

  it('refuses sandbox keys (403) and missing or revoked keys (401)', async () => {
    const sandbox = await testSandbox();
    const sandboxKey = await sandbox.call('POST', '/v1/sessions', { key: KEYS.sandbox, body: JANE });
    expect(sandboxKey.status).toBe(403);
    expect(sandboxKey.body.error).toMatch(/live API key is needed/);
    expect((await sandbox.call('POST', '/v1/sessions', { key: null, body: JANE })).status).toBe(401);
    expect((await sandbox.call('POST', '/v1/sessions', { key: KEYS.revoked, body: JANE })).status).toBe(401);
    expect(await listAll(sandbox)).toEqual([]);
  });

  const INVALID: [string, unknown, RegExp][] = [
    ['first_name missing', { lastName: 'Doe', email: 'a@example.com' }, /body field first_name \(or firstName\) is required/],
    ['last_name missing', { firstName: 'Jane', email: 'a@example.com' }, /body field last_name \(or lastName\) is required/],
    ['email missing', { firstName: 'Jane', lastName: 'Doe' }, /body field email is required/],
    ['email invalid', { ...JANE, email: 'nope' }, /body field email must be a valid e-mail address/],
    ['firstName empty', { ...JANE, firstName: '' }, /body field firstName must not be empty/],
    ['lastName too long', { ...JANE, lastName: 'x'.repeat(256) }, /body field lastName must be at most 255 characters/],
    ['phone not E.164', { ...JANE, phone: '07700900123' }, /body field phone must be in E.164 format/],
    ['phone null', { ...JANE, phone: null }, /body field phone .*got null \(omit the key instead of sending null\)/],
    ['redirectUrl http', { ...JANE, redirectUrl: 'http://example.com/cb' }, /body field redirectUrl must be a valid https:\/\/ URL/],
    ['redirect_url not a URL', { ...JANE, redirect_url: 'example.com' }, /body field redirect_url must be a valid https:\/\/ URL/],
    ['expiresInHours 0', { ...JANE, expiresInHours: 0 }, /body field expiresInHours must be at least 1/],
    ['expires_in_hours 8761', { ...JANE, expires_in_hours: 8761 }, /body field expires_in_hours must be at most 8760/],
    ['expiresInHours fractional', { ...JANE, expiresInHours: 1.5 }, /body field expiresInHours must be a whole number/],
    ['sendEmailInvite not boolean', { ...JANE, sendEmailInvite: 'yes' }, /body field sendEmailInvite must be a JSON boolean/],
    ['send_phone_invite not boolean', { ...JANE, send_phone_invite: 1 }, /body field send_phone_invite must be a JSON boolean/],
    ['externalId empty', { ...JANE, externalId: '' }, /body field externalId must not be empty/],
    ['workflow_id empty', { ...JANE, workflow_id: '' }, /body field workflow_id must not be empty/],
    ['body an array', [JANE], /the request body must be a JSON object/],
  ];

  for (const [name, body, message] of INVALID) {
    it(`answers 400 naming the field when ${name}, and stores nothing`, async () => {
      const sandbox = await testSandbox();
      const response = await sandbox.call('POST', '/v1/sessions', { body });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatch(message);
      expectNoNulls(response.body);
      expect(await listAll(sandbox)).toEqual([]);
      expect(await balanceOf(sandbox)).toBe(1000);
    });
  }

  it('answers 400 for malformed JSON and stores nothing', async () => {
    const sandbox = await testSandbox();
    const response = await sandbox.call('POST', '/v1/sessions', { raw: '{"firstName": "Jane",' });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/Malformed JSON/);
    expect(await listAll(sandbox)).toEqual([]);
  });

  it('says which invitations went to the outbox', async () => {
    const sandbox = await testSandbox();
    const withPhone = await sandbox.call('POST', '/v1/sessions', { body: { ...JANE, phone: '+14155550123', sendEmailInvite: false } });
    expect(withPhone.headers.get('x-sandbox-explain')).toContain(
      'no e-mail invitation (send_email_invite false); SMS invitation to +14155550123 (msg_00000001), in the outbox',
    );
    const withoutPhone = await sandbox.call('POST', '/v1/sessions', { body: JANE });
    expect(withoutPhone.headers.get('x-sandbox-explain')).toContain(
      'e-mail invitation to jane.doe@example.com (msg_00000002); no SMS invitation (no phone on file), in the outbox',
    );
  });

  it('keeps a non-default namespace in the session_url, and the session lives only there', async () => {
    const sandbox = await testSandbox();
    const created = await createSession(sandbox, JANE, { namespace: 'ci-worker-3' });
    expect(created.session_url).toBe(`${BASE}/verify/${created.id}?oid=org_demo&token=${sandbox.pageToken(created.id, 'ci-worker-3')}&namespace=ci-worker-3`);
    expect((await getSession(sandbox, created.id, { namespace: 'ci-worker-3' })).resource_links.session_url).toBe(created.session_url);
    expect((await sandbox.call('GET', `/v1/sessions/${created.id}`)).status).toBe(404);
  });

  it('gives byte-identical answers for the same requests on the same seed and pinned secret', async () => {
    const run = async () => {
      const sandbox = await testSandbox({ secret: 'pinned-for-identical-runs' });
      const a = await sandbox.call('POST', '/v1/sessions', { body: { ...JANE, workflowId: WORKFLOWS.identity72h } });
      const b = await sandbox.call('GET', `/v1/sessions/${a.body.id}`);
      return a.text + b.text;
    };
    expect(await run()).toBe(await run());
  });
});
