/**
 * ADDRESS_VERIFICATION: `start` presigns the upload of a proof of address (a photo of a utility bill or bank
 * letter, image/jpeg) and returns its URL and key; the applicant PUTs it; `complete` reads it, types it from
 * its bytes and passes when it is a readable image or PDF. The magic last name Noaddress fails it whatever
 * the file. complete before start is 409 STEP_NOT_STARTED, before the PUT 409 STEP_UPLOAD_INCOMPLETE.
 */
import { ApiError } from '../../platform/errors/api-error.ts';
import { sessionUploadOwner } from '../session-results.ts';
import { stepConflict } from '../workflow-errors.ts';
import { startCompleteBody, type StartCompleteBody } from './step-bodies.ts';
import { readTypedFiles, unreadableReason } from './step-files.ts';
import { defineStep, type FailureRow } from './step-module.ts';
import { startCompleteForm } from './hosted-forms.ts';

export const AddressVerificationStepBodySchema = startCompleteBody('AddressVerificationStepBody');
export const NO_ADDRESS_LAST_NAME = 'Noaddress';
const PROOF_CONTENT_TYPE = 'image/jpeg';

const ADDRESS_VERIFICATION_FAILURES = {
  ADDRESS_DOCUMENT_NOT_READABLE: {
    category: 'DOCUMENT',
    user_action: 'RETAKE_DOCUMENT',
    reason: 'OCR_NAME_MISSING',
    content: 'a proof of address that is not a readable image or PDF (fixtures/images/blank.png)',
    magicLastName: 'Noaddress',
    message: 'The proof of address could not be read.',
  },
} satisfies Record<string, FailureRow>;

export const ADDRESS_VERIFICATION_STEP = defineStep<StartCompleteBody>({
  code: 'ADDRESS_VERIFICATION',
  summary: 'start presigns the proof-of-address upload; complete reads it and passes when it is a readable image or PDF',
  body: AddressVerificationStepBodySchema,
  headless: false,
  requirements: () => ({ proof_of_address: { content_type: PROOF_CONTENT_TYPE } }),
  failures: ADDRESS_VERIFICATION_FAILURES,
  hostedForm: startCompleteForm('Your address', 'A check of your address'),
  async run(context, body) {
    const where = { current_step: context.index, step_id: 'ADDRESS_VERIFICATION' };
    if (body.action === 'start') {
      const upload = context.deps.presign({ contentType: PROOF_CONTENT_TYPE, owner: sessionUploadOwner(context.sessionId), slot: 'proof_of_address' });
      return {
        kind: 'progress',
        state: { fileKey: upload.fileKey },
        payload: {
          address_verification: {
            action: 'start',
            upload_url: upload.uploadUrl,
            file_key: upload.fileKey,
            content_type: PROOF_CONTENT_TYPE,
            expires_at: upload.expiresAt,
          },
        },
        explanations: [`ADDRESS_VERIFICATION: PUT the proof of address (${PROOF_CONTENT_TYPE}) to the upload_url, then complete`],
      };
    }
    const fileKey = context.state?.fileKey;
    if (typeof fileKey !== 'string') {
      throw stepConflict(
        'STEP_NOT_STARTED',
        `ADDRESS_VERIFICATION on session ${context.sessionId} has not started: submit {"action": "start"} first, then complete.`,
        where,
      );
    }
    let files: Awaited<ReturnType<typeof readTypedFiles>>;
    try {
      files = await readTypedFiles({ proof_of_address: fileKey }, context.deps.readUpload);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 400) throw error;
      throw stepConflict(
        'STEP_UPLOAD_INCOMPLETE',
        `The proof of address of session ${context.sessionId} has not arrived: PUT it to the upload_url of start (Content-Type ${PROOF_CONTENT_TYPE}), then complete again.`,
        where,
      );
    }
    const file = files[0] as (typeof files)[number];
    const magic = context.applicant.last_name.trim().toLowerCase() === NO_ADDRESS_LAST_NAME.toLowerCase();
    const problem = magic ? `magic value: last name ${NO_ADDRESS_LAST_NAME}` : unreadableReason(file);
    const analysis = { address_verification: { file_key: fileKey, content_type: file.contentType, readable: problem === undefined } };
    const said = `ADDRESS_VERIFICATION: proof_of_address ${file.contentType ?? 'not an image or PDF'}${problem === undefined ? ', readable' : `: ${problem}`}`;
    if (problem === undefined)
      return { kind: 'passed', analysis, payload: { address_verification: { action: 'complete', readable: true } }, explanations: [said] };
    return {
      kind: 'failed',
      failure: { code: 'ADDRESS_DOCUMENT_NOT_READABLE', slot: 'PRIMARY', detail: problem },
      analysis,
      payload: { address_verification: { action: 'complete', readable: false } },
      explanations: [said],
    };
  },
});
