/**
 * The applicant's page of a hosted workflow session in headless Chromium: a five-step onboarding
 * (consent, ID, liveness, phone code, PEP screening) walked as an applicant does, files chosen in the file
 * inputs, the phone code read from the outbox, to the redirect; then the session checked over the API.
 * Every page's WCAG AA contrast is computed by axe-core and screenshotted in test-results/screenshots/.
 */
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { contrastViolations, chromiumForFile, openSandbox, screenshot, type BrowserSandbox } from './chromium.ts';

const APPLICANT = { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com', phone: '+14155550123' };
const APP = 'https://app.example';
const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/images/${name}`, import.meta.url));

const browser = chromiumForFile();

async function api(sandbox: BrowserSandbox['sandbox'], method: string, path: string, body?: unknown, key: string | null = 'sk_live_demo') {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { ...(key === null ? {} : { 'x-api-key': key }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** Waits for the result of the step just posted, then checks the page's contrast and saves its screenshot. */
async function stepDone(page: Page, heading: string, name: string): Promise<void> {
  await page.getByRole('heading', { name: heading }).waitFor();
  expect(await contrastViolations(page), `contrast on ${name}`).toEqual([]);
  await screenshot(page, name);
}

describe('the applicant’s workflow page in a browser', { timeout: 90_000 }, () => {
  it('walks consent, ID, liveness, the phone code from the outbox and PEP screening to the redirect', async () => {
    const opened = await openSandbox(browser(), {}, { [APP]: () => '<!doctype html><title>Integrator app</title><p>back in the app</p>' });
    const { sandbox, page } = opened;
    try {
      const steps = ['CONSENT', 'ID_VERIFICATION', 'FACE_LIVENESS', 'PHONE_VERIFICATION', 'PEP_SANCTIONS'].map((id) => ({ id }));
      const workflow = await api(sandbox, 'POST', '/v1/workflows', { name: 'Onboarding', steps });
      expect(workflow.status).toBe(201);
      const created = await api(sandbox, 'POST', '/v1/sessions', { ...APPLICANT, workflowId: workflow.body.workflow.id, redirectUrl: `${APP}/verified` });
      expect(created.status).toBe(200);
      const id = created.body.id as string;

      await page.goto(created.body.session_url);
      expect(await contrastViolations(page)).toEqual([]);
      await screenshot(page, 'workflow-page-consent');
      await page.getByLabel('Legal name').fill('Jane A. Doe');
      await page.getByRole('button', { name: 'I agree' }).click();
      await stepDone(page, 'Your consent: COMPLETED', 'workflow-page-id');

      // The applicant's own document; the selfie stays on its preselected sample.
      await page.getByLabel('Front of the document: your file').setInputFiles(fixture('passport.jpg'));
      await page.getByRole('button', { name: 'Send the document and selfie' }).click();
      await stepDone(page, 'Your ID document and a selfie: COMPLETED', 'workflow-page-liveness');

      await page.getByLabel('Picture for the frames (JPEG): or a sample image').selectOption('face-cropped.jpg');
      await page.getByRole('button', { name: 'Start the liveness check' }).click();
      await stepDone(page, 'Liveness check: COMPLETED', 'workflow-page-phone');

      await page.getByRole('button', { name: 'Send me a code' }).click();
      await page.getByLabel('Code').waitFor();
      const outbox = await api(sandbox, 'GET', `/__sandbox/outbox?session=${id}&channel=sms`, undefined, null);
      expect(outbox.status).toBe(200);
      const [message] = outbox.body.messages;
      expect(message.to).toBe(APPLICANT.phone);
      const code = /\b(\d{6})\b/.exec(message.text)?.[1];
      expect(code, message.text).toBeDefined();
      await page.getByLabel('Code').fill(code as string);
      await page.getByRole('button', { name: 'Verify the code' }).click();
      await stepDone(page, 'Your phone number: COMPLETED', 'workflow-page-pep');

      await page.getByLabel('Date of birth').fill('1990-04-12');
      await page.getByRole('button', { name: 'Screen me' }).click();
      await page.waitForURL(new RegExp(`^${APP}/verified`));
      const landed = new URL(page.url());
      expect(Object.fromEntries(landed.searchParams)).toEqual({ session_id: id, status: 'success' });

      const state = await api(sandbox, 'GET', `/v1/sessions/${id}/workflow`);
      expect(state.body.steps.map((step: { step_id: string; status: string }) => `${step.step_id} ${step.status}`)).toEqual(
        steps.map((step) => `${step.id} COMPLETED`),
      );
      expect(state.body.current_step).toBeNull();
      const record = (await api(sandbox, 'GET', `/v1/sessions/${id}`)).body.session_record;
      expect(record.status).toBe('VERIFIED');
      expect(record.session_progress).toBe('COMPLETED');
      expect(record.analysis_data.id_matches_selfie).toBe(true);
      expect(record.uploads).toMatchObject({ id_front: true, selfie_front: true });
      expect(opened.outside).toEqual([]);
    } finally {
      await opened.close();
    }
  });
});
