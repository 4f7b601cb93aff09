import { describe, expect, it } from 'vitest';
import {
  dateRange,
  ListSessionsQuerySchema,
  SessionUploadsBodySchema,
  SessionUploadsResponseSchema,
  UpdateStatusBodySchema,
} from '../../src/sessions/sessions.schemas.ts';

function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): Record<string, string> {
  if (result.success) throw new Error('expected a validation error');
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));
}

describe('GET /v1/sessions query', () => {
  it('defaults limit to 50 and by_organization to false', () => {
    expect(ListSessionsQuerySchema.parse({})).toEqual({ limit: 50, by_organization: false });
  });

  it('coerces limit and by_organization from query strings', () => {
    expect(ListSessionsQuerySchema.parse({ limit: '500', by_organization: 'true' })).toEqual({ limit: 500, by_organization: true });
    expect(ListSessionsQuerySchema.parse({ limit: '1', by_organization: 'false' })).toEqual({ limit: 1, by_organization: false });
  });

  it('refuses limit 0, 501, a fraction and a word', () => {
    expect(messages(ListSessionsQuerySchema.safeParse({ limit: '0' }))).toEqual({ limit: 'limit must be at least 1; got 0' });
    expect(messages(ListSessionsQuerySchema.safeParse({ limit: '501' }))).toEqual({ limit: 'limit must be at most 500; got 501' });
    expect(messages(ListSessionsQuerySchema.safeParse({ limit: '2.5' }))).toEqual({ limit: 'limit must be a whole number from 1 to 500; got 2.5' });
    expect(Object.keys(messages(ListSessionsQuerySchema.safeParse({ limit: 'ten' })))).toEqual(['limit']);
  });

  it('refuses by_organization values other than "true" and "false"', () => {
    expect(messages(ListSessionsQuerySchema.safeParse({ by_organization: 'yes' }))).toEqual({
      by_organization: 'by_organization must be "true" or "false"; got "yes"',
    });
  });

  it('accepts ISO 8601 dates and date-times and refuses anything else', () => {
    for (const date of ['2026-01-31', '2026-01-31T12:00:00Z', '2026-01-31T12:00:00.123Z', '2026-01-31T12:00:00+02:00']) {
      expect(ListSessionsQuerySchema.parse({ start_date: date }).start_date).toBe(date);
    }
    for (const date of ['yesterday', '31/01/2026', '2026-02-30', '2026-13-01', '2026-01-31T25:00:00Z', '1700000000']) {
      expect(Object.keys(messages(ListSessionsQuerySchema.safeParse({ end_date: date })))).toEqual(['end_date']);
    }
  });

  it('refuses a start_date after the end_date', () => {
    expect(messages(ListSessionsQuerySchema.safeParse({ start_date: '2026-02-01', end_date: '2026-01-31' }))).toEqual({
      start_date: 'start_date (2026-02-01) must be on or before end_date (2026-01-31)',
    });
  });

  it('treats a date-only end_date as the whole of that day', () => {
    expect(dateRange('2026-01-31', '2026-01-31')).toEqual({ fromMs: Date.parse('2026-01-31T00:00:00Z'), toMs: Date.parse('2026-01-31T23:59:59.999Z') });
    expect(dateRange(undefined, '2026-01-31T10:00:00Z').toMs).toBe(Date.parse('2026-01-31T10:00:00Z'));
  });

  it('refuses an empty next_token with a message saying what to send', () => {
    expect(messages(ListSessionsQuerySchema.safeParse({ next_token: '' }))).toEqual({
      next_token: 'next_token must not be empty: omit it for the first page, or pass the next_token of the previous response',
    });
  });
});

describe('PATCH /v1/sessions/{id}/update-status body', () => {
  it('accepts VERIFIED and REJECTED only', () => {
    expect(UpdateStatusBodySchema.parse({ new_status: 'VERIFIED' })).toEqual({ new_status: 'VERIFIED' });
    expect(UpdateStatusBodySchema.parse({ new_status: 'REJECTED' })).toEqual({ new_status: 'REJECTED' });
    expect(messages(UpdateStatusBodySchema.safeParse({ new_status: 'VOIDED' }))).toEqual({
      new_status: 'new_status must be "VERIFIED" or "REJECTED"; got "VOIDED"',
    });
    expect(messages(UpdateStatusBodySchema.safeParse({}))).toEqual({ new_status: 'new_status must be "VERIFIED" or "REJECTED"' });
  });
});

describe('POST /v1/sessions/{id}/uploads body', () => {
  const file = { file_name: 'front.jpg', content_type: 'image/jpeg' };

  it('normalizes named upload types and free slots to one slot each', () => {
    expect(
      SessionUploadsBodySchema.parse({
        files: [
          { ...file, upload_type: 'id_front' },
          { file_name: 'letter.pdf', content_type: 'application/pdf', slot: 'employment_letter' },
          { ...file, slot: 'selfie_front' },
        ],
      }),
    ).toEqual([
      { fileName: 'front.jpg', contentType: 'image/jpeg', slot: 'id_front', uploadType: 'id_front' },
      { fileName: 'letter.pdf', contentType: 'application/pdf', slot: 'employment_letter' },
      { fileName: 'front.jpg', contentType: 'image/jpeg', slot: 'selfie_front', uploadType: 'selfie_front' },
    ]);
  });

  it('needs at least one file', () => {
    expect(messages(SessionUploadsBodySchema.safeParse({ files: [] }))).toEqual({ files: 'files must contain at least one file' });
  });

  it('needs an upload_type or a slot, and not both', () => {
    expect(messages(SessionUploadsBodySchema.safeParse({ files: [file] }))).toEqual({
      'files.0':
        'files[0] needs an upload_type (id_front, id_back, secondary_id_front, secondary_id_back, tertiary_id_front, tertiary_id_back, selfie_front) or a free slot name',
    });
    expect(messages(SessionUploadsBodySchema.safeParse({ files: [{ ...file, upload_type: 'id_front', slot: 'x' }] }))).toEqual({
      'files.0': 'files[0] must send EITHER upload_type OR slot, not both',
    });
  });

  it('refuses an unknown upload_type, an empty or too long slot, and a bad content_type', () => {
    expect(Object.keys(messages(SessionUploadsBodySchema.safeParse({ files: [{ ...file, upload_type: 'selfie_right' }] })))).toEqual(['files.0.upload_type']);
    expect(messages(SessionUploadsBodySchema.safeParse({ files: [{ ...file, slot: '' }] }))).toEqual({
      'files.0.slot': 'slot must not be empty: send a slot name of 1-255 characters, or an upload_type',
    });
    expect(Object.keys(messages(SessionUploadsBodySchema.safeParse({ files: [{ ...file, slot: 's'.repeat(256) }] })))).toEqual(['files.0.slot']);
    expect(Object.keys(messages(SessionUploadsBodySchema.safeParse({ files: [{ file_name: 'a', content_type: 'jpeg', slot: 'a' }] })))).toEqual([
      'files.0.content_type',
    ]);
  });

  it('refuses the same slot twice, also when named once by type and once by slot', () => {
    expect(
      messages(
        SessionUploadsBodySchema.safeParse({
          files: [
            { ...file, slot: 'a' },
            { ...file, slot: 'a' },
          ],
        }),
      ),
    ).toEqual({
      'files.1': 'files[1] uses slot "a" already used by files[0]: each slot may appear once per request',
    });
    expect(
      Object.keys(
        messages(
          SessionUploadsBodySchema.safeParse({
            files: [
              { ...file, upload_type: 'id_back' },
              { ...file, slot: 'id_back' },
            ],
          }),
        ),
      ),
    ).toEqual(['files.1']);
  });

  it('describes the response with upload_type optional (omitted for free slots)', () => {
    const response = { signed_urls: [{ file_key: 'k', slot: 'employment_letter', upload_url: 'http://x/u' }] };
    expect(SessionUploadsResponseSchema.parse(response)).toEqual(response);
    expect(SessionUploadsResponseSchema.safeParse({ signed_urls: [{ ...response.signed_urls[0], upload_type: null }] }).success).toBe(false);
  });
});
