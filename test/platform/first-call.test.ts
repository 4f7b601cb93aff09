/**
 * The first call is like any call: on a sandbox started as the CLI starts it (each area evaluated on its
 * first request), every step type driven to its end answers exactly as on a sandbox with every area
 * loaded, whatever was (not) called before. Generated from the step-code table (test/helpers/step-drives.ts).
 */
import { describe, expect, it } from 'vitest';
import { STEP_CODES } from '../../src/workflows/workflow-steps.ts';
import { loadedSandbox, testSandbox, type CallResult, type TestSandbox } from '../helpers/sandbox.ts';
import { drivenSession, STEP_DRIVES, type StepDrive } from '../helpers/step-drives.ts';

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
