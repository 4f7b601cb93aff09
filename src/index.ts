/** The programmatic API: `createSandbox(options)` for test suites. */
export { createSandbox, type Sandbox, type SandboxOptions } from './sandbox.ts';
export type { ClockSetting } from './platform/clock/virtual-clock.ts';
