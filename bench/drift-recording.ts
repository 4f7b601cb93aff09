/**
 * A recording for the check-recording case of `npm run bench`: `count` exchanges with an in-process
 * sandbox (seed 42) standing for the real service, as an integrator's staging run makes them (sessions
 * created, read and listed, workflows and their headless sessions, screening jobs polled), one second
 * apart on its clock, written as the JSONL that check-recording reads.
 */
import { jsonlLine, type Exchange } from '../src/drift/recording.ts';
import { createSandbox } from '../src/sandbox.ts';

const START = Date.parse('2026-02-01T10:00:00.000Z');
const HOST = 'https://api.idv.example';
const STAGING_KEY = 'sk_live_St4gingAccountKey9';
const APPLICANT = { first_name: 'Jane', last_name: 'Doe', email: 'jane.doe@example.com' };

export async function driftRecording(count: number): Promise<string> {
  const service = await createSandbox({ port: null, memory: true, seed: 42, clock: 'frozen', coverage: false, logger: { info() {}, warn() {}, error() {} } });
  const lines: string[] = [];
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    const startedAt = new Date(START + lines.length * 1000).toISOString();
    await service.app.request('/__sandbox/clock', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ set: startedAt }),
    });
    const sent = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = sent === undefined ? {} : { 'content-type': 'application/json' };
    const response = await service.app.request(path, { method, headers: { ...headers, 'x-api-key': 'sk_live_demo' }, body: sent });
    const answer = await response.text();
    const exchange: Exchange = {
      number: lines.length + 1,
      startedAt,
      request: { method, url: `${HOST}${path}`, headers: { ...headers, 'x-api-key': STAGING_KEY }, body: sent },
      response: { status: response.status, headers: Object.fromEntries(response.headers), body: answer },
    };
    lines.push(jsonlLine(exchange));
    return JSON.parse(answer);
  };
  try {
    while (lines.length < count) {
      const session = await call('POST', '/v1/sessions', APPLICANT);
      await call('GET', `/v1/sessions/${session.id}`);
      await call('GET', '/v1/sessions?limit=5');
      const { workflow } = await call('POST', '/v1/workflows', { name: 'KYC', steps: [{ id: 'ID_VERIFICATION' }, { id: 'FACE_LIVENESS' }] });
      const headless = await call('POST', `/v1/workflows/${workflow.id}/sessions`, APPLICANT);
      await call('GET', `/v1/sessions/${headless.session_id}/workflow`);
      const job = await call('POST', '/v1/screening/adverse-media', { email: APPLICANT.email, firstName: 'Jane', lastName: 'Doe', dateOfBirth: '1990-04-01' });
      await call('GET', `/v1/async-jobs/${job.jobId}`);
      await call('GET', `/v1/workflows/${workflow.id}`);
      await call('GET', '/v1/auth/verify');
    }
  } finally {
    await service.close({ report: false });
  }
  return `${lines.slice(0, count).join('\n')}\n`;
}
