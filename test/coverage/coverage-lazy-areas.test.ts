/**
 * Coverage where the areas are evaluated on first use (how the CLI, the bin and the image start): the first
 * answers wait, unclassified, without loading every area; a report, or a queue of waiting answers, loads them
 * and counts what waited, classes told apart by a request body included.
 */
import { describe, expect, it, vi } from 'vitest';
import { FOLD_LIMIT, PENDING_LIMIT } from '../../src/platform/coverage/coverage.ts';
import { KEYS, testSandbox } from '../helpers/sandbox.ts';

/** The area routers evaluated so far (each router module notes its first evaluation). */
const evaluated = vi.hoisted(() => new Set<string>());
vi.mock('../../src/sessions/sessions.router.ts', async (original) => {
  evaluated.add('sessions');
  return original();
});
vi.mock('../../src/screening/screening.router.ts', async (original) => {
  evaluated.add('screening');
  return original();
});
vi.mock('../../src/workflows/workflows.router.ts', async (original) => {
  evaluated.add('workflows');
  return original();
});

const onFirstUse = () => testSandbox({ rateLimit: false });

describe('coverage with areas evaluated on first use', () => {
  it('the first answers load their own areas only; the report loads the rest and counts what waited', async () => {
    const sandbox = await onFirstUse();
    const session = { firstName: 'Jane', lastName: 'Doe', email: 'jane.doe@example.com', redirect_url: 'https://example.com/done' };
    expect((await sandbox.call('POST', '/v1/sessions', { body: session })).status).toBe(200);
    expect((await sandbox.call('GET', '/v1/sessions/does-not-exist')).status).toBe(404);
    expect((await sandbox.call('POST', '/v1/screening/phone-trust', { body: { phone: '+447700900003' } })).status).toBe(200);
    expect([...evaluated].sort()).toEqual(['screening', 'sessions']);
    expect(sandbox.platform.coverage.ready).toBe(false);

    const report = await sandbox.call('GET', '/__sandbox/coverage');
    expect(report.status).toBe(200);
    expect(evaluated.has('workflows')).toBe(true);
    const hits = new Map((report.body.hit as { id: string; count: number }[]).map((hit) => [hit.id, hit.count]));
    expect(hits.get('status POST /v1/sessions 200')).toBe(1);
    expect(hits.get('status GET /v1/sessions/{id} 404')).toBe(1);
    // Recognised from the request's body, which was kept while the operation's classes were not known.
    expect(hits.get('magic-value POST /v1/screening/phone-trust phone +447700900003')).toBe(1);
    await sandbox.close();
  });

  it('answers repeated past the queue are folded and counted at the report, with their first and last request ids, without loading other areas', async () => {
    const sandbox = await onFirstUse();
    const requestIds: string[] = [];
    const repeats = PENDING_LIMIT * 3 + 5;
    for (let i = 0; i < repeats; i += 1) {
      const read = await sandbox.call('GET', '/v1/sessions/test_approved', { key: KEYS.sandbox });
      expect(read.status).toBe(200);
      requestIds.push(read.headers.get('x-request-id') as string);
      // Another class between the repeats: runs of alike answers are folded apart from it.
      if (i === PENDING_LIMIT) expect((await sandbox.call('GET', '/v1/sessions/does-not-exist')).status).toBe(404);
    }
    // Not loaded: every area's routes would have been learnt.
    expect(sandbox.platform.coverage.ready).toBe(false);

    const report = await sandbox.call('GET', '/__sandbox/coverage');
    expect(report.status).toBe(200);
    const hit = (report.body.hit as { id: string; count: number; firstRequestId: string; lastRequestId: string }[]).find(
      (entry) => entry.id === 'status GET /v1/sessions/{id} 200',
    );
    expect(hit).toMatchObject({ count: repeats, firstRequestId: requestIds[0], lastRequestId: requestIds.at(-1) });
    expect((report.body.hit as { id: string; count: number }[]).find((entry) => entry.id === 'status GET /v1/sessions/{id} 404')?.count).toBe(1);
    await sandbox.close();
  });

  it('once too many different answers wait, the areas are loaded without being asked and the answers counted', async () => {
    const sandbox = await onFirstUse();
    // Each path is a different answer to fold (a 404 of another id): FOLD_LIMIT of them fill the fold.
    const distinct = FOLD_LIMIT + PENDING_LIMIT;
    for (let i = 0; i < distinct; i += 1) {
      expect((await sandbox.call('GET', `/v1/sessions/missing-${i}`)).status).toBe(404);
    }
    await vi.waitFor(() => expect(sandbox.platform.coverage.recorder.namespaceNames()).toEqual(['default']), { timeout: 10_000 });
    expect(sandbox.platform.coverage.ready).toBe(true);
    expect((await sandbox.coverage('default')).hit.find((hit) => hit.id === 'status GET /v1/sessions/{id} 404')?.count).toBe(distinct);
    await sandbox.close();
  });
});
