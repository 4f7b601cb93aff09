/**
 * Fields several step bodies share, spelled as the real client sends them (snake_case): the `action` of a
 * start/complete step and the person a screening step is about. Every message names the client's field
 * and the fix, since the engine answers it verbatim as the 400 `error`.
 */
import { z } from '@hono/zod-openapi';
import { dateField, EmailSchema, nameField } from '../../screening/screening.schemas.ts';
import { mustBe } from '../../platform/validation/request-fields.ts';

/** `action`: one of the step's verbs. */
export function stepAction<const Actions extends readonly [string, ...string[]]>(actions: Actions) {
  return z.enum(actions, { error: mustBe('action', `one of ${actions.join(', ')}`) });
}

/** The person of PEP_SANCTIONS and ADVERSE_MEDIA start: `{email?, first_name, last_name, date_of_birth}`. */
export const screenedPersonFields = {
  email: EmailSchema.optional(),
  first_name: nameField('first_name', 'Jane'),
  last_name: nameField('last_name', 'Doe'),
  date_of_birth: dateField('date_of_birth', '1980-04-23'),
};
