import { describe, expect, it } from 'vitest';
import { CreateCreditTermsResponseSchema, CreditTermsListResponseSchema, CreditTermsRecordSchema } from '../../src/credit-terms/credit-terms.schemas.ts';
import { CREDIT_TERMS_BUSINESS } from '../helpers/credit-terms.ts';
import { pageAddress } from '../helpers/hosted-pages.ts';
import { FROZEN_AT, KEYS, testSandbox, type TestSandbox } from '../helpers/sandbox.ts';

const BUSINESS = CREDIT_TERMS_BUSINESS;

async function create(sandbox: TestSandbox, body: Record<string, unknown> = {}, key: string = KEYS.live) {
  const response = await sandbox.call('POST', '/v1/credit-terms', { body: { ...BUSINESS, ...body }, key });
  expect(response.status, response.text).toBe(200);
  return CreateCreditTermsResponseSchema.parse(response.body);
}

/** Posts a button of the hosted page reached through `creditTermsUrl`; answers the status code and the page after the redirect. */
async function press(sandbox: TestSandbox, creditTermsUrl: string, action: string) {
  const response = await sandbox.app.request(pageAddress(creditTermsUrl, '/action'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action }).toString(),
  });
  return { status: response.status, location: response.headers.get('location'), text: await response.text() };
}

async function status(sandbox: TestSandbox, id: string) {
  return CreditTermsRecordSchema.parse((await sandbox.call('GET', `/v1/credit-terms/${id}`)).body).status;
}

describe('credit terms', () => {
  it('creates a pending record with its hosted page and links, externalId only when sent, and charges one token', async () => {
    const sandbox = await testSandbox();
    const created = await create(sandbox, { externalId: 'acct-42', requestedCreditPeriod: '60' });
    expect(created.externalId).toBe('acct-42');
    expect(new URL(created.creditTermsUrl).pathname).toBe(`/verify/credit-terms/${created.creditTermsId}`);
    expect(created.links.map((link) => link.rel)).toEqual(['admin_console', 'credit_terms_details']);
    const record = CreditTermsRecordSchema.parse((await sandbox.call('GET', `/v1/credit-terms/${created.creditTermsId}`)).body);
    expect(record).toMatchObject({
      id: created.creditTermsId,
      organizationId: 'org_demo',
      externalId: 'acct-42',
      status: 'pending',
      type: 'credit-terms',
      Config: { period: '60', requestedCreditAmount: 25000, businessName: 'Reyes Supply Co.' },
      createdAt: FROZEN_AT,
      updatedAt: FROZEN_AT,
    });
    expect(record).not.toHaveProperty('contact');
    const plain = await create(sandbox);
    expect(plain).not.toHaveProperty('externalId');
    expect((await sandbox.call('GET', `/v1/credit-terms/${plain.creditTermsId}`)).body.Config.period).toBe('30');
    const orgs = (await sandbox.call('GET', '/__sandbox/organizations', { key: null })).body.organizations;
    expect(orgs.find((org: { id: string }) => org.id === 'org_demo').balance).toBe(998);
  });

  it('moves pending -> in_progress -> completed on the hosted page, and refuses moves from a final state (409)', async () => {
    const sandbox = await testSandbox();
    const { creditTermsId: id, creditTermsUrl: link } = await create(sandbox);
    expect(new URL(link).search).toBe(`?token=${sandbox.pageToken(id)}`);
    const page = await sandbox.app.request(pageAddress(link));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Reyes Supply Co.');
    sandbox.clock.advance(60_000);
    const started = await press(sandbox, link, 'open');
    expect(started.status).toBe(303);
    expect(started.location).toBe(pageAddress(link));
    expect(await status(sandbox, id)).toBe('in_progress');
    sandbox.clock.advance(60_000);
    expect((await press(sandbox, link, 'submit')).status).toBe(303);
    const record = CreditTermsRecordSchema.parse((await sandbox.call('GET', `/v1/credit-terms/${id}`)).body);
    expect(record).toMatchObject({ status: 'completed', updatedAt: '2026-01-15T09:32:00.000Z', createdAt: FROZEN_AT });
    const again = await press(sandbox, link, 'decline');
    expect(again.status).toBe(409);
    expect(again.text).toContain('completed (final)');
    expect(await status(sandbox, id)).toBe('completed');
  });

  it('lets the business submit in one step or decline, and answers 400/404 on the page for a bad button or id', async () => {
    const sandbox = await testSandbox();
    const quick = await create(sandbox);
    await press(sandbox, quick.creditTermsUrl, 'submit');
    expect(await status(sandbox, quick.creditTermsId)).toBe('completed');
    const declined = await create(sandbox);
    await press(sandbox, declined.creditTermsUrl, 'decline');
    expect(await status(sandbox, declined.creditTermsId)).toBe('declined');
    expect((await press(sandbox, declined.creditTermsUrl, 'open')).status).toBe(409);
    const fresh = await create(sandbox);
    expect((await press(sandbox, fresh.creditTermsUrl, 'approve')).status).toBe(400);
    expect(await status(sandbox, fresh.creditTermsId)).toBe('pending');
    expect((await press(sandbox, `http://127.0.0.1/verify/credit-terms/nope?token=${sandbox.pageToken('nope')}`, 'open')).status).toBe(404);
  });

  it('lists newest first with a signed nextToken, and by externalId; an unknown externalId is an empty page', async () => {
    const sandbox = await testSandbox();
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      ids.push((await create(sandbox, { externalId: index < 2 ? 'acct-1' : 'acct-2' })).creditTermsId);
      sandbox.clock.advance(1000);
    }
    const first = CreditTermsListResponseSchema.parse((await sandbox.call('GET', '/v1/credit-terms?limit=2')).body);
    expect(first.creditTerms.map((record) => record.id)).toEqual([ids[2], ids[1]]);
    expect(first.nextToken).not.toBeNull();
    const second = CreditTermsListResponseSchema.parse(
      (await sandbox.call('GET', `/v1/credit-terms?limit=2&nextToken=${encodeURIComponent(first.nextToken ?? '')}`)).body,
    );
    expect(second).toEqual({ creditTerms: [expect.objectContaining({ id: ids[0] })], nextToken: null });
    const byExternal = CreditTermsListResponseSchema.parse((await sandbox.call('GET', '/v1/credit-terms/externalId/acct-1')).body);
    expect(byExternal.creditTerms.map((record) => record.id)).toEqual([ids[1], ids[0]]);
    expect((await sandbox.call('GET', '/v1/credit-terms/externalId/nobody')).body).toEqual({ creditTerms: [], nextToken: null });
    const tampered = await sandbox.call('GET', `/v1/credit-terms?nextToken=${encodeURIComponent(`${first.nextToken}x`)}`);
    expect(tampered.status).toBe(400);
    expect(tampered.body.error).toContain('nextToken');
    const wrongQuery = await sandbox.call('GET', `/v1/credit-terms/externalId/acct-1?nextToken=${encodeURIComponent(first.nextToken ?? '')}`);
    expect(wrongQuery.status).toBe(400);
    expect((await sandbox.call('GET', '/v1/credit-terms', { key: KEYS.other })).body).toEqual({ creditTerms: [], nextToken: null });
  });

  it('refuses bad bodies naming the field, 402 with an empty balance, 403/404 on retrieve; nothing is stored', async () => {
    const sandbox = await testSandbox();
    for (const [body, field] of [
      [{ requestedCreditAmount: -1 }, 'requestedCreditAmount'],
      [{ requestedCreditAmount: '25000' }, 'requestedCreditAmount'],
      [{ requestedCreditPeriod: '45' }, 'requestedCreditPeriod'],
      [{ businessEmail: 'not-an-email' }, 'businessEmail'],
      [{ businessName: '' }, 'businessName'],
      [{ firstName: undefined }, 'firstName'],
    ] as const) {
      const response = await sandbox.call('POST', '/v1/credit-terms', { body: { ...BUSINESS, ...body } });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error).toContain(field);
    }
    expect((await sandbox.call('POST', '/v1/credit-terms', { body: BUSINESS, key: KEYS.broke })).status).toBe(402);
    expect((await sandbox.call('POST', '/v1/credit-terms', { body: BUSINESS, key: KEYS.sandbox })).status).toBe(403);
    expect((await sandbox.call('GET', '/v1/credit-terms')).body).toEqual({ creditTerms: [], nextToken: null });
    const mine = await create(sandbox);
    expect((await sandbox.call('GET', `/v1/credit-terms/${mine.creditTermsId}`, { key: KEYS.other })).status).toBe(403);
    const unknown = await sandbox.call('GET', '/v1/credit-terms/ct_1');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toContain('POST /v1/credit-terms');
  });
});
