/**
 * WHITE_LABEL: the applicant acknowledged the organization's branded notice. `{acknowledged: true}` is the
 * only body the client sends (anything else is a 400); the step records when.
 */
import { z } from '@hono/zod-openapi';
import { mustBe } from '../../platform/validation/request-fields.ts';
import { defineStep } from './step-module.ts';

export const WhiteLabelStepBodySchema = z
  .strictObject({ acknowledged: z.literal(true, { error: mustBe('acknowledged', 'true (the applicant acknowledged the notice)') }) })
  .openapi('WhiteLabelStepBody');

export const WHITE_LABEL_STEP = defineStep<z.infer<typeof WhiteLabelStepBodySchema>>({
  code: 'WHITE_LABEL',
  summary: "The applicant acknowledged the organization's branded notice ({acknowledged: true})",
  body: WhiteLabelStepBodySchema,
  headless: false,
  requirements: (config) => ({ acknowledged: true, ...(typeof config.notice === 'string' ? { notice: config.notice } : {}) }),
  failures: [],
  run: (context) => ({
    kind: 'passed',
    analysis: { white_label: { acknowledged: true, acknowledged_at: context.nowIso } },
    explanations: [`WHITE_LABEL acknowledged at ${context.nowIso}`],
  }),
});
