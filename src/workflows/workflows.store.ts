/**
 * The lookup of workflows for every area (hosted sessions, headless sessions, the workflow_id list
 * filter, the phone rule): the namespace's 'workflows' collection, where POST /v1/workflows puts the
 * workflows it creates, first, then the fixture workflows of fixtures/workflows.json (seed data).
 *
 * The record follows the spec's 'Workflow record' (steps with lowercase hyphenated ids and a resolved
 * config) plus `settings`, the sandbox's home for what sessions need and the spec does not show: the
 * session expiry and the failed-attempt limit.
 *
 * LIMITATIONS:
 * - `settings` is not part of the spec's wire shape (the presenter leaves it out); workflows created
 *   through the API have none (no expiry, the default failed-attempt limit).
 * - Fixture workflows are the same in every namespace; a step-config PATCH stores a changed copy.
 */
import { readFileSync } from 'node:fs';
import { z } from '@hono/zod-openapi';
import type { World } from '../platform/namespaces/world.ts';

export const WorkflowStepSchema = z.object({
  /** Lowercase hyphenated, e.g. id-verification (the spec's record form of ID_VERIFICATION). */
  id: z.string().min(1),
  config: z.record(z.string(), z.unknown()),
});

export const WorkflowSettingsSchema = z.object({
  /** Sessions of the workflow expire after this many hours unless the request says otherwise. */
  expires_in_hours: z.number().int().min(1).max(8760).optional(),
  /** Failed capture attempts after which a session ends FAILED (default 3). */
  max_failed_attempts: z.number().int().min(1).max(10).optional(),
});

export const WorkflowRecordSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1).max(255),
  status: z.string().min(1),
  organization_id: z.string().min(1),
  created_at: z.string(),
  updated_at: z.string(),
  steps: z.array(WorkflowStepSchema).min(1).max(10),
  settings: WorkflowSettingsSchema.optional(),
});
export type WorkflowRecord = z.infer<typeof WorkflowRecordSchema>;

const WorkflowsFileSchema = z.object({ workflows: z.array(WorkflowRecordSchema) });

/** The fixture workflows' ids, for tests and docs (fixtures/workflows.json). */
export const FIXTURE_WORKFLOW_IDS = {
  /** org_demo: ID_VERIFICATION + FACE_LIVENESS, expiry 72 h, 3 failed attempts. */
  identity72h: '7d3f9c2a-4b1e-4f6a-9c8d-2e5b7a1f3c90',
  /** org_demo: ID_VERIFICATION (with a secondary ID) + FACE_LIVENESS + PHONE_VERIFICATION, expiry 168 h. */
  identityAndPhone: '2b8e4d61-9a3c-4e7f-b5d2-6c1a8f4e9b37',
  /** org_demo: ID_VERIFICATION + FACE_LIVENESS + PEP_SANCTIONS + ADVERSE_MEDIA, no expiry, 5 failed attempts. */
  noExpiry: 'e41c7a95-3f2d-4b86-a0e9-8d5c2b7f1a64',
  /** org_demo: BANK_STATEMENT_UPLOAD + AI_BANK_STATEMENT_ANALYSIS, expiry 336 h: sessions get a bank-statement request. */
  bankStatements: 'c6f1e8b3-7d24-4a9e-8b51-3e0f9d7c2a46',
  /** org_other: ID_VERIFICATION + FACE_LIVENESS, expiry 24 h. */
  otherOrganization: '5a9d2f7c-1e4b-4c3a-8f6d-0b7e9a2c5d18',
  /** org_demo: ID_VERIFICATION + FACE_LIVENESS, status inactive (new sessions refused). */
  inactive: '3e6a1d8c-5b2f-4c7e-9a04-7f1b8d2e6c53',
  /** org_demo: ID_VERIFICATION + the vpn-detection iGaming check only: anti-cheat and ip-jurisdiction are not configured. */
  vpnCheckOnly: '9f4b2c7e-6a1d-4e3b-8c5f-1d7a9e2b4c60',
} as const;

export const DEFAULT_WORKFLOWS_FILE = new URL('../../fixtures/workflows.json', import.meta.url);

let fixtureCache: { href: string; workflows: readonly WorkflowRecord[] } | undefined;

/** The fixture workflows (read and validated once); a broken file stops with the file and field named. */
export function fixtureWorkflows(file: URL = DEFAULT_WORKFLOWS_FILE): readonly WorkflowRecord[] {
  if (fixtureCache?.href === file.href) return fixtureCache.workflows;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`workflow fixtures ${file.pathname} cannot be read as JSON: ${(error as Error).message}`);
  }
  // Read once per process: zod's eval-based fast path would compile a parser per object schema for one use.
  const parsed = WorkflowsFileSchema.safeParse(raw, { jitless: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`workflow fixtures ${file.pathname} are invalid at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  fixtureCache = { href: file.href, workflows: parsed.data.workflows };
  return parsed.data.workflows;
}

/** The namespace's own workflows (created through POST /v1/workflows). */
export function workflows(world: World) {
  return world.data.collection<WorkflowRecord>('workflows').index('byOrganization', (workflow) => workflow.organization_id);
}

/** A workflow of the organization (stored first, then fixtures), or undefined (unknown or another organization's). */
export function findWorkflow(world: World, organizationId: string, id: string): WorkflowRecord | undefined {
  const found = workflows(world).get(id) ?? fixtureWorkflows().find((workflow) => workflow.id === id);
  return found?.organization_id === organizationId ? found : undefined;
}
