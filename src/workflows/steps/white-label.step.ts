/**
 * WHITE_LABEL: the applicant acknowledged the organization's branded notice. `{acknowledged: true}` is the
 * only body the client sends (anything else is a 400); the step records when.
 */
import { z } from '@hono/zod-openapi';
import { mustBe } from '../../platform/validation/request-fields.ts';
import { defineStep } from './step-module.ts';
import { submitButton, type StepForm } from './hosted-forms.ts';
import { html } from 'hono/html';

export const WhiteLabelStepBodySchema = z
  .strictObject({ acknowledged: z.literal(true, { error: mustBe('acknowledged', 'true (the applicant acknowledged the notice)') }) })
  .openapi('WhiteLabelStepBody');

const whiteLabelForm: StepForm = {
  title: 'Before you start',
  fields: () =>
    html`<label class="choice"><input type="checkbox" name="acknowledged" value="true" required> I have read the information</label>${submitButton('Continue')}`,
  submit: (form, client) => client.submit({ acknowledged: form.acknowledged === 'true' }),
};

export const WHITE_LABEL_STEP = defineStep<z.infer<typeof WhiteLabelStepBodySchema>>({
  code: 'WHITE_LABEL',
  summary: "The applicant acknowledged the organization's branded notice ({acknowledged: true})",
  body: WhiteLabelStepBodySchema,
  headless: false,
  requirements: (config) => ({ acknowledged: true, ...(typeof config.notice === 'string' ? { notice: config.notice } : {}) }),
  failures: {},
  hostedForm: whiteLabelForm,
  run: (context) => ({
    kind: 'passed',
    analysis: { white_label: { acknowledged: true, acknowledged_at: context.nowIso } },
    explanations: [`WHITE_LABEL acknowledged at ${context.nowIso}`],
  }),
});
