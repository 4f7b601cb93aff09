/** Shared steps of the iGaming tests: finished sessions, fixture selfies, anti-cheat enrolment. */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { TestSandbox } from '../helpers/sandbox.ts';

/** Fixture pictures as base64: face.jpg / face.png / face.webp are person A, different-face.jpg person B. */
export function fixtureBase64(file: string): string {
  return readFileSync(new URL(`../../fixtures/images/${file}`, import.meta.url)).toString('base64');
}

export const SELFIES = {
  personA: fixtureBase64('face.jpg'),
  personAPng: fixtureBase64('face.png'),
  personAWebp: fixtureBase64('face.webp'),
  personB: fixtureBase64('different-face.jpg'),
  noFace: fixtureBase64('blank.png'),
} as const;

/** A hosted session driven to SUBMITTED (its ID analysis holds a DOCUMENT_NUMBER); returns id and number. */
export async function finishedSession(
  sandbox: TestSandbox,
  person = { first_name: 'Jane', last_name: 'Doe' },
  options: { key?: string; namespace?: string; externalId?: string } = {},
): Promise<{ id: string; documentNumber: string }> {
  const created = await sandbox.call('POST', '/v1/sessions', {
    body: {
      ...person,
      email: `${person.first_name.toLowerCase()}@example.com`,
      ...(options.externalId === undefined ? {} : { external_id: options.externalId }),
    },
    ...(options.key === undefined ? {} : { key: options.key }),
    ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
  });
  expect(created.status).toBe(200);
  const id = created.body.id as string;
  const driven = await sandbox.call('POST', `/__sandbox/sessions/${id}/outcome`, {
    key: null,
    body: { outcome: 'SUBMITTED' },
    ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
  });
  expect(driven.status).toBe(200);
  const texts = driven.body.session_record.analysis_data.id_analysis_data.id_extracted_text as { type: string; value: string }[];
  const documentNumber = texts.find((t) => t.type === 'DOCUMENT_NUMBER')?.value as string;
  expect(documentNumber).toMatch(/^[A-Z0-9]+$/);
  return { id, documentNumber };
}

const players = new WeakMap<TestSandbox, Map<string, string>>();

/**
 * The id of a session (hosted, PENDING) standing for a player label such as 'sess-a': anti-cheat answers
 * 404 for a session that does not exist, so each label gets a real session, created once per sandbox and key.
 */
export async function playerSession(sandbox: TestSandbox, label: string, key?: string | null): Promise<string> {
  const known = players.get(sandbox) ?? new Map<string, string>();
  players.set(sandbox, known);
  const slot = `${key ?? ''}:${label}`;
  const existing = known.get(slot);
  if (existing !== undefined) return existing;
  const created = await sandbox.call('POST', '/v1/sessions', {
    body: { first_name: 'Player', last_name: label, email: 'player@example.com' },
    ...(key === undefined || key === null ? {} : { key }),
  });
  expect(created.status, created.text).toBe(200);
  known.set(slot, created.body.id as string);
  return created.body.id as string;
}

/** POST /v1/igaming/anti-cheat for a session id, or a player label (playerSession) when it is not a UUID. */
export async function antiCheat(sandbox: TestSandbox, sessionOrLabel: string, image: string, options: { key?: string | null } = {}) {
  const isId = /^[0-9a-f]{8}-[0-9a-f]{4}-/.test(sessionOrLabel);
  const sessionId = isId || options.key === null ? sessionOrLabel : await playerSession(sandbox, sessionOrLabel, options.key);
  return sandbox.call('POST', '/v1/igaming/anti-cheat', { body: { session_id: sessionId, image }, ...options });
}
