/**
 * The console's shell: one stylesheet (inline: the console loads nothing from anywhere else), the
 * navigation, the namespace switcher, status badges and the small helpers every page uses. Pages are
 * server-rendered with hono/html, which escapes every interpolation.
 */
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { CSRF_FIELD } from '../platform/http/admin-guard.ts';

export type Markup = HtmlEscapedString | Promise<HtmlEscapedString>;

/**
 * The palette. Every text colour is used only on the backgrounds listed with it, and each pair passes
 * WCAG AA (4.5:1) — the browser tests check the rendered pages with axe-core's color-contrast rule.
 */
const STYLE = html`<style>
  :root { --ink: #1d2330; --muted: #4b5466; --line: #d5d9e2; --paper: #ffffff; --shade: #f3f5f9; --accent: #1f4fd1; --danger: #b42318; }
  * { box-sizing: border-box; }
  body { font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; color: var(--ink); background: var(--shade); }
  header { background: var(--ink); color: #fff; padding: .6rem 1.5rem; display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; align-items: center; }
  header .brand { font-weight: 700; margin-right: .5rem; color: #fff; text-decoration: none; }
  header nav a { color: #e8ebf2; text-decoration: none; padding: .2rem .45rem; border-radius: 4px; }
  header nav a[aria-current="page"] { background: #3a4356; color: #fff; }
  header form { margin-left: auto; display: flex; gap: .4rem; align-items: center; }
  header label { color: #e8ebf2; }
  main { max-width: 78rem; margin: 1.25rem auto; padding: 0 1.5rem 3rem; }
  h1 { font-size: 1.35rem; margin: .25rem 0 1rem; } h2 { font-size: 1.05rem; margin: 0 0 .75rem; }
  section.card { background: var(--paper); border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; margin-bottom: 1.25rem; }
  .grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(22rem, 1fr)); gap: 1.25rem; margin-bottom: 1.25rem; }
  .grid > section.card { margin-bottom: 0; }
  table { border-collapse: collapse; width: 100%; } caption { text-align: left; color: var(--muted); padding-bottom: .4rem; }
  th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
  th { color: var(--muted); font-weight: 600; font-size: .85rem; }
  a { color: var(--accent); } code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .85rem; }
  code { background: var(--shade); padding: 0 .25rem; border-radius: 3px; }
  pre { background: var(--shade); padding: .75rem; border-radius: 6px; overflow: auto; max-height: 28rem; margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
  .muted { color: var(--muted); } .problem { background: #fde2e2; color: #7f1d1d; border: 1px solid #f4b4b4; padding: .6rem .8rem; border-radius: 6px; }
  .notice { background: #dff5e7; color: #0d5c2c; border: 1px solid #9bd8b1; padding: .6rem .8rem; border-radius: 6px; }
  .badge { display: inline-block; padding: .05rem .5rem; border-radius: 999px; font-size: .8rem; font-weight: 600; background: #eceef2; color: #3d4352; }
  .badge.PENDING, .badge.pending, .badge.processing, .badge.STARTED { background: #fff1cc; color: #6b4100; }
  .badge.SUBMITTED, .badge.IN_PROGRESS { background: #e3ecff; color: #1d3f9e; }
  .badge.VERIFIED, .badge.ready, .badge.on, .badge.COMPLETED, .badge.APPROVED, .badge.active, .badge.delivered { background: #dff5e7; color: #0d5c2c; }
  .badge.REJECTED, .badge.FAILED, .badge.failed, .badge.DECLINED { background: #fde2e2; color: #8f1d1d; }
  .badge.EXPIRED, .badge.VOIDED, .badge.off { background: #eceef2; color: #3d4352; }
  form.inline { display: inline; } form.row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin: .25rem 0; }
  form.row label { display: flex; flex-direction: column; font-size: .8rem; color: var(--muted); gap: .15rem; }
  input, select { font: inherit; padding: .3rem .45rem; border: 1px solid #8d96a8; border-radius: 5px; background: #fff; color: var(--ink); }
  button { font: inherit; cursor: pointer; padding: .3rem .8rem; border-radius: 5px; border: 1px solid #8d96a8; background: #fff; color: var(--ink); }
  button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
  button.danger { background: var(--danger); border-color: var(--danger); color: #fff; }
  button:focus-visible, a:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid #f5b700; outline-offset: 1px; }
  .actions { display: flex; flex-wrap: wrap; gap: .5rem; }
  .thumbs { display: flex; flex-wrap: wrap; gap: .75rem; } .thumbs figure { margin: 0; } .thumbs img { width: 140px; height: 105px; object-fit: cover; border-radius: 6px; border: 1px solid var(--line); }
  .thumbs figcaption { font-size: .8rem; color: var(--muted); }
  ol.timeline { list-style: none; padding: 0; margin: 0; } ol.timeline li { padding: .35rem 0 .35rem .9rem; border-left: 3px solid var(--line); margin-left: .3rem; }
  dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0; } dl.facts dt { color: var(--muted); }
  nav.pager { display: flex; gap: 1rem; margin-top: .75rem; }
  textarea.curl { width: 100%; font: 12px ui-monospace, monospace; }
  table.coverage-areas td:last-child { width: 45%; } meter { width: 100%; height: 1rem; }
  details { margin: .35rem 0; } details details { margin-left: 1.25rem; } summary { cursor: pointer; padding: .2rem 0; }
</style>`;

/** The console's pages, in navigation order. */
export const CONSOLE_PAGES = [
  { key: 'overview', path: '/console', label: 'Overview' },
  { key: 'sessions', path: '/console/sessions', label: 'Sessions' },
  { key: 'scenarios', path: '/console/scenarios', label: 'Scenarios' },
  { key: 'requests', path: '/console/requests', label: 'Requests' },
  { key: 'workflows', path: '/console/workflows', label: 'Workflows' },
  { key: 'bank-statements', path: '/console/bank-statements', label: 'Bank statements' },
  { key: 'jobs', path: '/console/jobs', label: 'Async jobs' },
  { key: 'registry', path: '/console/registry', label: 'Registry & AML' },
  { key: 'records', path: '/console/records', label: 'Credit & age' },
  { key: 'outbox', path: '/console/outbox', label: 'Outbox' },
  { key: 'coverage', path: '/console/coverage', label: 'Coverage' },
  { key: 'drift', path: '/console/drift', label: 'Drift' },
  { key: 'storage', path: '/console/storage', label: 'Storage' },
] as const;

export type ConsolePageKey = (typeof CONSOLE_PAGES)[number]['key'];

export interface ShellModel {
  title: string;
  page: ConsolePageKey | undefined;
  namespace: string;
  namespaces: string[];
  /** Shown above the content: a refusal to act on, or what just happened. */
  problem?: string | undefined;
  notice?: string | undefined;
}

/** A console address in the namespace, with query parameters (empty ones left out). */
export function consoleHref(path: string, namespace: string, query: Record<string, string | number | undefined> = {}): string {
  const params = new URLSearchParams({ namespace });
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  return `${path}?${params}`;
}

export function shell(model: ShellModel, body: Markup): Markup {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${model.title} — idv-sandbox console</title>${STYLE}</head>
<body>
<header>
  <a class="brand" href="${consoleHref('/console', model.namespace)}">idv-sandbox console</a>
  <nav aria-label="Console pages">${CONSOLE_PAGES.map(
    (page) => html`<a href="${consoleHref(page.path, model.namespace)}"${page.key === model.page ? html` aria-current="page"` : ''}>${page.label}</a>`,
  )}</nav>
  <form method="get"><label for="namespace-switch">Namespace</label>
    <select id="namespace-switch" name="namespace">${model.namespaces.map((name) => html`<option${name === model.namespace ? html` selected` : ''}>${name}</option>`)}</select>
    <button type="submit">Switch</button></form>
</header>
<main>
<h1>${model.title}</h1>
${model.problem ? html`<p class="problem" role="alert">${model.problem}</p>` : ''}
${model.notice ? html`<p class="notice" role="status">${model.notice}</p>` : ''}
${body}
</main></body></html>`;
}

/** The hidden field that carries the session's CSRF token in every console form. */
export const csrfField = (token: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;

/** A status as a coloured pill; the class is the status itself (see the palette). */
export const badge = (status: string) => html`<span class="badge ${status.replace(/[^A-Za-z_-]/g, '')}">${status}</span>`;

export const jsonBlock = (value: unknown) => html`<pre>${JSON.stringify(value, null, 2)}</pre>`;

/** A bare page outside the shell (login). */
export function plainPage(title: string, body: Markup): Markup {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>${STYLE}</head>
<body><main>${body}</main></body></html>`;
}
