/** The async-jobs area's rows of the error-code map (platform/errors/error-codes.ts). */
import { defineErrorCodes } from '../platform/errors/error-codes.ts';

interface JobFacts {
  jobId: string;
}

export const ASYNC_JOB_ERROR_CODES = defineErrorCodes({
  JOB_NOT_FOUND: {
    status: 404,
    message: ({ jobId }: JobFacts) => `Async job ${jobId} was not found: it never existed or expired after its retention period.`,
  },
  JOB_OF_ANOTHER_ORGANIZATION: {
    status: 403,
    message: ({ jobId }: JobFacts) => `Async job ${jobId} belongs to another organization.`,
  },
});
