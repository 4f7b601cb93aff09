/**
 * Fields several step bodies share, spelled as the real client sends them (snake_case): the start/complete
 * body of an asynchronous step and the person a screening step is about. Every message names the client's field
 * and the fix, since the engine answers it verbatim as the 400 `error`.
 */
import { z } from '@hono/zod-openapi';
import { dateField, EmailSchema, nameField } from '../../screening/screening.schemas.ts';

/** The body of a start/complete step: `{action: "start", …start}` or `{action: "complete", …complete}`, unknown keys refused. */
export function startOrComplete<Start extends z.ZodRawShape, Complete extends z.ZodRawShape>(start: Start, complete: Complete) {
  return z.discriminatedUnion(
    'action',
    [z.strictObject({ action: z.literal('start'), ...start }), z.strictObject({ action: z.literal('complete'), ...complete })],
    { error: () => 'action is required: it must be start or complete' },
  );
}

/** The person of PEP_SANCTIONS and ADVERSE_MEDIA start: `{email?, first_name, last_name, date_of_birth}`. */
export const screenedPersonFields = {
  email: EmailSchema.optional(),
  first_name: nameField('first_name', 'Jane'),
  last_name: nameField('last_name', 'Doe'),
  date_of_birth: dateField('date_of_birth', '1980-04-23'),
};
