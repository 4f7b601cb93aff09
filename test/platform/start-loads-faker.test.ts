/**
 * A sandbox is ready for its first create when it answers: the en_US faker that names every organization's
 * sender is loaded before the first answer, not by the integrator's first call. Its own module graph and
 * process (vitest.config.ts), so nothing has loaded faker before the sandbox starts.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../helpers/sandbox.ts';

const required = createRequire(import.meta.url).cache;
const fakerLocaleLoaded = (locale: string) => Object.keys(required).some((path) => path.includes('@faker-js') && path.endsWith(`/locale/${locale}.js`));

describe('start-up', () => {
  it("loads en_US faker before the first answer, so the first create does not pay for it", async () => {
    expect(fakerLocaleLoaded('en_US')).toBe(false);
    const sandbox = await testSandbox();
    expect(fakerLocaleLoaded('en_US')).toBe(true);
    const created = await sandbox.call('POST', '/v1/sessions', { body: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } });
    expect(created.status).toBe(200);
    const id = (created.body as { id: string }).id;
    const read = await sandbox.call('GET', `/v1/sessions/${id}`);
    expect((read.body as { sender_user?: { first_name?: string } }).sender_user?.first_name).toMatch(/^[A-Z]/);
  });
});
