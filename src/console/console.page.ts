/** What every console page and form handler shares: the shell around a page, 404s, and the write-then-303 pattern. */
import { html } from 'hono/html';
import { ApiError } from '../platform/errors/api-error.ts';
import type { AppContext } from '../platform/http/context.ts';
import { type ConsolePageKey, type Markup, shell } from './console.layout.ts';

/** A page of the console in the request's namespace, with the refusal or notice the last write left. */
export function renderPage(c: AppContext, title: string, page: ConsolePageKey | undefined, body: Markup, status: 200 | 404 = 200) {
  const world = c.get('world');
  const model = {
    title,
    page,
    namespace: world.namespace,
    namespaces: c.get('platform').worlds.names(),
    problem: c.req.query('problem'),
    notice: c.req.query('notice'),
  };
  return c.html(shell(model, body), status);
}

export function notFound(c: AppContext, kind: string, id: string) {
  const namespace = c.get('world').namespace;
  return renderPage(
    c,
    `No ${kind} ${id}`,
    undefined,
    html`<section class="card"><p>No ${kind} <code>${id}</code> in namespace <code>${namespace}</code>. Records live in the namespace that created them: add <code>?namespace=&lt;name&gt;</code> to the address.</p></section>`,
    404,
  );
}

/**
 * Runs a console write and answers 303 to `back`: with `notice` when it worked, with the service's own
 * message as `problem` when it refused (the same 4xx message the control plane would answer).
 */
export async function act(c: AppContext, back: string, write: () => unknown, notice?: string) {
  try {
    await write();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return c.redirect(`${back}&problem=${encodeURIComponent(error.message)}`, 303);
  }
  return c.redirect(notice === undefined ? back : `${back}&notice=${encodeURIComponent(notice)}`, 303);
}

/** A trimmed form field, or '' when absent. */
export const formText = (form: Record<string, unknown>, name: string) => (typeof form[name] === 'string' ? (form[name] as string).trim() : '');
