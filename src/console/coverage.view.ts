/**
 * The coverage page: the namespace's integration-coverage report (the same tables as
 * GET /__sandbox/coverage?format=html), each missed class with its trigger as a curl to copy.
 */
import { html, raw } from 'hono/html';
import { reportHtmlSection, type CoverageReport } from '../platform/coverage/coverage-report.ts';
import { namespacedUrl } from '../platform/namespaces/world.ts';
import type { Markup } from './console.layout.ts';

/** A Copy button after each curl: the textarea stays selectable where the clipboard is not allowed. */
const COPY_SCRIPT = raw(`<script>
(() => {
  for (const area of document.querySelectorAll('textarea.curl')) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Copy';
    button.setAttribute('aria-label', 'Copy ' + area.getAttribute('aria-label'));
    button.addEventListener('click', async () => {
      area.select();
      try { await navigator.clipboard.writeText(area.value); button.textContent = 'Copied'; } catch { document.execCommand('copy'); }
    });
    area.after(button);
  }
})();
</script>`);

export function coveragePage(namespace: string, report: CoverageReport): Markup {
  const link = (format: string) => namespacedUrl(`/__sandbox/coverage?format=${format}`, namespace);
  return html`<section class="card"><p class="muted">Which outcome classes of the service the requests of namespace <code>${namespace}</code> met (since the sandbox started or the coverage was last cleared: a reset keeps it), and how to trigger the others. Download: <a href="${link('json')}">JSON</a> · <a href="${link('markdown')}">Markdown</a> · <a href="${link('junit')}">JUnit XML</a> · <a href="${link('html')}">HTML</a>.</p>
${raw(reportHtmlSection(report))}</section>${COPY_SCRIPT}`;
}
