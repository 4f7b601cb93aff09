/**
 * Helpers for the screening HTTP tests: balances through the control plane, sessions through the API,
 * workflows with phone steps written into a namespace (the fixtures have none).
 */
import { expect } from 'vitest';
import type { TestSandbox } from '../helpers/sandbox.ts';
import { workflows, type WorkflowRecord } from '../../src/workflows/workflows.store.ts';

/** An organization's token balance, read through GET /__sandbox/organizations. */
export async function balanceOf(sandbox: TestSandbox, organizationId = 'org_demo', namespace?: string): Promise<number> {
  const answer = await sandbox.call('GET', '/__sandbox/organizations', { key: null, ...(namespace ? { namespace } : {}) });
  expect(answer.status).toBe(200);
  const organization = (answer.body.organizations as { id: string; balance: number }[]).find((org) => org.id === organizationId);
  if (!organization) throw new Error(`no organization ${organizationId}`);
  return organization.balance;
}

/** A workflow of org_demo (or another organization) with the given step ids, stored in the default namespace. */
export function putWorkflow(sandbox: TestSandbox, id: string, stepIds: string[], organizationId = 'org_demo'): WorkflowRecord {
  const record: WorkflowRecord = {
    id,
    name: `Test workflow ${stepIds.join(' + ')}`,
    status: 'active',
    organization_id: organizationId,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    steps: stepIds.map((stepId) => ({ id: stepId, config: {} })),
  };
  return workflows(sandbox.platform.worlds.get()).put(record);
}

/** Creates a hosted session through POST /v1/sessions and returns its id. */
export async function createSession(
  sandbox: TestSandbox,
  body: { phone?: string; workflowId?: string; firstName?: string; lastName?: string },
  key?: string,
): Promise<string> {
  const created = await sandbox.call('POST', '/v1/sessions', {
    ...(key ? { key } : {}),
    body: {
      email: 'olivia.hart@example.com',
      firstName: body.firstName ?? 'Olivia',
      lastName: body.lastName ?? 'Hart',
      ...(body.phone ? { phone: body.phone } : {}),
      ...(body.workflowId ? { workflowId: body.workflowId } : {}),
    },
  });
  expect(created.status, created.text).toBe(200);
  const id = created.body.id as string | undefined;
  if (typeof id !== 'string') throw new Error(`no session id in ${created.text}`);
  return id;
}

/** The number of stored async jobs in the default namespace. */
export function storedJobCount(sandbox: TestSandbox): number {
  return sandbox.platform.worlds.get().data.collection('async-jobs').all().length;
}
