/**
 * The first call is like any call: on a sandbox started as the CLI starts it (each area evaluated on its
 * first request), every operation and every step type (through the API and the applicant's page) answers
 * exactly as on a sandbox with every area loaded, whatever was (not) called before. Generated from the tables: the operations from the recording
 * of their documented examples (scripts/record-openapi-examples.ts, which must give every operation one),
 * the step types from the step-code table (test/helpers/step-drives.ts).
 */
import { describe, expect, it } from 'vitest';
import { recordOperationExamples, serializeExamples } from '../../scripts/record-openapi-examples.ts';
import { buildApp } from '../../src/app.ts';
import { readOperationExamples } from '../../src/platform/docs/openapi-examples.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { areaRegistries } from '../../src/sandbox.ts';
import { STEP_CODES } from '../../src/workflows/steps/index.ts';
import { loadedSandbox, testSandbox, type CallResult, type TestSandbox } from '../helpers/sandbox.ts';
import { drivenSession, STEP_DRIVES, type StepDrive } from '../helpers/step-drives.ts';
import { openSessionPage, stepForm, submitForm } from '../sessions/page-forms.ts';

interface Answer {
  request: string;
  status: number;
  body: unknown;
}

/** Every answer of the drive on `sandbox`, in order. */
async function answersOf(sandbox: TestSandbox, drive: StepDrive): Promise<Answer[]> {
  const answers: Answer[] = [];
  const call = async (method: string, path: string, options: { body?: unknown; key?: string | null } = {}): Promise<CallResult> => {
    const answer = await sandbox.call(method, path, options);
    answers.push({ request: `${method} ${path}`, status: answer.status, body: answer.body });
    return answer;
  };
  const put = async (url: string, bytes: Buffer, contentType: string) => {
    const target = new URL(url);
    const answer = await sandbox.app.request(target.pathname + target.search, { method: 'PUT', headers: { 'content-type': contentType }, body: bytes });
    answers.push({ request: `PUT ${target.pathname}`, status: answer.status, body: await answer.json() });
  };
  const sessionId = await drivenSession(drive, call);
  await drive.drive({ sessionId, call, put });
  return answers;
}

describe('every step type, driven to its end on a fresh lazy sandbox, answers as on a loaded one', () => {
  for (const code of STEP_CODES) {
    it(code, async () => {
      const drive = STEP_DRIVES[code];
      const first = await answersOf(await testSandbox({ rateLimit: false, secret: 'first-call-test-secret' }), drive);
      const loaded = await answersOf(await loadedSandbox({ rateLimit: false, secret: 'first-call-test-secret' }), drive);
      expect(first).toEqual(loaded);
      const last = first.at(-1) as Answer;
      expect([last.status, (last.body as { step_id?: string; step_status?: string }).step_status], JSON.stringify(last)).toEqual([200, 'COMPLETED']);
    });
  }
});

describe("the applicant's page of every step type answers its first submission on a fresh lazy sandbox as on a loaded one", () => {
  /** The page of a session of the drive's workflow, its first step's form posted with the defaults (and a date of birth, which has none). */
  async function firstSubmission(sandbox: TestSandbox, drive: StepDrive) {
    const sessionId = await drivenSession(drive, (method, path, options = {}) => sandbox.call(method, path, options));
    const page = await openSessionPage(sandbox, sessionId);
    const form = stepForm(page.html);
    const answer = await submitForm(sandbox, form, { fields: form.defaults.date_of_birth === '' ? { date_of_birth: '1985-03-14' } : {} });
    return { page: page.status, ...answer };
  }

  for (const code of STEP_CODES) {
    it(code, async () => {
      const options = { rateLimit: false, secret: 'first-call-test-secret' };
      const first = await firstSubmission(await testSandbox(options), STEP_DRIVES[code]);
      expect(first).toEqual(await firstSubmission(await loadedSandbox(options), STEP_DRIVES[code]));
      expect(first.status, first.html).toBeLessThan(500);
    });
  }
});

describe('every operation, called first on a freshly started server, answers as on a loaded one', () => {
  it("records every documented example again, each operation's first call answered by a server started for it", async () => {
    // A fresh server over the sandbox's data: an app of its own, whose areas load on first use and fill
    // registries of their own (none filled by what the recording called before).
    const started: Platform[] = [];
    const freshServer = async ({ platform }: { platform: Platform }) => {
      const fresh = { ...platform, ...areaRegistries({ jobTimings: platform.jobs.timings, coverage: false }, platform.scenarios), closers: [] };
      started.push(fresh);
      return buildApp(fresh);
    };
    const firstCalls = await recordOperationExamples(freshServer);
    for (const platform of started) for (const closer of platform.closers) await closer();
    expect(started.length).toBe(Object.keys(readOperationExamples()).length);
    // The examples file is recorded on a sandbox with every area loaded (test/docs keeps it current).
    expect(serializeExamples(firstCalls)).toBe(serializeExamples(readOperationExamples()));
  }, 120_000);
});
