/**
 * The applicant's page of a workflow session walks the real steps: one form per step type (STEP_FORMS,
 * keyed by step code), what it shows and how its post becomes the client's body for the step engine
 * (the same POST …/steps/{STEP} verb the API calls). The page acts as the applicant's client: files the
 * applicant picks go into the platform's upload store as session uploads (presigned, then PUT, as the
 * SDK does) and the step gets their file keys; FACE_LIVENESS runs start → upload-url → PUT the frames →
 * complete with frames taken from one chosen picture.
 *
 * Every file input has a sample beside it (fixtures/images, described in IMAGE_FIXTURES): with the
 * preselected samples one click passes the step, another sample shows a failure. A file the applicant
 * chooses wins over the sample.
 *
 * Every interpolation goes through hono/html, which escapes it.
 *
 * LIMITATIONS:
 * - No camera: a liveness capture is the chosen picture repeated as LIVENESS_FRAME_COUNT frames, with
 *   no timeline and no clip.
 */
import { readFile } from 'node:fs/promises';
import { html } from 'hono/html';
import { SANDBOX_BANKS } from '../financial/api.ts';
import { IMAGE_FIXTURES } from '../images/image-outcomes.ts';
import { mimeOf, sniffImageFormat } from '../images/image-format.ts';
import { ApiError } from '../platform/errors/api-error.ts';
import { VALID_ID_TYPES } from '../workflows/id-document-types.ts';
import type { StepCode } from '../workflows/workflow-steps.ts';
import type { WorkflowState } from '../workflows/workflows.schemas.ts';

type Html = ReturnType<typeof html>;

/** A posted form as hono parses it (multipart or url-encoded). */
export type PageForm = Record<string, string | File>;

/** A file the page sends on: the applicant's, or a sample. */
export interface PageFile {
  bytes: Buffer;
  contentType: string;
  /** Where it came from, for explanations ("sample passport.jpg", "your file id.png"). */
  label: string;
}

/** The answer of one step submission (the step envelope, with its loose per-step keys). */
export type StepAnswer = Record<string, unknown> & { step_id: string; step_status: string };

/** What a form's post may do: submit to the step engine and put files into the upload store. */
export interface PageClient {
  submit(body: Record<string, unknown>): Promise<StepAnswer>;
  /** Presigns a session upload for `slot` and PUTs the file: its file key. */
  store(slot: string, file: PageFile): Promise<string>;
  /** PUTs a file to an upload URL a step answered with. */
  deliver(uploadUrl: string, file: PageFile): Promise<void>;
}

export type WorkflowStep = WorkflowState['steps'][number];

/** What a form is drawn from. */
export interface FormView {
  step: WorkflowStep;
  applicant: { firstName: string; lastName: string; email?: string; phone?: string };
  /** The session's bank-statement request page, when its workflow asks for statements. */
  bankStatementPage?: string;
}

export interface StepForm {
  /** The heading the applicant sees. */
  title: string;
  /** The form's inner fields and buttons (the page wraps them in the form that posts to the step). */
  fields(view: FormView): Html;
  /** Turns the post into submissions; the last answer is what the page shows. */
  submit(form: PageForm, client: PageClient, view: FormView): Promise<StepAnswer>;
}

// ─── Files and samples ──────────────────────────────────────────────────────────────────────────────

const FIXTURE_IMAGES_DIR = new URL('../../fixtures/images/', import.meta.url);
/** How many frames a page liveness capture uploads (the step takes 1-8). */
export const LIVENESS_FRAME_COUNT = 3;

/** What a file input is for: an ID document, a selfie, a liveness frame, or a file an uploads step asks for. */
type SamplePurpose = 'document' | 'selfie' | 'frame' | 'upload';

/** What each file input takes: liveness frames are image/jpeg; an uploads step also takes PDFs. */
const ACCEPTED_FILES: Record<SamplePurpose, string> = { document: 'image/*', selfie: 'image/*', frame: 'image/jpeg', upload: 'image/*,application/pdf' };

/** The sample preselected per purpose: the one that passes with the others' defaults. */
const DEFAULT_SAMPLE: Record<SamplePurpose, string> = { document: 'passport.jpg', selfie: 'face.jpg', frame: 'face.jpg', upload: 'passport.jpg' };

function samplesFor(purpose: SamplePurpose) {
  // Liveness frames are image/jpeg (the step's frame_content_type), so only the JPEG samples fit.
  return IMAGE_FIXTURES.filter((fixture) => purpose !== 'frame' || fixture.format === 'jpeg');
}

/** A labelled file input with its sample picker; `name` is the client's field (id_front, selfie_front…). */
function fileField(name: string, label: string, purpose: SamplePurpose, optional = false): Html {
  const preselected = optional ? '' : DEFAULT_SAMPLE[purpose];
  return html`<fieldset><legend>${label}${optional ? ' (optional)' : ''}</legend>
<label>${label}: your file <input type="file" name="${name}" accept="${ACCEPTED_FILES[purpose]}"></label>
<label>${label}: or a sample image <select name="${name}_sample">${optional ? html`<option value="">none</option>` : ''}${samplesFor(purpose).map(
    (fixture) => html`<option value="${fixture.file}"${fixture.file === preselected ? ' selected' : ''}>${fixture.file}: ${fixture.description}</option>`,
  )}</select></label></fieldset>`;
}

async function sampleFile(name: string): Promise<PageFile | undefined> {
  const fixture = IMAGE_FIXTURES.find((candidate) => candidate.file === name);
  if (fixture === undefined) return undefined;
  return { bytes: await readFile(new URL(fixture.file, FIXTURE_IMAGES_DIR)), contentType: mimeOf(fixture.format), label: `sample ${fixture.file}` };
}

/** The applicant's file for `name`, else its sample; undefined when neither was given. */
async function postedFile(form: PageForm, name: string): Promise<PageFile | undefined> {
  const file = form[name];
  if (file instanceof File && file.size > 0) {
    const bytes = Buffer.from(await file.arrayBuffer());
    const format = sniffImageFormat(bytes);
    // The upload is typed from its bytes, not from what the browser guessed.
    return { bytes, contentType: format === null ? file.type || 'application/octet-stream' : mimeOf(format), label: `your file ${file.name}` };
  }
  const sample = form[`${name}_sample`];
  if (typeof sample !== 'string' || sample === '') return undefined;
  const found = await sampleFile(sample);
  if (found === undefined) throw new ApiError(400, `${name}_sample must be one of the sample images (${IMAGE_FIXTURES.map((f) => f.file).join(', ')}).`);
  return found;
}

async function requiredFile(form: PageForm, name: string, label: string): Promise<PageFile> {
  const file = await postedFile(form, name);
  if (file === undefined) throw new ApiError(400, `${label} is missing: choose a file or one of the sample images.`);
  return file;
}

/** The file keys of the posted slots that carry a file (file or sample). */
async function storedUploads(form: PageForm, client: PageClient, slots: readonly string[]): Promise<Record<string, string>> {
  const uploads: Record<string, string> = {};
  for (const slot of slots) {
    const file = await postedFile(form, slot);
    if (file !== undefined) uploads[slot] = await client.store(slot, file);
  }
  return uploads;
}

// ─── Small pieces ───────────────────────────────────────────────────────────────────────────────────

const text = (form: PageForm, name: string): string | undefined => {
  const value = form[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

const withOptional = (body: Record<string, unknown>, optional: Record<string, string | undefined>) => {
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) body[key] = value;
  return body;
};

const submitButton = (label: string, extra: Html | string = '') => html`<button type="submit" class="primary"${extra}>${label}</button>`;
const actionButton = (action: string, label: string, primary = true) =>
  html`<button type="submit" name="action" value="${action}"${primary ? html` class="primary"` : ''}>${label}</button>`;

const textField = (name: string, label: string, value = '', type = 'text', required = true) =>
  html`<label>${label} <input type="${type}" name="${name}" value="${value}"${required ? ' required' : ''}></label>`;

/** The applicant's identity fields of the screening steps (PEP_SANCTIONS, ADVERSE_MEDIA), prefilled. */
function identityFields(view: FormView, withCountry: boolean): Html {
  return html`${textField('first_name', 'First name', view.applicant.firstName)}
${textField('last_name', 'Last name', view.applicant.lastName)}
${textField('date_of_birth', 'Date of birth', '', 'date')}
${textField('email', 'E-mail', view.applicant.email ?? '', 'email', false)}
${withCountry ? textField('country', 'Country (ISO code, optional)', '', 'text', false) : ''}`;
}

function identityBody(form: PageForm): Record<string, unknown> {
  return withOptional(
    { first_name: form.first_name ?? '', last_name: form.last_name ?? '', date_of_birth: form.date_of_birth ?? '' },
    { email: text(form, 'email') },
  );
}

/** The action the button sent (start or complete), defaulting to what the step's status calls for. */
function postedAction(form: PageForm, view: FormView): string {
  const action = text(form, 'action');
  if (action !== undefined) return action;
  return view.step.status === 'IN_PROGRESS' ? 'complete' : 'start';
}

// ─── The forms ──────────────────────────────────────────────────────────────────────────────────────

const consentForm: StepForm = {
  title: 'Your consent',
  fields: (view) => html`<p>Type your legal name to agree that your identity is checked; the signature image is optional.</p>
${textField('legal_name', 'Legal name', `${view.applicant.firstName} ${view.applicant.lastName}`, 'text', false)}
${fileField('signature_upload', 'Signature image', 'upload', true)}
${actionButton('accept', 'I agree')}${actionButton('decline', 'I do not agree', false)}`,
  submit: async (form, client) => {
    if (text(form, 'action') === 'decline') return client.submit({ accepted: false });
    const signature = await postedFile(form, 'signature_upload');
    const body: Record<string, unknown> = { accepted: true, legal_name: form.legal_name ?? '' };
    if (signature !== undefined) body.signature_upload = await client.store('signature_upload', signature);
    return client.submit(body);
  },
};

const ID_SLOTS = ['id_front', 'id_back', 'secondary_id_front', 'secondary_id_back', 'tertiary_id_front', 'tertiary_id_back', 'selfie_front'] as const;

function documentRequirement(view: FormView, key: 'require_secondary_id' | 'require_tertiary_id'): boolean {
  const document = (view.step.requirements as { document?: Record<string, unknown> } | undefined)?.document;
  return document?.[key] === true;
}

function documentTypeSelect(name: string, label: string, selected: string): Html {
  return html`<label>${label} <select name="${name}">${VALID_ID_TYPES.map((type) => html`<option value="${type}"${type === selected ? ' selected' : ''}>${type}</option>`)}</select></label>`;
}

function extraDocument(prefix: 'secondary' | 'tertiary', label: string): Html {
  return html`<h3>${label}</h3>${documentTypeSelect(`${prefix}_document_type`, 'Document type', 'driver-license-us')}
${fileField(`${prefix}_id_front`, 'Front', 'document')}${fileField(`${prefix}_id_back`, 'Back', 'document', true)}`;
}

const idVerificationForm: StepForm = {
  title: 'Your ID document and a selfie',
  fields: (view) => html`${documentTypeSelect('document_type', 'Document type', 'passport-us')}
${fileField('id_front', 'Front of the document', 'document')}
${fileField('id_back', 'Back of the document (not for a passport)', 'document', true)}
${documentRequirement(view, 'require_secondary_id') ? extraDocument('secondary', 'A second document') : ''}
${documentRequirement(view, 'require_tertiary_id') ? extraDocument('tertiary', 'A third document') : ''}
${fileField('selfie_front', 'Selfie', 'selfie')}
${submitButton('Send the document and selfie')}`,
  submit: async (form, client) => {
    const uploads = await storedUploads(form, client, ID_SLOTS);
    const body = withOptional(
      { document_type: form.document_type ?? '', uploads },
      { secondary_document_type: uploads.secondary_id_front === undefined ? undefined : text(form, 'secondary_document_type') },
    );
    if (uploads.tertiary_id_front !== undefined) withOptional(body, { tertiary_document_type: text(form, 'tertiary_document_type') });
    return client.submit(body);
  },
};

const faceLivenessForm: StepForm = {
  title: 'Liveness check',
  fields: (
    view,
  ) => html`<p>Pick the picture the camera would see: the page starts a liveness capture, uploads ${LIVENESS_FRAME_COUNT} frames taken from it and asks for the result.</p>
${fileField('frame', 'Picture for the frames (JPEG)', 'frame')}
${submitButton('Start the liveness check')}
${view.step.status === 'IN_PROGRESS' ? actionButton('complete', 'Ask for the result again (no new frames)', false) : ''}`,
  submit: async (form, client) => {
    if (text(form, 'action') === 'complete') return client.submit({ action: 'complete' });
    const frame = await requiredFile(form, 'frame', 'The picture for the frames');
    if (frame.contentType !== 'image/jpeg')
      throw new ApiError(400, `The picture for the frames must be a JPEG (liveness frames are image/jpeg); ${frame.label} is ${frame.contentType}.`);
    await client.submit({ action: 'start' });
    const urls = await client.submit({ action: 'upload-url', frame_count: LIVENESS_FRAME_COUNT });
    const liveness = urls.liveness as { frame_upload_urls: string[] };
    for (const url of liveness.frame_upload_urls) await client.deliver(url, frame);
    return client.submit({ action: 'complete' });
  },
};

/** The deepfake scans the page offers, as the frames a camera would send (fixtures/images). */
const DEEPFAKE_SCANS = {
  live: {
    label: 'a live scan: person A from two angles',
    frames: ['face.jpg', 'face-cropped.jpg', 'face.jpg', 'face-cropped.jpg', 'face.jpg', 'face-cropped.jpg'],
  },
  replay: {
    label: 'a photo held to the camera: the same picture in every frame',
    frames: ['face.jpg', 'face.jpg', 'face.jpg', 'face.jpg', 'face.jpg', 'face.jpg'],
  },
  switch: {
    label: 'another person half-way: person B in the last frame',
    frames: ['face.jpg', 'face-cropped.jpg', 'face.jpg', 'face-cropped.jpg', 'face.jpg', 'different-face.jpg'],
  },
} as const;
type DeepfakeScan = keyof typeof DEEPFAKE_SCANS;

/** The live scan's frame metadata (fixtures/deepfake-live-scan.json), in the step body's snake case. */
async function liveScanFrameMeta(): Promise<Record<string, unknown>[]> {
  const scan = JSON.parse(await readFile(new URL('../../fixtures/deepfake-live-scan.json', import.meta.url), 'utf8')) as {
    frameMeta: Record<string, unknown>[];
  };
  return scan.frameMeta.map((meta) =>
    Object.fromEntries(Object.entries(meta).map(([key, value]) => [key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`), value])),
  );
}

const deepfakeForm: StepForm = {
  title: 'Face scan',
  fields: () => html`<p>The page starts a scan, uploads its six frames and asks whether a live person was in front of the camera.</p>
<label>What the camera sees <select name="scan">${Object.entries(DEEPFAKE_SCANS).map(([value, scan]) => html`<option value="${value}">${scan.label}</option>`)}</select></label>
${submitButton('Scan my face')}`,
  submit: async (form, client) => {
    const choice = text(form, 'scan') ?? 'live';
    if (!(choice in DEEPFAKE_SCANS)) throw new ApiError(400, `scan must be one of ${Object.keys(DEEPFAKE_SCANS).join(', ')}.`);
    const frames = DEEPFAKE_SCANS[choice as DeepfakeScan].frames;
    const started = await client.submit({ action: 'start' });
    const { upload_urls: urls, s3_keys: keys } = started.deepfake as { upload_urls: Record<string, string>; s3_keys: Record<string, string> };
    const s3Keys: Record<string, string> = {};
    for (const [index, name] of frames.entries()) {
      const slot = `frame_${index}`;
      await client.deliver(urls[slot] as string, (await sampleFile(name)) as PageFile);
      s3Keys[slot] = keys[slot] as string;
    }
    const frameMeta = await liveScanFrameMeta();
    const lastTimestamp = Number(frameMeta.at(-1)?.timestamp ?? 0);
    return client.submit({ action: 'complete', scan_duration_ms: lastTimestamp + 600, frame_meta: frameMeta, s3_keys: s3Keys });
  },
};

const selfieForm: StepForm = {
  title: 'A selfie',
  fields: () => html`${fileField('selfie_front', 'Selfie', 'selfie')}${submitButton('Send the selfie')}`,
  submit: async (form, client) =>
    client.submit({ uploads: { selfie_front: await client.store('selfie_front', await requiredFile(form, 'selfie_front', 'The selfie')) } }),
};

/** Steps the client drives with `{action: start | complete}`; `startFields` are sent with start. */
function startCompleteForm(
  title: string,
  what: string,
  startFields?: (view: FormView) => Html,
  startBody?: (form: PageForm) => Record<string, unknown>,
): StepForm {
  return {
    title,
    fields: (view) =>
      view.step.status === 'IN_PROGRESS'
        ? html`<p>${what} is running. Ask for the result when it is ready.</p>${actionButton('complete', 'Get the result')}`
        : html`<p>${what}.</p>${startFields === undefined ? '' : startFields(view)}${actionButton('start', 'Start')}`,
    submit: (form, client, view) => {
      const action = postedAction(form, view);
      return client.submit(action === 'start' && startBody !== undefined ? { ...startBody(form), action } : { action });
    },
  };
}

/** Steps whose body is `{}`: the check runs on what the session already holds. */
function continueForm(title: string, what: string): StepForm {
  return { title, fields: () => html`<p>${what}.</p>${submitButton('Continue')}`, submit: (_form, client) => client.submit({}) };
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

const phoneVerificationForm: StepForm = {
  title: 'Your phone number',
  fields: (view) =>
    view.step.status === 'IN_PROGRESS'
      ? html`<p>We sent a code to ${view.applicant.phone ?? 'your phone'}.</p>${textField('code', 'Code', '', 'text')}
<input type="hidden" name="action" value="complete">${submitButton('Verify the code')}`
      : html`<p>We will send a one-time code to ${view.applicant.phone ?? 'your phone'}.</p>${actionButton('start', 'Send me a code')}`,
  submit: (form, client, view) => {
    const action = postedAction(form, view);
    return client.submit(action === 'complete' ? { action, code: form.code ?? '' } : { action });
  },
};

/** Which form each step type shows. */
export const STEP_FORMS: Record<StepCode, StepForm> = {
  CONSENT: consentForm,
  FACE_LIVENESS_CONSENT_SETTINGS: { ...consentForm, title: 'Consent to the face check' },
  ID_VERIFICATION: idVerificationForm,
  FACE_LIVENESS: faceLivenessForm,
  AGE_ESTIMATION: { ...selfieForm, title: 'Age estimation from a selfie' },
  DEEPFAKE_DETECTION: deepfakeForm,
  DEEP_AGE: startCompleteForm('Age check', 'An age check of your face'),
  ADDRESS_VERIFICATION: startCompleteForm('Your address', 'A check of your address'),
  BACKGROUND_CHECK: startCompleteForm('Background check', 'A background check on the identity read from your document'),
  BANK_STATEMENT_UPLOAD: startCompleteForm(
    'Your bank statements',
    'Link your bank so the organization can read your statements',
    (
      view,
    ) => html`<label>Your bank <select name="bank">${SANDBOX_BANKS.map((bank) => html`<option value="${bank.input}">${bank.name}: ${bank.description}</option>`)}</select></label>
${view.bankStatementPage === undefined ? '' : html`<p>Or <a href="${view.bankStatementPage}">upload your statements on the bank-statement page</a>, then come back and start.</p>`}`,
    (form) => withOptional({}, { bank: text(form, 'bank') }),
  ),
  AI_BANK_STATEMENT_ANALYSIS: continueForm('Bank statement analysis', 'Your bank statement is analysed'),
  TITLE_SEARCH: {
    title: 'Property title search',
    fields: () => html`<label>Property address <textarea name="address" rows="2" required></textarea></label>${submitButton('Search the title')}`,
    submit: (form, client) => client.submit({ address: form.address ?? '' }),
  },
  PEP_SANCTIONS: {
    title: 'Sanctions and PEP screening',
    fields: (view) => html`${identityFields(view, false)}${submitButton('Screen me')}`,
    submit: (form, client) => client.submit(identityBody(form)),
  },
  ADVERSE_MEDIA: startCompleteForm(
    'Adverse media screening',
    'A search of the news for your name',
    (view) => identityFields(view, true),
    (form) => withOptional(identityBody(form), { country: text(form, 'country') }),
  ),
  CUSTOM_PROMPT: uploadsForm('A document we ask for', 'Upload the document the organization asks for'),
  DOCUMENT_UPLOAD: uploadsForm('Document upload', 'Upload your document'),
  WHITE_LABEL: {
    title: 'Before you start',
    fields: () =>
      html`<label class="choice"><input type="checkbox" name="acknowledged" value="true" required> I have read the information</label>${submitButton('Continue')}`,
    submit: (form, client) => client.submit({ acknowledged: form.acknowledged === 'true' }),
  },
  PHONE_TRUST_CHECK: continueForm('Phone check', 'Your phone number is checked'),
  CARRIER_AGE_GATE: continueForm('Phone carrier age check', 'Your phone carrier confirms your age'),
  PHONE_OWNERSHIP_MATCH: continueForm('Phone ownership', 'Your phone number is matched to your name'),
  PHONE_VERIFICATION: phoneVerificationForm,
};
