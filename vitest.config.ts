import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/temporary-root.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // The CLI processes tests start check their answers too (test sandboxes get it from test/helpers/sandbox.ts).
    env: { IDV_SANDBOX_STRICT_RESPONSES: '1' },
  },
});
