/**
 * What an area's first request evaluates of the areas it uses: a read of a stored session (the first
 * request after a start, often) evaluates the sessions area's API, not the workflows area's step engine
 * and schemas (a session that names a workflow evaluates its run verbs on first need), nor the hosted
 * pages, which are loaded as an area of their own, nor the financial area's schemas, the image codecs or
 * the control plane's schemas; nor does a stop that asks for no coverage report.
 */
import { describe, expect, it, vi } from 'vitest';
import { FIXTURE_WORKFLOW_IDS } from '../../src/workflows/workflows.store.ts';
import { KEYS, loadedSandbox, testSandbox } from '../helpers/sandbox.ts';
import { tempDataFile } from '../helpers/data-dir.ts';

/** The modules evaluated so far, of those watched here (each notes its first evaluation). */
const evaluated = vi.hoisted(() => new Set<string>());
vi.mock('../../src/sessions/sessions.router.ts', async (original) => {
  evaluated.add('sessions API');
  return original();
});
vi.mock('../../src/sessions/hosted-page.router.ts', async (original) => {
  evaluated.add('hosted pages');
  return original();
});
vi.mock('../../src/workflows/workflow-runs.store.ts', async (original) => {
  evaluated.add('workflow runs');
  return original();
});
vi.mock('../../src/workflows/workflows.schemas.ts', async (original) => {
  evaluated.add('workflows schemas');
  return original();
});
vi.mock('../../src/financial/financial.schemas.ts', async (original) => {
  evaluated.add('financial schemas');
  return original();
});
vi.mock('../../src/images/image-loading.ts', async (original) => {
  evaluated.add('image codecs');
  return original();
});
vi.mock('../../src/control/control.schemas.ts', async (original) => {
  evaluated.add('control plane schemas');
  return original();
});

describe('what the first requests of the sessions area evaluate', () => {
  it('a stored session read after a restart evaluates the sessions API only; a workflow evaluates its runs, the page its own area', async () => {
    const options = { memory: false, data: tempDataFile() };
    const first = await testSandbox(options);
    const created = await first.call('POST', '/v1/sessions', { body: { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com' } });
    expect(created.status, created.text).toBe(200);
    expect([...evaluated]).toEqual(['sessions API']);
    // A stop that asks for no coverage report (the CLI's, without --coverage-out or a gate) evaluates no other area.
    expect(await first.close({ report: false })).toBeUndefined();
    expect([...evaluated]).toEqual(['sessions API']);

    const restarted = await testSandbox(options);
    const read = await restarted.call('GET', `/v1/sessions/${created.body.id}`);
    expect([read.status, read.body.session_record.id]).toEqual([200, created.body.id]);
    expect([...evaluated]).toEqual(['sessions API']);

    const withWorkflow = await restarted.call('POST', '/v1/sessions', {
      body: { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com', workflowId: FIXTURE_WORKFLOW_IDS.identity72h },
    });
    expect(withWorkflow.status, withWorkflow.text).toBe(200);
    expect(evaluated.has('workflow runs')).toBe(true);
    expect(evaluated.has('hosted pages')).toBe(false);

    const page = await restarted.call('GET', new URL(withWorkflow.body.session_url).pathname + new URL(withWorkflow.body.session_url).search, { key: null });
    expect(page.status, page.text).toBe(200);
    expect(evaluated.has('hosted pages')).toBe(true);
    await restarted.close();
  });

  it('a session that names a workflow answers as it does once every area is loaded, refusals included', async () => {
    const bodies = [
      { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com', workflowId: FIXTURE_WORKFLOW_IDS.identity72h },
      { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com', workflowId: FIXTURE_WORKFLOW_IDS.identityAndPhone },
      { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com', workflowId: FIXTURE_WORKFLOW_IDS.inactive },
      { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com', workflowId: '00000000-0000-4000-8000-000000000000' },
      {
        firstName: 'Jane',
        lastName: 'Doe',
        email: 'jane.doe@example.com',
        workflowId: FIXTURE_WORKFLOW_IDS.identity72h,
        externalId: 'sandbox-attempts:nonsense',
      },
    ];
    const lazy = await testSandbox();
    const eager = await loadedSandbox();
    // Page tokens are signed with each sandbox's own secret.
    const answer = async (sandbox: Awaited<ReturnType<typeof testSandbox>>, body: object) => {
      const { status, text, headers } = await sandbox.call('POST', '/v1/sessions', { body, key: KEYS.live });
      return { status, text: text.replace(/token=[\w-]+/g, 'token=…'), explain: headers.get('x-sandbox-explain') };
    };
    for (const body of bodies) expect(await answer(lazy, body)).toEqual(await answer(eager, body));
  });
});
