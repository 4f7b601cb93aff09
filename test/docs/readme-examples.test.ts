/**
 * README's curl examples, run: every ```sh block of README.md, in order, against one fresh sandbox, each
 * curl command line turned into the request curl would send. Each command must answer the status its
 * `# → NNN` line documents and the block's last answer must contain the ```json excerpt shown after it.
 * Variables set with NAME=$(…) carry ids from one example to the next, as in a shell session.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testSandbox } from '../helpers/sandbox.ts';
import { readmeExamples, runCurlExamples } from './readme-curl.ts';

const ROOT = new URL('../../', import.meta.url);
const README = readFileSync(new URL('README.md', ROOT), 'utf8');

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

describe('README curl examples', () => {
  const examples = readmeExamples(README);

  it('has an example for every main job, each against 127.0.0.1:4010 with a fixture key', () => {
    const headings = new Set(examples.map((example) => example.heading));
    expect(JOBS.filter((job) => !headings.has(job))).toEqual([]);
    for (const example of examples) {
      for (const command of example.commands.filter((c) => c.status !== undefined)) {
        expect(command.text, `README.md:${example.line}`).toMatch(/(http:\/\/127\.0\.0\.1:4010\/|"\$[A-Z_]+")/);
      }
    }
    const keys = new Set([...README.matchAll(/x-api-key: (\w+)/g)].map((match) => match[1]));
    expect([...keys].sort()).toEqual(['sk_live_demo', 'sk_test_demo']);
  });

  it('answers every example as documented: status of each command, excerpt of the last answer', async () => {
    // Rate limits off: the whole tour runs on one frozen clock, where a bucket never refills.
    const sandbox = await testSandbox({ rateLimit: false });
    const commandsRun = await runCurlExamples(examples, sandbox, 'README.md', ROOT);
    console.log(`README examples: ${examples.length} blocks, ${commandsRun} curl commands`);
    await sandbox.close();
  }, 60_000);
});
