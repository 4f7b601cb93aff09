/**
 * The applicant's workflow page as a browser without script sees it: open the page, read the current
 * step's form, and post it as the browser would (the defaults filled in, the pressed button's value, the
 * files chosen) as multipart/form-data.
 */
import { expect } from 'vitest';
import type { TestSandbox } from '../helpers/sandbox.ts';
import { local } from './route-helpers.ts';

export interface PageAnswer {
  status: number;
  html: string;
  location: string | null;
}

const decodeEntities = (value: string) =>
  value
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

async function answerOf(response: Response): Promise<PageAnswer> {
  return { status: response.status, html: await response.text(), location: response.headers.get('location') };
}

/** The hosted page of a session, as its link opens it (the page token and oid of org_demo). */
export async function openSessionPage(sandbox: TestSandbox, id: string): Promise<PageAnswer> {
  return answerOf(await sandbox.app.request(`/verify/${id}?oid=org_demo&token=${sandbox.pageToken(id)}`));
}

export interface StepFormOnPage {
  action: string;
  /** The step heading. */
  title: string;
  /** The fields a browser sends as they are (text, hidden, selected options). */
  defaults: Record<string, string>;
  /** The names of the file inputs. */
  files: string[];
  /** The buttons: name=value pairs (or just the label for a plain submit). */
  buttons: { label: string; name?: string; value?: string }[];
  html: string;
}

/** The current step's form on the page (the one that posts multipart to /steps/). */
export function stepForm(html: string): StepFormOnPage {
  const match = /<form method="post" action="([^"]+)" enctype="multipart\/form-data"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  expect(match, 'the page shows a step form').not.toBeNull();
  const [, action = '', inner = ''] = match ?? [];
  const defaults: Record<string, string> = {};
  for (const input of inner.matchAll(/<input type="(text|email|date|hidden)" name="([^"]+)" value="([^"]*)"/g))
    defaults[input[2] as string] = decodeEntities(input[3] as string);
  for (const select of inner.matchAll(/<select name="([^"]+)">([\s\S]*?)<\/select>/g)) {
    const selected = /<option value="([^"]*)" selected>/.exec(select[2] as string) ?? /<option value="([^"]*)"/.exec(select[2] as string);
    defaults[select[1] as string] = decodeEntities(selected?.[1] ?? '');
  }
  const files = [...inner.matchAll(/<input type="file" name="([^"]+)"/g)].map((m) => m[1] as string);
  const buttons = [...inner.matchAll(/<button type="submit"(?: name="([^"]+)" value="([^"]+)")?[^>]*>([^<]*)<\/button>/g)].map((m) => ({
    label: m[3] as string,
    ...(m[1] === undefined ? {} : { name: m[1], value: m[2] as string }),
  }));
  const title = /<h2 id="current-step">([^<]*)<\/h2>/.exec(inner)?.[1] ?? '';
  return { action: decodeEntities(action), title, defaults, files, buttons, html: inner };
}

export interface Submission {
  /** Field values over the defaults. */
  fields?: Record<string, string>;
  /** Files chosen for file inputs. */
  files?: Record<string, { bytes: Buffer; name: string; type: string }>;
  /** The label of the button pressed (default: the first). */
  button?: string;
  headers?: Record<string, string>;
}

/** Posts the form as a browser does when its button is pressed. */
export async function submitForm(sandbox: TestSandbox, form: StepFormOnPage, submission: Submission = {}): Promise<PageAnswer> {
  const body = new FormData();
  for (const [name, value] of Object.entries({ ...form.defaults, ...submission.fields })) body.append(name, value);
  for (const name of form.files) {
    const file = submission.files?.[name];
    body.append(name, file === undefined ? new File([], '', { type: 'application/octet-stream' }) : new File([file.bytes], file.name, { type: file.type }));
  }
  const button = submission.button === undefined ? form.buttons[0] : form.buttons.find((candidate) => candidate.label === submission.button);
  expect(button, `the form has the button ${submission.button ?? '(first)'}`).toBeDefined();
  if (button?.name !== undefined) body.append(button.name, button.value ?? '');
  return answerOf(await sandbox.app.request(local(form.action), { method: 'POST', body, headers: submission.headers ?? {} }));
}

/** Opens the page and posts its current step's form. */
export async function doStep(sandbox: TestSandbox, id: string, submission: Submission = {}, expectTitle?: string): Promise<PageAnswer> {
  const page = await openSessionPage(sandbox, id);
  expect(page.status, page.html).toBe(200);
  const form = stepForm(page.html);
  if (expectTitle !== undefined) expect(form.title).toBe(expectTitle);
  return submitForm(sandbox, form, submission);
}
