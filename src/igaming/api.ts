/**
 * What other areas use of iGaming: the self-exclusion registry (the console).
 * The area's public surface: another area imports this module only (test/architecture/area-boundaries.test.ts).
 */
export { listRegistry } from './self-exclusion.service.ts';
