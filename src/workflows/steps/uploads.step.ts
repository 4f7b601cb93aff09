/**
 * DOCUMENT_UPLOAD and CUSTOM_PROMPT: the applicant uploads files into named slots. Each file key is checked
 * (a key of the session's organization whose bytes arrived: 400/403 INVALID_UPLOAD_KEY otherwise) and
 * typed from its bytes (an image the image engine decodes and analyses, or a PDF); a file that is neither,
 * or a blank image, fails the attempt. The step's config may name the slots it requires (`slots`: an array
 * of slot names; CUSTOM_PROMPT also `prompt`, the question shown): a missing slot is a 400 naming it.
 */
import { workflowError } from '../workflow-errors.ts';
import type { WorkflowFailureCode } from '../workflow-failures.ts';
import type { StepCode } from '../workflow-steps.ts';
import { uploadsBody, type UploadsBody } from './step-bodies.ts';
import { readTypedFiles, unreadableReason } from './step-files.ts';
import { defineStep, type StepContext, type StepOutcome } from './step-module.ts';

export const DocumentUploadStepBodySchema = uploadsBody('DocumentUploadStepBody');
export const CustomPromptStepBodySchema = uploadsBody('CustomPromptStepBody');

/** The slot names the config requires (none: any slot). */
function requiredSlots(config: Record<string, unknown>): string[] {
  return Array.isArray(config.slots) ? config.slots.filter((slot): slot is string => typeof slot === 'string') : [];
}

function requirements(config: Record<string, unknown>): Record<string, unknown> {
  return {
    slots: requiredSlots(config),
    accepted_types: ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/bmp', 'image/tiff', 'application/pdf'],
    ...(typeof config.prompt === 'string' ? { prompt: config.prompt } : {}),
  };
}

async function checkFiles(context: StepContext, body: UploadsBody, code: StepCode, failureCode: WorkflowFailureCode): Promise<StepOutcome> {
  const missing = requiredSlots(context.config).filter((slot) => body.uploads[slot] === undefined);
  if (missing.length > 0) {
    throw workflowError(
      'VALIDATION_ERROR',
      `Invalid request: uploads.${missing[0]} is required: this ${code} step asks for ${requiredSlots(context.config).join(', ')}.`,
    );
  }
  const files = await readTypedFiles(Object.fromEntries(Object.entries(body.uploads).map(([slot, key]) => [`uploads.${slot}`, key])), context.deps.readUpload);
  const member = code === 'DOCUMENT_UPLOAD' ? 'document_upload' : 'custom_prompt';
  const analysis = {
    [member]: {
      files: files.map((file) => ({
        slot: file.field.slice('uploads.'.length),
        file_key: file.fileKey,
        content_type: file.contentType,
        byte_length: file.byteLength,
        readable: unreadableReason(file) === undefined,
      })),
    },
  };
  const said = files.map(
    (file) =>
      `${file.field}: ${file.contentType ?? 'not an image or PDF'}, ${file.byteLength} bytes${file.image === undefined ? '' : ` (${file.image.summary})`}`,
  );
  const problem = files.map(unreadableReason).find((reason) => reason !== undefined);
  if (problem === undefined) return { kind: 'passed', analysis, explanations: said };
  return { kind: 'failed', failure: { code: failureCode, slot: 'PRIMARY', detail: problem }, analysis, explanations: said };
}

export const DOCUMENT_UPLOAD_STEP = defineStep<UploadsBody>({
  code: 'DOCUMENT_UPLOAD',
  summary: 'Uploaded files checked (own organization, bytes arrived) and typed from their bytes: readable images or PDFs pass',
  body: DocumentUploadStepBodySchema,
  headless: false,
  requirements,
  failures: ['DOCUMENT_UPLOAD_FILE_NOT_ACCEPTED'],
  run: (context, body) => checkFiles(context, body, 'DOCUMENT_UPLOAD', 'DOCUMENT_UPLOAD_FILE_NOT_ACCEPTED'),
});

export const CUSTOM_PROMPT_STEP = defineStep<UploadsBody>({
  code: 'CUSTOM_PROMPT',
  summary: "The answer to the workflow's prompt as uploaded files, checked and typed from their bytes like DOCUMENT_UPLOAD",
  body: CustomPromptStepBodySchema,
  headless: false,
  requirements,
  failures: ['CUSTOM_PROMPT_FILE_NOT_ACCEPTED'],
  run: (context, body) => checkFiles(context, body, 'CUSTOM_PROMPT', 'CUSTOM_PROMPT_FILE_NOT_ACCEPTED'),
});
