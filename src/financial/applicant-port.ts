/**
 * What the financial area needs of the sessions area (above this one): the applicant's and the sender's
 * user ids by the sessions' own rule, so one applicant has one user id across sessions and bank
 * statements. Provided by the sessions area (its entry in src/modules.ts).
 */
import { declarePort } from '../platform/platform.ts';

export interface ApplicantIds {
  /** One user per e-mail address within an organization. */
  applicantUserIdFor(organizationId: string, email: string, ...seedParts: readonly (string | number)[]): string;
  /** The user who sends the organization's sessions. */
  senderUserIdFor(organizationId: string): string;
}

export const applicantIds = declarePort<ApplicantIds>('financial → sessions');
