/**
 * The curl examples of README.md and docs/*.md, run: every ```sh block of a document, in order, against
 * one fresh sandbox per document, each curl command line turned into the request curl would send. Each command must answer the status its
 * `# → NNN` line documents and the block's last answer must contain the ```json excerpt shown after it.
 * Variables set with NAME=$(…) carry ids from one example to the next, as in a shell session.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../helpers/sandbox.ts';
import { readmeExamples, runCurlExamples } from './readme-curl.ts';

const ROOT = new URL('../../', import.meta.url);
/** README.md, then the docs pages that hold curl examples. */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(new URL('docs/', ROOT))
    .filter((name) => name.endsWith('.md') && name !== 'mobile-flow.md') // mobile-flow.test.ts runs that page with its checks
    .sort()
    .map((name) => `docs/${name}`),
]
  .map((path) => ({ path, text: readFileSync(new URL(path, ROOT), 'utf8') }))
  .map((document) => ({ ...document, examples: readmeExamples(document.text) }))
  .filter((document) => document.examples.length > 0);

/** The main jobs a newcomer looks for, each with at least one example under a heading naming it. */
const JOBS = [
  'Hosted session',
  'Sandbox ids',
  'Headless workflow',
  'Adverse media',
  'PEP and sanctions',
  'Phone checks',
  'Face compare and document scan',
  'Credit check',
  'Bank statement',
  'iGaming self-exclusion',
  'AML monitoring',
  'Control plane',
];

describe('curl examples of README.md and docs/', () => {
  it('has an example for every main job, each against 127.0.0.1:4010 with a fixture key', () => {
    expect(DOCUMENTS.map((document) => document.path)).toEqual(expect.arrayContaining(['README.md', 'docs/examples.md']));
    const headings = new Set(DOCUMENTS.flatMap((document) => document.examples.map((example) => example.heading)));
    expect(JOBS.filter((job) => !headings.has(job))).toEqual([]);
    for (const { path, examples } of DOCUMENTS) {
      for (const example of examples) {
        for (const command of example.commands.filter((c) => c.status !== undefined)) {
          expect(command.text, `${path}:${example.line}`).toMatch(/(http:\/\/127\.0\.0\.1:4010\/|"\$[A-Z_]+")/);
        }
      }
    }
    const commands = DOCUMENTS.flatMap((document) => document.examples.flatMap((example) => example.commands.map((command) => command.text)));
    const keys = new Set(commands.flatMap((text) => [...text.matchAll(/x-api-key: (\w+)/g)].map((match) => match[1])));
    expect([...keys].sort()).toEqual(['sk_live_demo', 'sk_test_demo']);
  });

  it.each(DOCUMENTS)(
    'answers every example of $path as documented: status of each command, excerpt of the last answer',
    async ({ path, examples }) => {
      // Rate limits off: the whole tour runs on one frozen clock, where a bucket never refills.
      const sandbox = await testSandbox({ rateLimit: false });
      const commandsRun = await runCurlExamples(examples, sandbox, path, ROOT);
      console.log(`${path} examples: ${examples.length} blocks, ${commandsRun} curl commands`);
      await sandbox.close();
    },
    60_000,
  );
});
