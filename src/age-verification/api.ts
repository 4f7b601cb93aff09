/**
 * What other areas use of age verification: a Parent Connect request's page and wire shape (the console).
 * The area's public surface: another area imports this module only (test/architecture/area-boundaries.test.ts).
 */
export { parentConnectPageUrl, parentConnectRequests, toParentConnectJson } from './age-verification.service.ts';
