import { describe, expect, it } from 'vitest';
import { OutboxClearedSchema, OutboxPageSchema } from '../../src/control/control.schemas.ts';
import type { OutboxMessage } from '../../src/platform/outbox/outbox.schemas.ts';
import { MAX_OUTBOX_MESSAGES, sendMessage } from '../../src/platform/outbox/outbox.ts';
import { CREDIT_TERMS_BUSINESS } from '../helpers/credit-terms.ts';
import { pageAddress } from '../helpers/hosted-pages.ts';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.ts';

const JANE = { firstName: 'Jane', lastName: 'Doe', email: 'Jane.Doe@example.com', phone: '+14155550123' };
const SAM = { first_name: 'Sam', last_name: 'Lee', email: 'sam.lee@example.com', phone: '+16045550177' };
const ANA = { firstName: 'Ana', lastName: 'Silva', email: 'ana.silva@example.com', phone: '+14035550111' };

async function outbox(sandbox: TestSandbox, query = '', namespace?: string) {
  const response = await sandbox.call('GET', `/__sandbox/outbox${query}`, { key: null, ...(namespace ? { namespace } : {}) });
  expect(response.status, response.text).toBe(200);
  return OutboxPageSchema.parse(response.body);
}

async function post(sandbox: TestSandbox, path: string, body: unknown, namespace?: string) {
  const response = await sandbox.call('POST', path, { body, ...(namespace ? { namespace } : {}) });
  expect(response.status, response.text).toBeLessThan(300);
  return response.body;
}

/** Opens a message's link as a browser would (following the page's own redirects); answers the final status. */
async function open(sandbox: TestSandbox, link: string): Promise<{ status: number; text: string }> {
  let address = pageAddress(link);
  for (let hop = 0; hop < 3; hop++) {
    const response = await sandbox.app.request(address);
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) return { status: response.status, text: await response.text() };
    address = location;
  }
  throw new Error(`too many redirects from ${link}`);
}

/** One of every invitation the API sends, in the default namespace. */
async function sendEveryInvitation(sandbox: TestSandbox) {
  const session = await post(sandbox, '/v1/sessions', JANE);
  const creditCheck = await post(sandbox, '/v1/credit-check/hard', SAM);
  const bankStatements = await post(sandbox, '/v1/financial', ANA);
  const creditTerms = await post(sandbox, '/v1/credit-terms', CREDIT_TERMS_BUSINESS);
  const age = await post(sandbox, '/v1/age-verification', { ...ANA, email: 'kid@example.com', method: 'parent-connect', ageBand: '13-17' });
  const parentConnectId = new URL(age.links.find((link: { rel: string }) => link.rel === 'parent_connect').href).pathname.split('/').at(-1);
  const invite = await sandbox.call('POST', `/__sandbox/age-verification/parent-connect/${parentConnectId}/events`, { key: null, body: { event: 'invite' } });
  expect(invite.status, invite.text).toBe(200);
  return { session, creditCheck, bankStatements, creditTerms, age, parentConnectId: parentConnectId as string };
}

describe('the outbox', () => {
  it('lists every invitation the API sent, newest first, each with a link that opens its page', async () => {
    const sandbox = await testSandbox();
    const sent = await sendEveryInvitation(sandbox);
    const page = await outbox(sandbox);
    const summary = page.messages.map((message) => [message.kind, message.channel, message.to, message.sessionId]).reverse();
    expect(summary).toEqual([
      ['session_invitation', 'email', JANE.email, sent.session.id],
      ['session_invitation', 'sms', JANE.phone, sent.session.id],
      ['credit_check_invitation', 'email', SAM.email, sent.creditCheck.id],
      ['credit_check_invitation', 'sms', SAM.phone, sent.creditCheck.id],
      ['bank_statement_invitation', 'email', ANA.email, sent.bankStatements.bankStatementId],
      ['bank_statement_invitation', 'sms', ANA.phone, sent.bankStatements.bankStatementId],
      ['credit_terms_invitation', 'email', CREDIT_TERMS_BUSINESS.businessEmail, sent.creditTerms.creditTermsId],
      ['age_verification_invitation', 'email', 'kid@example.com', sent.age.id],
      ['age_verification_invitation', 'sms', ANA.phone, sent.age.id],
      ['parent_connect_invitation', 'email', 'kid@example.com', sent.parentConnectId],
    ]);
    expect(page.nextToken).toBeNull();
    // Each link is the page the API answered for that record.
    const linkOf = (kind: string) => page.messages.find((message) => message.kind === kind)?.link;
    expect(linkOf('session_invitation')).toBe(sent.session.session_url);
    expect(linkOf('credit_check_invitation')).toBe(sent.creditCheck.session_url);
    expect(linkOf('bank_statement_invitation')).toBe(sent.bankStatements.bankStatementUrl);
    expect(linkOf('credit_terms_invitation')).toBe(sent.creditTerms.creditTermsUrl);
    expect(linkOf('age_verification_invitation')).toBe(sent.age.session_url);
    expect(linkOf('parent_connect_invitation')).toBe(sent.age.links.find((link: { rel: string }) => link.rel === 'parent_connect').href);
    for (const message of page.messages) {
      const opened = await open(sandbox, message.link as string);
      expect(opened.status, `${message.kind}: ${message.link}`).toBe(200);
      expect(opened.text).toContain('<html');
    }
  });

  it('writes a real e-mail: subject, greeting, the sender, the link, the expiry; the SMS carries the link', async () => {
    const sandbox = await testSandbox();
    const session = await post(sandbox, '/v1/sessions', { ...JANE, expiresInHours: 48 });
    const [sms, email] = (await outbox(sandbox)).messages as [OutboxMessage, OutboxMessage];
    expect(email).toEqual({
      id: 'msg_00000001',
      channel: 'email',
      to: JANE.email,
      subject: 'Verify your identity for Demo Org',
      text: [
        'Hello Jane,',
        '',
        "Demo Org asks you to verify your identity. It takes a few minutes: have your ID document (passport, driver's licence or ID card) ready, and a device with a camera for a selfie.",
        '',
        'Open this link to start:',
        session.session_url,
        '',
        'The link works until 2026-01-17T09:30:00.000Z.',
        'If you were not expecting this message, you can ignore it: nothing happens until you open the link.',
        '',
        'Sent for Demo Org by idv-sandbox: a test sandbox, no real person received this message.',
      ].join('\n'),
      link: session.session_url,
      kind: 'session_invitation',
      sessionId: session.id,
      createdAt: '2026-01-15T09:30:00.000Z',
    });
    expect(sms).toEqual({
      id: 'msg_00000002',
      channel: 'sms',
      to: JANE.phone,
      text: `Demo Org: please verify your identity: ${session.session_url}`,
      link: session.session_url,
      kind: 'session_invitation',
      sessionId: session.id,
      createdAt: '2026-01-15T09:30:00.000Z',
    });
  });

  it('sends nothing the request turned off, and a headless workflow session sends nothing', async () => {
    const sandbox = await testSandbox();
    await post(sandbox, '/v1/sessions', { ...JANE, sendEmailInvite: false, sendPhoneInvite: false });
    await post(sandbox, '/v1/credit-check/soft', { ...SAM, send_email_invite: false });
    await post(sandbox, '/v1/credit-terms', { ...CREDIT_TERMS_BUSINESS, sendEmailInvite: false });
    await post(sandbox, '/v1/sessions', { ...JANE, phone: undefined });
    const workflow = await post(sandbox, '/v1/workflows', { name: 'ID only', steps: [{ id: 'ID_VERIFICATION' }] });
    await post(sandbox, `/v1/workflows/${workflow.workflow.id}/sessions`, { email: 'x@example.com', first_name: 'X', last_name: 'Y', phone: '+14155550100' });
    const messages = (await outbox(sandbox)).messages.map((message) => [message.kind, message.channel, message.to]);
    expect(messages).toEqual([
      ['session_invitation', 'email', JANE.email],
      ['credit_check_invitation', 'sms', SAM.phone],
    ]);
  });

  it('keeps each namespace its own: links carry the namespace and open its page, never the other one', async () => {
    const sandbox = await testSandbox();
    const inDefault = await post(sandbox, '/v1/sessions', JANE);
    const inQa = await post(sandbox, '/v1/sessions', { ...JANE, email: 'qa@example.com' }, 'qa-7');
    const defaultMessages = (await outbox(sandbox)).messages;
    const qaPage = await outbox(sandbox, '', 'qa-7');
    expect(defaultMessages.map((message) => message.sessionId)).toEqual([inDefault.id, inDefault.id]);
    expect(qaPage).toMatchObject({ namespace: 'qa-7' });
    expect(qaPage.messages.map((message) => [message.id, message.to, message.sessionId])).toEqual([
      ['msg_00000002', JANE.phone, inQa.id],
      ['msg_00000001', 'qa@example.com', inQa.id],
    ]);
    const qaLink = qaPage.messages[0]?.link as string;
    expect(new URL(qaLink).searchParams.get('namespace')).toBe('qa-7');
    expect((await open(sandbox, qaLink)).status).toBe(200);
    // The same page without the namespace is another namespace's (no such session there).
    const url = new URL(qaLink);
    url.searchParams.delete('namespace');
    expect((await open(sandbox, url.toString())).status).toBe(404);
  });

  it('filters by recipient (any case), session and channel, and pages with limit and nextToken', async () => {
    const sandbox = await testSandbox();
    const first = await post(sandbox, '/v1/sessions', JANE);
    const second = await post(sandbox, '/v1/sessions', JANE);
    await post(sandbox, '/v1/credit-check/hard', SAM);
    const ids = (page: { messages: OutboxMessage[] }) => page.messages.map((message) => message.id);

    expect(ids(await outbox(sandbox, '?recipient=jane.doe@EXAMPLE.com'))).toEqual(['msg_00000003', 'msg_00000001']);
    expect(ids(await outbox(sandbox, `?session=${second.id}`))).toEqual(['msg_00000004', 'msg_00000003']);
    expect(ids(await outbox(sandbox, '?channel=sms'))).toEqual(['msg_00000006', 'msg_00000004', 'msg_00000002']);
    expect(ids(await outbox(sandbox, `?session=${first.id}&channel=sms`))).toEqual(['msg_00000002']);
    expect(ids(await outbox(sandbox, `?recipient=${encodeURIComponent(SAM.phone)}`))).toEqual(['msg_00000006']);
    expect(ids(await outbox(sandbox, '?recipient=nobody@example.com'))).toEqual([]);

    const pageOne = await outbox(sandbox, '?channel=sms&limit=2');
    expect(ids(pageOne)).toEqual(['msg_00000006', 'msg_00000004']);
    const pageTwo = await outbox(sandbox, `?channel=sms&limit=2&nextToken=${pageOne.nextToken}`);
    expect(ids(pageTwo)).toEqual(['msg_00000002']);
    expect(pageTwo.nextToken).toBeNull();
  });

  it.each([
    ['channel=fax', 'channel'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=many', 'limit'],
    ['recipient=', 'recipient'],
    ['session=', 'session'],
    ['nextToken=forged', 'nextToken'],
  ])('refuses ?%s with 400 naming %s', async (query, field) => {
    const sandbox = await testSandbox();
    await post(sandbox, '/v1/sessions', JANE);
    const response = await sandbox.call('GET', `/__sandbox/outbox?${query}`, { key: null });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain(field);
    expect((await outbox(sandbox)).messages).toHaveLength(2);
  });

  it('refuses a nextToken of another filter', async () => {
    const sandbox = await testSandbox();
    for (let n = 0; n < 2; n++) await post(sandbox, '/v1/sessions', JANE);
    const { nextToken } = await outbox(sandbox, '?channel=sms&limit=1');
    const response = await sandbox.call('GET', `/__sandbox/outbox?channel=email&limit=1&nextToken=${nextToken}`, { key: null });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('nextToken belongs to a different query');
  });

  it('DELETE empties the namespace outbox only, and new messages keep counting', async () => {
    const sandbox = await testSandbox();
    await post(sandbox, '/v1/sessions', JANE);
    await post(sandbox, '/v1/sessions', JANE, 'qa-7');
    const cleared = await sandbox.call('DELETE', '/__sandbox/outbox', { key: null });
    expect(cleared.status).toBe(200);
    expect(OutboxClearedSchema.parse(cleared.body)).toEqual({ namespace: 'default', cleared: 2 });
    expect((await outbox(sandbox)).messages).toEqual([]);
    expect((await outbox(sandbox, '', 'qa-7')).messages).toHaveLength(2);
    await post(sandbox, '/v1/sessions', { ...JANE, phone: undefined });
    expect((await outbox(sandbox)).messages.map((message) => message.id)).toEqual(['msg_00000003']);
  });

  it('is emptied by a reset of the namespace', async () => {
    const sandbox = await testSandbox();
    await post(sandbox, '/v1/sessions', JANE);
    expect((await sandbox.call('POST', '/__sandbox/reset', { key: null, namespace: 'default' })).status).toBe(200);
    expect((await outbox(sandbox)).messages).toEqual([]);
  });

  it('needs the admin token like the rest of the control plane', async () => {
    const sandbox = await testSandbox({ adminToken: 's3cret-token' });
    expect((await sandbox.call('GET', '/__sandbox/outbox', { key: null })).status).toBe(401);
    expect((await sandbox.call('DELETE', '/__sandbox/outbox', { key: null })).status).toBe(401);
    const allowed = await sandbox.call('GET', '/__sandbox/outbox', { key: null, headers: { authorization: 'Bearer s3cret-token' } });
    expect(allowed.status).toBe(200);
  });

  it(`keeps the newest ${MAX_OUTBOX_MESSAGES} messages of a namespace`, async () => {
    const sandbox = await testSandbox();
    const world = sandbox.platform.worlds.get('default');
    for (let n = 0; n < MAX_OUTBOX_MESSAGES + 2; n++)
      sendMessage(world, { channel: 'sms', to: '+14155550123', text: `code ${n}`, kind: 'phone_verification_code' });
    const all: string[] = [];
    let token: string | null = null;
    do {
      const page: { messages: OutboxMessage[]; nextToken: string | null } = await outbox(sandbox, `?limit=100${token ? `&nextToken=${token}` : ''}`);
      all.push(...page.messages.map((message) => message.id));
      token = page.nextToken;
    } while (token !== null);
    expect(all).toHaveLength(MAX_OUTBOX_MESSAGES);
    expect(all[0]).toBe('msg_00001002');
    expect(all.at(-1)).toBe('msg_00000003');
  });
});
