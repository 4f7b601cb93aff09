/**
 * What other areas use of AML: the monitored users and the transaction quota (the console).
 * The area's public surface: another area imports this module only (test/architecture/area-boundaries.test.ts).
 */
export { listMonitoredUsers } from './monitored-users.service.ts';
export { quotaStatus } from './transactions.service.ts';
