/**
 * What the console uses of the control plane: the same verbs its API calls, so both answer alike.
 * The area's public surface: another area imports this module only (test/architecture/area-boundaries.test.ts).
 */
export { OutboxQuerySchema } from './control.schemas.ts';
export {
  changeClock,
  coverageReport,
  listRequests,
  organizationView,
  requestEntry,
  resetSandbox,
  scenarioView,
  setOrganizationBalance,
  toggleScenario,
} from './control.service.ts';
