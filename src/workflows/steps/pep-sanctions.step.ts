/**
 * PEP_SANCTIONS: screens the person the client sends (`{email?, first_name, last_name, date_of_birth}`)
 * against the watchlists with the screening area's PEP and sanctions engine, and records the matches as
 * analysis_data.pep_sanctions_data (the spec's member, the shape of POST /v1/screening/pep-sanctions).
 *
 * No match: COMPLETED. A match ends the run (the session is REJECTED, as a reviewer's decline): a
 * sanctions match (on a sanctions list only, or on both kinds) fails SANCTIONS_MATCH, a PEP-only match
 * PEP_MATCH. The screening magic names (GET /__sandbox/catalog) force each.
 *
 * LIMITATIONS:
 * - The session's price covers the screening: nothing is billed, unlike the standalone endpoint.
 * - `email` is validated and not used, as on the standalone endpoint.
 */
import { z } from '@hono/zod-openapi';
import { defaultWatchlist, type PepSanctionsMatch, screenPepSanctions } from '../../screening/api.ts';
import { screenedPersonFields } from './step-bodies.ts';
import { defineStep, type FailureRow } from './step-module.ts';
import { identityBody, identityFields, submitButton, type StepForm } from './hosted-forms.ts';
import { html } from 'hono/html';

export const PepSanctionsStepBodySchema = z.strictObject(screenedPersonFields).openapi('PepSanctionsStepBody');
export type PepSanctionsStepBody = z.infer<typeof PepSanctionsStepBodySchema>;

const describe = (matches: readonly PepSanctionsMatch[]) =>
  matches.map((match) => `${match.name} (confidence ${match.confidence}, ${match.datasets.length} lists)`).join('; ');

const pepSanctionsForm: StepForm = {
  title: 'Sanctions and PEP screening',
  fields: (view) => html`${identityFields(view, false)}${submitButton('Screen me')}`,
  submit: (form, client) => client.submit(identityBody(form)),
};

const PEP_SANCTIONS_FAILURES = {
  PEP_MATCH: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'SCREENING_MATCH',
    content: 'a person on a PEP list only: first_name Ottoline, last_name Brackenbury, date_of_birth 1961-07-14 (ends the run: REJECTED)',
    magicLastName: null,
    message: 'The person is a politically exposed person.',
  },
  SANCTIONS_MATCH: {
    category: 'OTHER',
    user_action: 'NONE',
    reason: 'SCREENING_MATCH',
    content: 'a person on a sanctions list (or on both kinds): Radomir Kestrelov 1966-09-30, Emile Vautrin-Lacoste 1955-11-23 (ends the run: REJECTED)',
    magicLastName: null,
    message: 'The person is on a sanctions list.',
  },
} satisfies Record<string, FailureRow>;

export const PEP_SANCTIONS_STEP = defineStep<PepSanctionsStepBody>({
  code: 'PEP_SANCTIONS',
  summary: 'Screens the person sent against the PEP and sanctions watchlists; a match ends the run',
  body: PepSanctionsStepBodySchema,
  headless: false,
  requirements: () => ({ fields: ['first_name', 'last_name', 'date_of_birth'] }),
  failures: PEP_SANCTIONS_FAILURES,
  hostedForm: pepSanctionsForm,
  run(_context, body) {
    const { value: response, explanations } = screenPepSanctions(
      { firstName: body.first_name, lastName: body.last_name, dateOfBirth: body.date_of_birth },
      defaultWatchlist(),
    );
    const analysis = { pep_sanctions_data: { peps: response.peps, sanctions: response.sanctions, both: response.both } };
    const sanctioned = [...response.both, ...response.sanctions];
    if (sanctioned.length > 0) {
      return {
        kind: 'failed',
        failure: { code: 'SANCTIONS_MATCH', slot: 'STEP', detail: `On a sanctions list: ${describe(sanctioned)}.` },
        endsRun: true,
        analysis,
        explanations,
      };
    }
    if (response.peps.length > 0) {
      return {
        kind: 'failed',
        failure: { code: 'PEP_MATCH', slot: 'STEP', detail: `A politically exposed person: ${describe(response.peps)}.` },
        endsRun: true,
        analysis,
        explanations,
      };
    }
    return { kind: 'passed', analysis, explanations };
  },
});
