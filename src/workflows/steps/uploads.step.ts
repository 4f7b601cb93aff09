/**
 * DOCUMENT_UPLOAD and CUSTOM_PROMPT: the applicant uploads files into named slots. Each file key is checked
 * (a key of the session's organization whose bytes arrived: 400/403 INVALID_UPLOAD_KEY otherwise) and
 * typed from its bytes (an image the image engine decodes and analyses, or a PDF); a file that is neither,
 * or a blank image, fails the attempt. The step's config may name the slots it requires (`slots`: an array
 * of slot names; CUSTOM_PROMPT also `prompt`, the question shown): a missing slot is a 400 naming it.
 */
import { workflowError } from '../workflow-errors.ts';
import { uploadsBody, type UploadsBody } from './step-bodies.ts';
import { readTypedFiles, unreadableReason } from './step-files.ts';
import { defineStep, type StepContext, type StepOutcome, type FailureRow } from './step-module.ts';
import { fileField, storedUploads, submitButton, type FormView, type StepForm } from './hosted-forms.ts';
import { html } from 'hono/html';

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

async function checkFiles(context: StepContext, body: UploadsBody, code: string, failureCode: string): Promise<StepOutcome> {
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

/** The slots an uploads step asks for (its requirements' `slots`), or one `document` slot when it names none. */
function uploadSlots(view: FormView): string[] {
  const slots = (view.step.requirements as { slots?: unknown } | undefined)?.slots;
  const named = Array.isArray(slots) ? slots.filter((slot): slot is string => typeof slot === 'string') : [];
  return named.length > 0 ? named : ['document'];
}

function uploadsForm(title: string, what: string): StepForm {
  return {
    title,
    fields: (view) => {
      const prompt = (view.step.requirements as { prompt?: unknown } | undefined)?.prompt;
      return html`<p>${typeof prompt === 'string' ? prompt : `${what}.`}</p>${uploadSlots(view).map((slot) => fileField(slot, slot.replace(/_/g, ' '), 'upload'))}${submitButton('Upload')}`;
    },
    submit: async (form, client, view) => client.submit({ uploads: await storedUploads(form, client, uploadSlots(view)) }),
  };
}

const DOCUMENT_UPLOAD_FAILURES = {
  DOCUMENT_UPLOAD_FILE_NOT_ACCEPTED: {
    category: 'DOCUMENT',
    user_action: 'RETAKE_DOCUMENT',
    reason: 'FILE_NOT_ACCEPTED',
    content: 'an uploaded file whose bytes are neither an image (JPEG, PNG, WebP, …) nor a PDF, or an image too flat to read (fixtures/images/blank.png)',
    magicLastName: null,
    message: 'An uploaded document is not a readable image or PDF.',
  },
} satisfies Record<string, FailureRow>;

export const DOCUMENT_UPLOAD_STEP = defineStep<UploadsBody>({
  code: 'DOCUMENT_UPLOAD',
  summary: 'Uploaded files checked (own organization, bytes arrived) and typed from their bytes: readable images or PDFs pass',
  body: DocumentUploadStepBodySchema,
  headless: false,
  requirements,
  failures: DOCUMENT_UPLOAD_FAILURES,
  hostedForm: uploadsForm('Document upload', 'Upload your document'),
  run: (context, body) => checkFiles(context, body, 'DOCUMENT_UPLOAD', 'DOCUMENT_UPLOAD_FILE_NOT_ACCEPTED'),
});

const CUSTOM_PROMPT_FAILURES = {
  CUSTOM_PROMPT_FILE_NOT_ACCEPTED: {
    category: 'DOCUMENT',
    user_action: 'RETAKE_DOCUMENT',
    reason: 'FILE_NOT_ACCEPTED',
    content: 'an uploaded file whose bytes are neither an image nor a PDF, or an image too flat to read (fixtures/images/blank.png)',
    magicLastName: null,
    message: 'An uploaded answer to the prompt is not a readable image or PDF.',
  },
} satisfies Record<string, FailureRow>;

export const CUSTOM_PROMPT_STEP = defineStep<UploadsBody>({
  code: 'CUSTOM_PROMPT',
  summary: "The answer to the workflow's prompt as uploaded files, checked and typed from their bytes like DOCUMENT_UPLOAD",
  body: CustomPromptStepBodySchema,
  headless: false,
  requirements,
  failures: CUSTOM_PROMPT_FAILURES,
  hostedForm: uploadsForm('A document we ask for', 'Upload the document the organization asks for'),
  run: (context, body) => checkFiles(context, body, 'CUSTOM_PROMPT', 'CUSTOM_PROMPT_FILE_NOT_ACCEPTED'),
});
