/**
 * Body shapes several step types share (the real client's per-step bodies), each named per step for the
 * OpenAPI union: `{action: "start" | "complete"}` (with members per action), `{uploads: {slot: fileKey, …}}`,
 * `{}`, and the person a screening step is about. Every message names the client's field and the fix.
 */
import { z } from '@hono/zod-openapi';
import { mustBe } from '../../platform/validation/request-fields.ts';
import { dateField, EmailSchema, nameField } from '../../screening/api.ts';

export const START_COMPLETE_ACTIONS = ['start', 'complete'] as const;

/** `{action: "start" | "complete"}` (unknown keys refused), named e.g. 'DeepAgeStepBody'. */
export function startCompleteBody(name: string) {
  return z.strictObject({ action: z.enum(START_COMPLETE_ACTIONS, { error: mustBe('action', 'start or complete') }) }).openapi(name);
}

/**
 * `{action: "start", …start}` or `{action: "complete", …complete}` (unknown keys refused): a start/complete
 * body whose actions carry members of their own (ADVERSE_MEDIA's person, PHONE_VERIFICATION's code).
 */
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

/** `{uploads: {slot: fileKey, …}}` with at least one slot, named e.g. 'DocumentUploadStepBody'. */
export function uploadsBody(name: string) {
  return z
    .strictObject({
      uploads: z
        .record(
          z.string().min(1).max(64, { error: 'uploads slot names must be 1-64 characters' }),
          z.string({ error: mustBe('uploads.<slot>', 'a file key from POST /v1/sessions/{id}/uploads or POST /v1/upload/presign') }).min(1),
          { error: mustBe('uploads', 'an object of slot names to file keys, e.g. {"document": "<file key>"}') },
        )
        .refine((uploads) => Object.keys(uploads).length > 0, { error: 'uploads must name at least one file: {"<slot>": "<file key>"}' }),
    })
    .openapi(name);
}

/** `{}`: the step takes no input (unknown keys refused), named e.g. 'PhoneTrustCheckStepBody'. */
export function emptyBody(name: string) {
  return z.strictObject({}).openapi(name);
}

/** The action of a start/complete body. */
export type StartCompleteBody = z.infer<ReturnType<typeof startCompleteBody>>;
export type UploadsBody = z.infer<ReturnType<typeof uploadsBody>>;

/** The clip types a FACE_LIVENESS upload-url may announce. */
export const CLIP_MIME_TYPES = ['video/webm', 'video/mp4'] as const;
