/**
 * The browser tests' launch helper: Debian's Chromium (never a downloaded browser) driven by
 * playwright-core, headless, with the network beyond the sandbox closed, and a screenshot folder that git
 * ignores. Without Chromium the tests fail and say how to install it: a silent skip would let CI pass
 * without ever running them.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox.ts';
import { FROZEN_AT, silentLogger } from '../helpers/sandbox.ts';

/** Where Debian's `chromium` package puts the browser; CHROMIUM_PATH overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Screenshots of every page the tests visit, for a person to look at (git-ignored). */
export const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

/** Flags that keep Chromium from calling home: this machine (and CI) has no network beyond the sandbox. */
const QUIET_FLAGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export async function launchChromium(executablePath: string = CHROMIUM_PATH): Promise<Browser> {
  if (!existsSync(executablePath)) {
    throw new Error(
      `The browser tests need Chromium at ${executablePath} and it is not there. Install Debian's package: "sudo apt-get install -y chromium" (.ci/run does this), or point CHROMIUM_PATH at a Chromium binary. Never "npx playwright install": the tests use the system browser.`,
    );
  }
  // Chromium's sandbox needs user namespaces a root process in a container lacks.
  const args = process.getuid?.() === 0 ? [...QUIET_FLAGS, '--no-sandbox'] : QUIET_FLAGS;
  return chromium.launch({ executablePath, headless: true, args });
}

/** One Chromium for the test file: launched before its tests, closed after them; call the result for it. */
export function chromiumForFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => browser as Browser;
}

export interface BrowserSandbox {
  sandbox: Sandbox;
  context: BrowserContext;
  page: Page;
  /** Requests the page tried to send anywhere but the sandbox (all refused). */
  outside: string[];
  close(): Promise<void>;
}

/**
 * A sandbox listening on 127.0.0.1 (clock frozen, memory store) and a fresh browser context whose every
 * request to another origin is refused and recorded, except the `allowed` origins answered by `fulfil`.
 */
export async function openSandbox(browser: Browser, options: SandboxOptions = {}, fulfil: Record<string, (url: URL) => string> = {}): Promise<BrowserSandbox> {
  const sandbox = await createSandbox({ port: 0, host: '127.0.0.1', memory: true, seed: 42, clock: `frozen@${FROZEN_AT}`, logger: silentLogger, ...options });
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const outside: string[] = [];
  const own = new URL(sandbox.url).origin;
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.origin === own || url.protocol === 'data:') return route.continue();
    const answer = fulfil[url.origin];
    if (answer) return route.fulfill({ status: 200, contentType: 'text/html', body: answer(url) });
    outside.push(url.href);
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  return {
    sandbox,
    context,
    page,
    outside,
    close: async () => {
      await context.close();
      await sandbox.close();
    },
  };
}

/** Saves a full-page screenshot under test-results/screenshots/<name>.png. */
/** The screenshots the documentation shows, retaken by the tests (what the window shows, not the whole page). */
export const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));

export async function docsScreenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(DOCS, `${name}.png`) });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

const AXE_SOURCE = fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url));

/** WCAG AA colour-contrast violations on the page, computed by axe-core from the rendered colours. */
export async function contrastViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE_SOURCE });
  return page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(context: unknown, options: unknown): Promise<{ violations: { nodes: { target: unknown; failureSummary?: string }[] }[] }> };
      }
    ).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, { runOnly: { type: 'rule', values: ['color-contrast'] } });
    return result.violations.flatMap((violation) => violation.nodes.map((node) => `${JSON.stringify(node.target)}: ${node.failureSummary ?? ''}`));
  });
}
