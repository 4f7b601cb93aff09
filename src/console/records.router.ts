/**
 * Console pages of the areas beside sessions: bank statements, credit terms (and, below, workflows,
 * async jobs, the self-exclusion registry, AML enrolments, age verification). Each reads through its
 * area's own service or store functions.
 */
import { Hono } from 'hono';
import { findCreditTerms, toCreditTermsJson } from '../credit-terms/credit-terms.service.ts';
import { bankStatementJson, findBankStatement } from '../financial/financial.store.ts';
import type { AppEnv } from '../platform/http/context.ts';
import { notFound, renderPage } from './console.page.ts';
import { recordDetail } from './records.view.ts';

export const consoleRecordsRouter = new Hono<AppEnv>();

consoleRecordsRouter.get('/console/bank-statements/:id', (c) => {
  const world = c.get('world');
  const record = findBankStatement(world, c.req.param('id'));
  if (!record) return notFound(c, 'bank statement', c.req.param('id'));
  const { body } = bankStatementJson(world, record);
  return renderPage(c, `Bank statement ${record.id}`, 'bank-statements', recordDetail({ status: body.status, links: [], record: body }));
});

// The admin_console link of POST /v1/credit-terms lands here.
consoleRecordsRouter.get('/console/credit-terms/:id', (c) => {
  const world = c.get('world');
  const stored = findCreditTerms(world, c.req.param('id'));
  if (!stored) return notFound(c, 'credit terms request', c.req.param('id'));
  const record = toCreditTermsJson(stored);
  return renderPage(c, `Credit terms ${record.id}`, 'records', recordDetail({ status: record.status, links: [], record }));
});
