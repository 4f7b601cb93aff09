/**
 * Building blocks of the synthetic Canadian bureau file: institutions (all fictional, so a sandbox report
 * never names a real lender as delinquent) and courts. Places and calendar arithmetic are the financial
 * area's (a bank statement's applicant lives in the same fictional Canada).
 */
import type { Rng } from '../platform/random/random.ts';
import { SANDBOX_BANKS, TELCOS, type Province } from '../financial/api.ts';

// ---------------------------------------------------------------- institutions (fictional)

export const BANK_NAMES: readonly string[] = SANDBOX_BANKS.map((bank) => bank.name);
export const CARD_ISSUERS = ['Summit Card Services', 'Aurora Rewards Visa', 'Northern Lights Mastercard'];
export const RETAIL_CREDITORS = ['Lakeside Home Furnishings', 'Polar Outfitters', 'Hudson Ridge Department Store'];
export const AUTO_LENDERS = ['Cedar Ridge Auto Finance', 'Trillium Motor Credit'];
/** Collateral descriptions of auto loans (common models; the lenders are fictional). */
export const VEHICLES = [
  'Honda Civic',
  'Toyota Corolla',
  'Ford F-150',
  'Hyundai Elantra',
  'Mazda CX-5',
  'Chevrolet Equinox',
  'Toyota RAV4',
  'Nissan Rogue',
  'Kia Sportage',
  'Subaru Outback',
];
export const STUDENT_LOAN_CENTRE = 'National Student Loans Service Centre';
export const COLLECTION_AGENCIES = [
  'Keystone Recovery Services',
  'Pinnacle Collections Ltd.',
  'Granite Credit Recovery',
  'Beacon Receivables Management',
  'Cornerstone Collection Agency',
];
export const COLLECTION_ORIGINAL_CREDITORS = {
  TELECOM: TELCOS,
  UTILITY: ['Northern Hydro Utilities', 'Prairie Gas and Electric'],
  MEDICAL: ['Westview Dental Clinic', 'Riverbend Physiotherapy'],
  RETAIL: RETAIL_CREDITORS,
  BANK_CARD: CARD_ISSUERS,
  GYM: ['Iron Maple Fitness'],
  RENTAL: ['Summit Property Management'],
} as const;
export const TRUSTEES = ['Bayview Insolvency Trustees Inc.', 'Fraser and Doyle Licensed Insolvency Trustees', 'Laurentide Debt Solutions Inc.'];
export const OCCUPATIONS = [
  'Accountant',
  'Registered Nurse',
  'Software Developer',
  'Warehouse Supervisor',
  'Teacher',
  'Electrician',
  'Sales Associate',
  'Project Manager',
  'Customer Service Representative',
  'Dental Hygienist',
];

export function superiorCourt(province: Province): string {
  switch (province) {
    case 'ON':
      return 'Ontario Superior Court of Justice';
    case 'QC':
      return 'Superior Court of Quebec';
    case 'BC':
      return 'Supreme Court of British Columbia';
    case 'NS':
      return 'Supreme Court of Nova Scotia';
    case 'NL':
      return 'Supreme Court of Newfoundland and Labrador';
    case 'PE':
      return 'Supreme Court of Prince Edward Island';
    default:
      return `Court of King's Bench (${province})`;
  }
}

export function smallClaimsCourt(province: Province): string {
  if (province === 'ON') return 'Ontario Small Claims Court';
  if (province === 'QC') return 'Court of Quebec, Small Claims Division';
  return `Provincial Court (${province}), Small Claims`;
}

/** A bureau member number: 3 digits, the province, 5 digits (e.g. 412ON01234). */
export function memberNumber(rng: Rng, province: Province): string {
  return `${rng.int(100, 999)}${province}${String(rng.int(0, 99999)).padStart(5, '0')}`;
}

export function maskedAccount(rng: Rng, length: number): string {
  return `${'*'.repeat(Math.max(0, length - 4))}${String(rng.int(0, 9999)).padStart(4, '0')}`;
}
