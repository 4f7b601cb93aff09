import { describe, expect, it } from 'vitest';
import { FinancialRecordSchema } from '../../src/financial/financial.schemas.ts';
import { SANDBOX_BANKS } from '../../src/financial/sandbox-banks.ts';
import { testSandbox } from '../helpers/sandbox.ts';
import { createBankStatementRequest, linkOnPage, pagePath, postPageForm } from './helpers.ts';
import { statementArithmeticProblems, toCents } from './statement-arithmetic.ts';

async function page(sandbox: Awaited<ReturnType<typeof testSandbox>>, path: string) {
  const response = await sandbox.app.request(path);
  return { status: response.status, html: await response.text(), headers: response.headers };
}

const statusOn = (html: string) => /<span class="status" id="status">([A-Z_]+)<\/span>/.exec(html)?.[1];

describe('the applicant hosted page of a bank statement request', () => {
  it('greets the applicant and offers every sandbox bank and an upload, with no script', async () => {
    const sandbox = await testSandbox();
    const id = await createBankStatementRequest(sandbox, { period: '9' });
    const shown = await page(sandbox, pagePath(sandbox, id));
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toMatch(/^text\/html/);
    expect(shown.html).toContain('Hello Ana Silva. <strong>Demo Org</strong> asks for 9 months of bank statements.');
    expect(statusOn(shown.html)).toBe('PENDING');
    for (const bank of SANDBOX_BANKS) expect(shown.html).toContain(`<input type="radio" name="bank" value="${bank.input}"`);
    expect(shown.html).toContain(`<form method="post" action="${pagePath(sandbox, id, '/link')}">`);
    expect(shown.html).toContain('value="upload"');
    expect(shown.html).not.toContain('<script');
  });

  it('wears the frame and styles of the other hosted pages (the session page, credit terms), not a copy of its own', async () => {
    const sandbox = await testSandbox();
    const id = await createBankStatementRequest(sandbox, {});
    const frameOf = (html: string) => ({
      style: /<style>[\s\S]*?<\/style>/.exec(html)?.[0],
      framed: /<body><main>[\s\S]*<footer>[\s\S]*<\/main><\/body><\/html>$/.test(html),
    });
    const bankPage = frameOf((await page(sandbox, pagePath(sandbox, id))).html);
    expect(bankPage.style).toContain('main { max-width: 34rem;');
    expect(bankPage.framed).toBe(true);
    for (const other of ['/verify/no-such-session', '/verify/credit-terms/no-such-request', `/verify/bank-statements/no-such-request`])
      expect(frameOf((await page(sandbox, other)).html), other).toEqual(bankPage);
  });

  it('links the picked bank, redirects back with 303, and the record then advances on the clock: IN_PROGRESS, FLINKS_IN_PROGRESS at +2 s, COMPLETED at +5 s', async () => {
    const sandbox = await testSandbox();
    const id = await createBankStatementRequest(sandbox);
    sandbox.clock.advance(60_000);

    // The applicant links MapleCrest.
    const linked = await linkOnPage(sandbox, id, 'MapleCrest');
    expect(linked.status).toBe(303);
    expect(linked.headers.get('location')).toBe(pagePath(sandbox, id));

    // Timeline on the frozen clock, read through the API.
    const at = async () => (await sandbox.call('GET', `/v1/financial/${id}`)).body;
    expect(await at()).toMatchObject({ status: 'IN_PROGRESS', updatedAt: '2026-01-15T09:31:00.000Z' });
    expect(await at()).not.toHaveProperty('statement');
    sandbox.clock.advance(1_999);
    expect((await at()).status).toBe('IN_PROGRESS');
    sandbox.clock.advance(1);
    expect(await at()).toMatchObject({ status: 'FLINKS_IN_PROGRESS', updatedAt: '2026-01-15T09:31:02.000Z' });
    expect(await at()).not.toHaveProperty('statement');
    sandbox.clock.advance(2_999);
    expect((await at()).status).toBe('FLINKS_IN_PROGRESS');
    sandbox.clock.advance(1);
    const done = await sandbox.call('GET', `/v1/financial/${id}`);
    const record = FinancialRecordSchema.parse(done.body);
    expect(record).toMatchObject({ status: 'COMPLETED', type: 'request', createdAt: '2026-01-15T09:30:00.000Z', updatedAt: '2026-01-15T09:31:05.000Z' });
    expect(record.statement).toMatchObject({ InstitutionName: 'MapleCrest Bank', Institution: 'MapleCrest', InstitutionId: 902 });
    expect(record.statement!.Accounts[0]!.Holder).toMatchObject({ Name: 'ANA SILVA', Email: 'ana.silva@example.com', PhoneNumber: '(403) 555-0111' });
    expect(done.headers.get('x-sandbox-explain')).toBe('bank statement COMPLETED since 2026-01-15T09:31:05.000Z: the statement is ready');

    // The page follows the same status and lists the shared accounts.
    const shown = await page(sandbox, pagePath(sandbox, id));
    expect(statusOn(shown.html)).toBe('COMPLETED');
    expect(shown.html).toContain('Shared from MapleCrest Bank');
    expect(shown.html).not.toContain('name="action"');

    // The statement is fixed at completion: a month later it reads the same.
    sandbox.clock.advance(30 * 86_400_000);
    expect((await sandbox.call('GET', `/v1/financial/${id}`)).text).toBe(done.text);
  });

  it.each(SANDBOX_BANKS.map((bank) => [bank.input, bank] as const))(
    'serves a whole statement from %s that adds up to the cent over HTTP',
    async (code, bank) => {
      const sandbox = await testSandbox();
      const id = await createBankStatementRequest(sandbox, { period: '6' });
      await linkOnPage(sandbox, id, code);
      sandbox.clock.advance(5_000);
      const statement = FinancialRecordSchema.parse((await sandbox.call('GET', `/v1/financial/${id}`)).body).statement!;
      expect(statement.InstitutionId).toBe(bank.institutionId);
      expect(statement.Accounts).toHaveLength(bank.accounts.length);
      expect(statementArithmeticProblems(statement)).toEqual([]);
      for (const account of statement.Accounts) {
        expect(account.Transactions.length, account.Title).toBeGreaterThan(5);
        // Walk the ledger: every balance is the previous plus the credit minus the debit.
        let balance = toCents(account.Transactions[0]!.Balance);
        for (const t of account.Transactions.slice(1)) {
          balance += toCents(t.Credit ?? 0) - toCents(t.Debit ?? 0);
          expect(toCents(t.Balance)).toBe(balance);
        }
        expect(toCents(account.Balance.Current)).toBe(balance);
        expect(toCents(account.Balance.Available)).toBe(balance + toCents(account.OverdraftLimit));
        // Six months before completion at the earliest.
        expect(account.Transactions[0]!.Date >= '2025-07-15').toBe(true);
        expect(account.Transactions.at(-1)!.Date <= '2026-01-15').toBe(true);
      }
      if (bank.overdraftLimit > 0) {
        const chequing = statement.Accounts[0]!;
        expect(chequing.OverdraftLimit).toBe(bank.overdraftLimit);
        expect(chequing.Transactions.some((t) => t.Balance < 0)).toBe(true);
      }
    },
  );

  it('keeps a record IN_PROGRESS after "select bank only", and lets the applicant link afterwards', async () => {
    const sandbox = await testSandbox();
    const id = await createBankStatementRequest(sandbox);
    expect((await linkOnPage(sandbox, id, 'TrueNorth', 'start')).status).toBe(303);
    sandbox.clock.advance(3_600_000);
    expect((await sandbox.call('GET', `/v1/financial/${id}`)).body).toMatchObject({ status: 'IN_PROGRESS', updatedAt: '2026-01-15T09:30:00.000Z' });
    const shown = await page(sandbox, pagePath(sandbox, id));
    expect(shown.html).toContain('<input type="radio" name="bank" value="TrueNorth" checked>');

    await postPageForm(sandbox, pagePath(sandbox, id, '/link'), { action: 'complete' });
    sandbox.clock.advance(5_000);
    const done = (await sandbox.call('GET', `/v1/financial/${id}`)).body;
    expect(done.status).toBe('COMPLETED');
    expect(done.statement.Institution).toBe('TrueNorth');
    expect(done.statement.Accounts.map((a: { Currency: string }) => a.Currency)).toEqual(['CAD', 'CAD', 'USD']);
  });

  it('turns the request into an upload that completes without a statement', async () => {
    const sandbox = await testSandbox();
    const id = await createBankStatementRequest(sandbox);
    expect((await postPageForm(sandbox, pagePath(sandbox, id, '/link'), { action: 'upload' })).status).toBe(303);
    expect((await sandbox.call('GET', `/v1/financial/${id}`)).body).toMatchObject({ status: 'IN_PROGRESS', type: 'upload' });
    sandbox.clock.advance(5_000);
    const done = await sandbox.call('GET', `/v1/financial/${id}`);
    expect(FinancialRecordSchema.parse(done.body)).toMatchObject({ status: 'COMPLETED', type: 'upload', updatedAt: '2026-01-15T09:30:05.000Z' });
    expect(done.body).not.toHaveProperty('statement');
    expect((await page(sandbox, pagePath(sandbox, id))).html).toContain('Your statements were received.');
  });

  it('refuses an unknown bank with 400 on the page and changes nothing', async () => {
    const sandbox = await testSandbox();
    const id = await createBankStatementRequest(sandbox);
    const before = (await sandbox.call('GET', `/v1/financial/${id}`)).text;
    const refused = await linkOnPage(sandbox, id, 'RealBank');
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('Unknown bank &quot;RealBank&quot;: choose one of SandboxCapital, MapleCrest, BorealisCU, TrueNorth, PrairieSky');
    sandbox.clock.advance(10_000);
    expect((await sandbox.call('GET', `/v1/financial/${id}`)).body).toMatchObject({ status: 'PENDING', updatedAt: '2026-01-15T09:30:00.000Z' });
    expect(JSON.parse(before).status).toBe('PENDING');
  });

  it('refuses a form without a valid action with 400', async () => {
    const sandbox = await testSandbox();
    const id = await createBankStatementRequest(sandbox);
    const refused = await postPageForm(sandbox, pagePath(sandbox, id, '/link'), { action: 'steal', bank: 'MapleCrest' });
    expect(refused.status).toBe(400);
    expect((await sandbox.call('GET', `/v1/financial/${id}`)).body.status).toBe('PENDING');
  });

  it('refuses to link twice with 409, keeping the first bank', async () => {
    const sandbox = await testSandbox();
    const id = await createBankStatementRequest(sandbox);
    await linkOnPage(sandbox, id, 'BorealisCU');
    const again = await linkOnPage(sandbox, id, 'MapleCrest');
    expect(again.status).toBe(409);
    expect(await again.text()).toContain(`Bank statement ${id} was already linked at 2026-01-15T09:30:00.000Z`);
    sandbox.clock.advance(5_000);
    expect((await sandbox.call('GET', `/v1/financial/${id}`)).body.statement.Institution).toBe('BorealisCU');
  });

  it('answers 404 for an unknown request, on GET and on POST', async () => {
    const sandbox = await testSandbox();
    const unknown = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
    const token = sandbox.platform.worlds.get().pageToken(unknown);
    const shown = await page(sandbox, `/verify/bank-statements/${unknown}?token=${token}`);
    expect(shown.status).toBe(404);
    expect(shown.html).toContain('Bank statement request not found');
    expect((await postPageForm(sandbox, `/verify/bank-statements/${unknown}/link?token=${token}`, { bank: 'MapleCrest', action: 'complete' })).status).toBe(
      404,
    );
  });

  it('works inside a namespace: the URL from POST /v1/financial opens the page, whose form keeps the namespace', async () => {
    const sandbox = await testSandbox();
    const created = await sandbox.call('POST', '/v1/financial', {
      body: { email: 'ns@example.com', firstName: 'Nadia', lastName: 'Stone', phone: '+16045550100' },
      namespace: 'qa-1',
    });
    const url = new URL(created.body.bankStatementUrl);
    const id = created.body.bankStatementId;
    const token = url.searchParams.get('token');
    expect(url.search).toBe(`?token=${token}&namespace=qa-1`);
    const shown = await page(sandbox, `${url.pathname}${url.search}`);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain(`action="/verify/bank-statements/${id}/link?token=${token}&amp;namespace=qa-1"`);
    const linked = await postPageForm(sandbox, `/verify/bank-statements/${id}/link?token=${token}&namespace=qa-1`, { bank: 'PrairieSky', action: 'complete' });
    expect(linked.status).toBe(303);
    expect(linked.headers.get('location')).toBe(`/verify/bank-statements/${id}?token=${token}&namespace=qa-1`);
    expect((await sandbox.call('GET', `/v1/financial/${id}`, { namespace: 'qa-1' })).body.status).toBe('IN_PROGRESS');
    // The default namespace does not know it, nor takes the other namespace's token.
    expect((await page(sandbox, `/verify/bank-statements/${id}?token=${token}`)).status).toBe(404);
  });
});
