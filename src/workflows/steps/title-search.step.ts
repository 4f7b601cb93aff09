/**
 * TITLE_SEARCH: `{address}` (1-500 characters) is looked up by the screening area's title engine for the
 * session's applicant (the magic found address lists them as first owner). The engine's four results:
 * - found: COMPLETED; the record lands in analysis_data.title_search_data (the spec's member);
 * - multiple_properties: a failed attempt TITLE_MULTIPLE_PROPERTIES (resend the address with a unit; the
 *   response's `title_search` lists availableUnits);
 * - not_found: TITLE_NOT_FOUND; unsupported_region (outside the US): TITLE_UNSUPPORTED_REGION.
 * Every submission answers the engine's result as `title_search`, so the page can show the units.
 *
 * LIMITATIONS:
 * - A found record completes the step whoever owns it: owners of non-magic addresses are synthetic, so
 *   ownership is reported (owner_matches_applicant), not required.
 * - The session's price covers the search: nothing is billed, unlike the standalone endpoint.
 */
import type { z } from '@hono/zod-openapi';
import { checkTitle, normalizeName, TitleCheckRequestSchema, type TitleCheckResponse } from '../../screening/api.ts';
import { defineStep, type FailureRow } from './step-module.ts';
import { submitButton, type StepForm } from './hosted-forms.ts';
import { html } from 'hono/html';

export const TitleSearchStepBodySchema = TitleCheckRequestSchema.pick({ address: true }).strict().openapi('TitleSearchStepBody');
export type TitleSearchStepBody = z.infer<typeof TitleSearchStepBodySchema>;

const FAILURE_OF_STATUS: Record<Exclude<TitleCheckResponse['status'], 'found'>, string> = {
  multiple_properties: 'TITLE_MULTIPLE_PROPERTIES',
  not_found: 'TITLE_NOT_FOUND',
  unsupported_region: 'TITLE_UNSUPPORTED_REGION',
};

const titleSearchForm: StepForm = {
  title: 'Property title search',
  fields: () => html`<label>Property address <textarea name="address" rows="2" required></textarea></label>${submitButton('Search the title')}`,
  submit: (form, client) => client.submit({ address: form.address ?? '' }),
};

const TITLE_SEARCH_FAILURES = {
  TITLE_NOT_FOUND: {
    category: 'OTHER',
    user_action: 'RETRY_STEP',
    reason: 'TITLE_NOT_VERIFIED',
    content: 'a US address without a property record, e.g. "404 Nowhere Lane, Springfield, IL 62701", or one that cannot be located',
    magicLastName: null,
    message: 'No property record was found at the address.',
  },
  TITLE_MULTIPLE_PROPERTIES: {
    category: 'OTHER',
    user_action: 'RETRY_STEP',
    reason: 'TITLE_NOT_VERIFIED',
    content: 'a multi-unit building without a unit, e.g. "2 Sandbox Towers, Springfield, IL 62701" (resend with a unit)',
    magicLastName: null,
    message: 'Several properties are at the address: name the unit.',
  },
  TITLE_UNSUPPORTED_REGION: {
    category: 'OTHER',
    user_action: 'RETRY_STEP',
    reason: 'TITLE_NOT_VERIFIED',
    content: 'an address outside the US, e.g. "221B Baker Street, London NW1 6XE, United Kingdom"',
    magicLastName: null,
    message: 'Title search covers US addresses only.',
  },
} satisfies Record<string, FailureRow>;

export const TITLE_SEARCH_STEP = defineStep<TitleSearchStepBody>({
  code: 'TITLE_SEARCH',
  summary: 'Title search of the address sent for the applicant: a found property record completes it',
  body: TitleSearchStepBodySchema,
  headless: false,
  requirements: () => ({ fields: ['address'] }),
  failures: TITLE_SEARCH_FAILURES,
  hostedForm: titleSearchForm,
  run(context, body) {
    const { first_name: firstName, last_name: lastName } = context.applicant;
    const { value: response, explanations } = checkTitle({ firstName, lastName, address: body.address });
    if (response.status !== 'found') {
      return {
        kind: 'failed',
        failure: {
          code: FAILURE_OF_STATUS[response.status],
          slot: 'STEP',
          detail: `${response.message} (address ${JSON.stringify(body.address.slice(0, 120))})`,
        },
        payload: { title_search: response },
        explanations,
      };
    }
    const owner = response.ownerInformation;
    const ownerMatches =
      owner !== null &&
      normalizeName(owner.Owner1LastName ?? '') === normalizeName(lastName) &&
      normalizeName(owner.Owner1FirstNameMiddleInitial ?? '').startsWith(normalizeName(firstName));
    return {
      kind: 'passed',
      analysis: { title_search_data: response },
      payload: { title_search: { ...response, owner_matches_applicant: ownerMatches } },
      explanations: [...explanations, `first owner ${ownerMatches ? 'is' : 'is not'} the applicant`],
    };
  },
});
