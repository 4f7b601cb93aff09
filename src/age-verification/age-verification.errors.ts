/** The age-verification area's rows of the error-code map (platform/errors/error-codes.ts). */
import { defineErrorCodes } from '../platform/errors/error-codes.ts';

interface RequestFacts {
  id: string;
}
interface AttestationFacts {
  childAttestationId: string;
}
interface BoundaryFacts {
  key: string;
}

export const AGE_VERIFICATION_ERROR_CODES = defineErrorCodes({
  PARENT_CONNECT_NOT_FOUND: {
    status: 404,
    message: ({ id }: RequestFacts) =>
      `Parent Connect request ${id} was not found: use the id from the parent_connect link of POST /v1/age-verification or from the list.`,
  },
  PARENT_CONNECT_OF_ANOTHER_ORGANIZATION: {
    status: 403,
    message: ({ id }: RequestFacts) => `Parent Connect request ${id} belongs to another organization: use an API key of the organization that created it.`,
  },
  /** The parent's event on a request the namespace does not hold. */
  PARENT_CONNECT_NOT_IN_NAMESPACE: {
    status: 404,
    message: ({ id }: RequestFacts) => `There is no Parent Connect request ${id} in this namespace.`,
  },
  PARENT_CONNECT_EVENT_NOT_POSSIBLE: {
    status: 409,
    message: (facts: RequestFacts & { status: string; event: string }) =>
      `Parent Connect request ${facts.id} is ${facts.status}: "${facts.event}" is not possible now.`,
  },
  EULA_NOT_ACCEPTED: {
    status: 400,
    message: () => 'accept_eula must be true: the parent has to accept the EULA to consent.',
  },
  ATTESTATION_OF_ANOTHER_ORGANIZATION: {
    status: 403,
    message: ({ childAttestationId }: AttestationFacts) =>
      `The child attestation ${childAttestationId} belongs to another organization's Parent Connect request: use an API key of the organization that created it.`,
  },
  ATTESTATION_NOT_FOUND: {
    status: 404,
    message: ({ childAttestationId }: AttestationFacts) =>
      `No Parent Connect request has the child attestation ${childAttestationId}: use the child_attestation_id of a Parent Connect request.`,
  },
  BOUNDARY_NOT_A_RESTRICTION: {
    status: 400,
    message: (facts: BoundaryFacts & { restrictions: readonly string[] }) =>
      `boundaries.${facts.key} is not one of the request's platform restrictions (${facts.restrictions.join(', ') || 'none'}).`,
  },
  BOUNDARY_REQUIRED: {
    status: 400,
    message: (facts: BoundaryFacts & { label: string }) => `boundaries.${facts.key} is required: choose a value for "${facts.label}".`,
  },
  BOUNDARY_NOT_A_TOGGLE: {
    status: 400,
    message: ({ key }: BoundaryFacts) => `boundaries.${key} must be true or false.`,
  },
  BOUNDARY_OUT_OF_RANGE: {
    status: 400,
    message: (facts: BoundaryFacts & { min: number | undefined; max: number | undefined }) =>
      `boundaries.${facts.key} must be a number from ${facts.min ?? '-inf'} to ${facts.max ?? 'inf'}.`,
  },
  BOUNDARY_NOT_AN_OPTION: {
    status: 400,
    message: (facts: BoundaryFacts & { options: readonly string[] }) => `boundaries.${facts.key} must be one of ${facts.options.join(', ')}.`,
  },
});
