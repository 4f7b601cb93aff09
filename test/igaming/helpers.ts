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

export function antiCheat(sandbox: TestSandbox, sessionId: string, image: string, options: { key?: string | null } = {}) {
  return sandbox.call('POST', '/v1/igaming/anti-cheat', { body: { session_id: sessionId, image }, ...options });
}
