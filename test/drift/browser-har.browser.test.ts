/**
 * A HAR written by a real browser: Chromium (playwright's recordHar, what devtools' "Export HAR" writes)
 * calls the API from a page and opens the hosted page of the session it created, against a sandbox standing
 * for the real service; check-recording reads that HAR back and finds nothing to report.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDriftReport } from '../../src/drift/drift-report.ts';
import { readRecording } from '../../src/drift/recording.ts';
import { replay } from '../../src/drift/replay.ts';
import { createSandbox } from '../../src/sandbox.ts';
import { chromiumForFile } from '../browser/chromium.ts';
import { silentLogger } from '../helpers/sandbox.ts';
import { temporaryDirectory } from '../helpers/temporary-directory.ts';

const browser = chromiumForFile();

describe('a HAR recorded by Chromium', { timeout: 60_000 }, () => {
  it('reads back, and replayed against a sandbox of another seed shows no drift', async () => {
    const service = await createSandbox({ port: 0, host: '127.0.0.1', memory: true, seed: 42, clock: 'frozen@2026-02-01T10:00:00.000Z', logger: silentLogger });
    const har = join(temporaryDirectory('idv-har-'), 'staging.har');
    const context = await browser().newContext({ recordHar: { path: har, content: 'embed' } });
    try {
      const page = await context.newPage();
      // A page of the service's origin to call the API from (the key check, answering 403 to a browser that sends none).
      await page.goto(`${service.url}/v1/auth/verify`);
      // The integrator's front end calling the API from the page, as a browser app with a staging key would.
      const created = await page.evaluate(async () => {
        const call = async (method: string, path: string, body?: unknown) => {
          const response = await fetch(path, {
            method,
            headers: { 'x-api-key': 'sk_live_demo', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
          return (await response.json()) as any;
        };
        const session = await call('POST', '/v1/sessions', { first_name: 'Jane', last_name: 'Doe', email: 'jane.doe@example.com' });
        await call('GET', `/v1/sessions/${session.id}`);
        await call('GET', '/v1/sessions?limit=5');
        const job = await call('POST', '/v1/screening/adverse-media', {
          email: 'jane.doe@example.com',
          firstName: 'Jane',
          lastName: 'Doe',
          dateOfBirth: '1990-04-01',
        });
        await call('GET', `/v1/async-jobs/${job.jobId}`);
        return session as { session_url: string };
      });
      // The applicant's hosted page, through the link the API handed out.
      await page.goto(created.session_url);
      await page.getByRole('heading').first().waitFor();
    } finally {
      await context.close();
      await service.close({ report: false });
    }

    const exchanges = readRecording(readFileSync(har, 'utf8'), 'staging.har');
    const requests = exchanges.map((e) => `${e.request.method} ${new URL(e.request.url).pathname.replace(/[0-9a-f-]{36}/, '{id}')}`);
    expect(requests).toEqual(
      expect.arrayContaining([
        'GET /v1/auth/verify',
        'POST /v1/sessions',
        'GET /v1/sessions/{id}',
        'POST /v1/screening/adverse-media',
        'GET /v1/async-jobs/{id}',
        'GET /verify/{id}',
      ]),
    );
    const report = buildDriftReport(await replay(exchanges));
    expect(report.operations.flatMap((o) => o.differences)).toEqual([]);
    expect(report.operations.map((o) => o.operation)).toEqual(
      expect.arrayContaining(['GET /verify/{id}', 'GET /v1/async-jobs/{jobId}', 'GET /v1/auth/verify']),
    );
    expect(report).toMatchObject({ drift: false, unserved: [] });
  });
});
