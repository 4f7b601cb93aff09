/**
 * Bench prefill: writes `count` hosted sessions of the bench organization into a data file through the
 * sessions service and the store's own write path (collection puts, journal, one durable flush), not
 * through HTTP. Every session has the same external_id and they are one second apart on a frozen clock,
 * so the list cases have 100% matches for external_id and a known number inside a date window. Returns the
 * id of the session in the middle, which the start-up case reads (a store loaded lazily pays for it there).
 */
import { REFUSES_FOR_FUNDS } from '../src/platform/billing/billing.ts';
import { createSandbox } from '../src/sandbox.ts';
import { createSession } from '../src/sessions/sessions.service.ts';

export const BENCH_ORGANIZATIONS = new URL('./organizations.json', import.meta.url).pathname;
export const BENCH_LIVE_KEY = 'sk_live_bench';
export const BENCH_EXTERNAL_ID = 'bench-applicant';
export const PREFILL_START = '2026-01-01T00:00:00.000Z';
export const PREFILL_SPACING_MS = 1000;

export async function prefill(dataFile: string, count: number): Promise<string> {
  const sandbox = await createSandbox({
    port: null,
    data: dataFile,
    clock: `frozen@${PREFILL_START}`,
    rateLimit: false,
    extraOrganizationsFiles: [BENCH_ORGANIZATIONS],
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  const principal = sandbox.platform.keyRing.identify(BENCH_LIVE_KEY);
  if (!principal) throw new Error(`bench organizations file has no key ${BENCH_LIVE_KEY}`);
  const world = sandbox.platform.worlds.get();
  const links = { urls: sandbox.platform.urls, namespace: world.namespace };
  let middle = '';
  for (let i = 0; i < count; i++) {
    const created = createSession(
      world,
      principal.organization,
      {
        firstName: 'Bench',
        lastName: `Applicant ${i}`,
        email: `applicant${i}@example.com`,
        externalId: BENCH_EXTERNAL_ID,
        sendEmailInvite: false,
        sendPhoneInvite: false,
      },
      links,
      REFUSES_FOR_FUNDS,
    );
    if (i === count >> 1) middle = created.value.id;
    world.clock.advance(PREFILL_SPACING_MS);
    if (i % 5000 === 4999) await sandbox.platform.store.durable();
  }
  await sandbox.close();
  return middle;
}
