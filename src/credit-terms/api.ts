/**
 * What other areas use of credit terms: the records, their page and wire shape (the console).
 * The area's public surface: another area imports this module only (test/architecture/area-boundaries.test.ts).
 */
export { creditTermsPageUrl, findCreditTerms, listCreditTerms, toCreditTermsJson } from './credit-terms.service.ts';
