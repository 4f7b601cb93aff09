/**
 * A control-plane request loads what it reads, not every area: a clock move, a retention setting or a test
 * job evaluates the control plane only (a read in flight then waits for no other area's evaluation); a
 * scenario with a stub evaluates the areas of the operations it answers for; the catalog and the coverage
 * report, which read what every area adds, load them all.
 */
import { describe, expect, it, vi } from 'vitest';
import { testSandbox } from '../helpers/sandbox.ts';

/** The area routers evaluated so far (each router module notes its first evaluation). */
const evaluated = vi.hoisted(() => new Set<string>());
vi.mock('../../src/control/control.router.ts', async (original) => {
  evaluated.add('control');
  return original();
});
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

describe('what the first control-plane requests evaluate', () => {
  it('the clock, retention and a test job evaluate the control plane only; a stub its operation; the catalog every area', async () => {
    const sandbox = await testSandbox();
    const control = (method: string, path: string, body?: unknown) => sandbox.call(method, path, { key: null, body });

    expect((await control('POST', '/__sandbox/clock', { advance: '1s' })).status).toBe(200);
    expect((await control('PUT', '/__sandbox/retention', { days: 30 })).status).toBe(200);
    const job = await control('POST', '/__sandbox/jobs', { input: { n: 1 } });
    expect([job.status, job.body.status]).toEqual([201, 'pending']);
    expect([...evaluated]).toEqual(['control']);

    const stub = { match: { methods: ['GET'], path: '/v1/sessions/*' }, respond: { status: 200, body: { nope: true } } };
    const refused = await control('POST', '/__sandbox/scenarios', { name: 'bad-stub', description: 'x', rules: [stub] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^Invalid scenario: rules\.0\.respond: .*GET \/v1\/sessions\/\{id\}/);
    expect([...evaluated].sort()).toEqual(['control', 'sessions']);

    const catalog = await control('GET', '/__sandbox/catalog');
    expect(catalog.status).toBe(200);
    expect(catalog.body.jobKinds).toEqual(['adverse-media', 'sandbox.echo']);
    expect([...evaluated].sort()).toEqual(['control', 'screening', 'sessions', 'workflows']);
  });
});
