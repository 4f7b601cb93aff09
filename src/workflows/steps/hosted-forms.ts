/**
 * The pieces of the hosted forms: the applicant's page of a workflow session walks the real steps, and
 * each step module's `hostedForm` says what it shows and how its post becomes the client's body for the step engine
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
import { IMAGE_FIXTURES } from '../../images/image-outcomes.ts';
import { mimeOf, sniffImageFormat } from '../../images/image-format.ts';
import { codedError } from '../../platform/errors/error-codes.ts';
import { WORKFLOWS_ERROR_CODES } from '../workflows.errors.ts';
import type { StepStatus } from './step-schemas.ts';

export type Html = ReturnType<typeof html>;

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

/** The step as the page's GET …/workflow shows it (what a form is drawn from). */
export interface WorkflowStep {
  step_id: string;
  status: StepStatus;
  requirements?: Record<string, unknown>;
}

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

const FIXTURE_IMAGES_DIR = new URL('../../../fixtures/images/', import.meta.url);
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
export function fileField(name: string, label: string, purpose: SamplePurpose, optional = false): Html {
  const preselected = optional ? '' : DEFAULT_SAMPLE[purpose];
  return html`<fieldset><legend>${label}${optional ? ' (optional)' : ''}</legend>
<label>${label}: your file <input type="file" name="${name}" accept="${ACCEPTED_FILES[purpose]}"></label>
<label>${label}: or a sample image <select name="${name}_sample">${optional ? html`<option value="">none</option>` : ''}${samplesFor(purpose).map(
    (fixture) => html`<option value="${fixture.file}"${fixture.file === preselected ? ' selected' : ''}>${fixture.file}: ${fixture.description}</option>`,
  )}</select></label></fieldset>`;
}

export async function sampleFile(name: string): Promise<PageFile | undefined> {
  const fixture = IMAGE_FIXTURES.find((candidate) => candidate.file === name);
  if (fixture === undefined) return undefined;
  return { bytes: await readFile(new URL(fixture.file, FIXTURE_IMAGES_DIR)), contentType: mimeOf(fixture.format), label: `sample ${fixture.file}` };
}

/** The applicant's file for `name`, else its sample; undefined when neither was given. */
export async function postedFile(form: PageForm, name: string): Promise<PageFile | undefined> {
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
  if (found === undefined) throw codedError(WORKFLOWS_ERROR_CODES, 'HOSTED_SAMPLE_UNKNOWN', { field: name, samples: IMAGE_FIXTURES.map((f) => f.file) });
  return found;
}

export async function requiredFile(form: PageForm, name: string, label: string): Promise<PageFile> {
  const file = await postedFile(form, name);
  if (file === undefined) throw codedError(WORKFLOWS_ERROR_CODES, 'HOSTED_FILE_MISSING', { label });
  return file;
}

/** The file keys of the posted slots that carry a file (file or sample). */
export async function storedUploads(form: PageForm, client: PageClient, slots: readonly string[]): Promise<Record<string, string>> {
  const uploads: Record<string, string> = {};
  for (const slot of slots) {
    const file = await postedFile(form, slot);
    if (file !== undefined) uploads[slot] = await client.store(slot, file);
  }
  return uploads;
}

// ─── Small pieces ───────────────────────────────────────────────────────────────────────────────────

export const text = (form: PageForm, name: string): string | undefined => {
  const value = form[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

export const withOptional = (body: Record<string, unknown>, optional: Record<string, string | undefined>) => {
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) body[key] = value;
  return body;
};

export const submitButton = (label: string, extra: Html | string = '') => html`<button type="submit" class="primary"${extra}>${label}</button>`;
export const actionButton = (action: string, label: string, primary = true) =>
  html`<button type="submit" name="action" value="${action}"${primary ? html` class="primary"` : ''}>${label}</button>`;

export const textField = (name: string, label: string, value = '', type = 'text', required = true) =>
  html`<label>${label} <input type="${type}" name="${name}" value="${value}"${required ? ' required' : ''}></label>`;

/** The applicant's identity fields of the screening steps (PEP_SANCTIONS, ADVERSE_MEDIA), prefilled. */
export function identityFields(view: FormView, withCountry: boolean): Html {
  return html`${textField('first_name', 'First name', view.applicant.firstName)}
${textField('last_name', 'Last name', view.applicant.lastName)}
${textField('date_of_birth', 'Date of birth', '', 'date')}
${textField('email', 'E-mail', view.applicant.email ?? '', 'email', false)}
${withCountry ? textField('country', 'Country (ISO code, optional)', '', 'text', false) : ''}`;
}

export function identityBody(form: PageForm): Record<string, unknown> {
  return withOptional(
    { first_name: form.first_name ?? '', last_name: form.last_name ?? '', date_of_birth: form.date_of_birth ?? '' },
    { email: text(form, 'email') },
  );
}

/** The action the button sent (start or complete), defaulting to what the step's status calls for. */
export function postedAction(form: PageForm, view: FormView): string {
  const action = text(form, 'action');
  if (action !== undefined) return action;
  return view.step.status === 'IN_PROGRESS' ? 'complete' : 'start';
}

// ─── Form shapes several steps share ────────────────────────────────────────────────────────────────

/** Steps the client drives with `{action: start | complete}`; `startFields` are sent with start. */
export function startCompleteForm(
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
export function continueForm(title: string, what: string): StepForm {
  return { title, fields: () => html`<p>${what}.</p>${submitButton('Continue')}`, submit: (_form, client) => client.submit({}) };
}
