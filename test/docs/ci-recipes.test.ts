/**
 * The CI recipes of docs/ci.md that cannot run here (GitHub Actions, GitLab CI) are at least valid YAML with
 * the keys those systems require; the testcontainers recipe runs in CI (test/docker/testcontainers-recipe.test.ts)
 * and the Docker and compose blocks run in scripts/docker/ci-test.sh.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const page = readFileSync(fileURLToPath(new URL('../../docs/ci.md', import.meta.url)), 'utf8');

/** The ```yaml blocks of the page, by the heading they stand under. */
function yamlBlocks(markdown: string): { heading: string; text: string }[] {
  const blocks: { heading: string; text: string }[] = [];
  let heading = '';
  let inside: string[] | undefined;
  for (const line of markdown.split('\n')) {
    if (inside) {
      if (line === '```') {
        blocks.push({ heading, text: inside.join('\n') });
        inside = undefined;
      } else inside.push(line);
    } else if (line.startsWith('## ')) heading = line.slice(3);
    else if (line === '```yaml') inside = [];
  }
  return blocks;
}

/** Parses strictly: a duplicate key, a tab indent or a stray token is an error, as the CI systems' parsers make it. */
const load = (text: string) => parse(text, { strict: true, uniqueKeys: true, prettyErrors: true });

type Step = { uses?: unknown; run?: unknown };
function expectSteps(steps: unknown) {
  expect(Array.isArray(steps) && steps.length > 0).toBe(true);
  for (const step of steps as Step[]) {
    // A GitHub step runs an action or a command.
    expect(typeof step.uses === 'string' || typeof step.run === 'string').toBe(true);
  }
}

describe('docs/ci.md YAML recipes', () => {
  const blocks = yamlBlocks(page);
  const github = blocks.filter((block) => block.heading.startsWith('GitHub Actions'));
  const gitlab = blocks.filter((block) => block.heading.startsWith('GitLab CI'));

  it('has the recipes this check covers', () => {
    expect(github.length).toBe(2);
    expect(gitlab.length).toBe(1);
  });

  it('GitHub Actions: a workflow with on and jobs, each job with runs-on and steps; service images and ports', () => {
    const workflow = load(github[0]?.text ?? '');
    expect(workflow.on).toBeDefined();
    const jobs = Object.values(workflow.jobs as Record<string, Record<string, unknown>>);
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) {
      expect(typeof job['runs-on']).toBe('string');
      expectSteps(job.steps);
      for (const service of Object.values((job.services ?? {}) as Record<string, { image?: unknown; ports?: unknown }>)) {
        expect(typeof service.image).toBe('string');
        for (const port of service.ports as unknown[]) expect(String(port)).toMatch(/^\d+:\d+$/);
      }
    }
  });

  it('GitHub Actions: the steps that build and run the image in the job are a valid steps list', () => {
    const steps = load(github[1]?.text.replace(/^ {6}/gm, '') ?? '');
    expectSteps(steps);
    expect((steps as Step[]).map((step) => step.run)).toEqual(expect.arrayContaining([expect.stringContaining('docker build')]));
  });

  it('GitLab CI: a job with a script, an image, and services named with an alias', () => {
    const config = load(gitlab[0]?.text ?? '');
    const jobs = Object.entries(config as Record<string, Record<string, unknown>>);
    expect(jobs.length).toBeGreaterThan(0);
    for (const [, job] of jobs) {
      // GitLab refuses a job without script (or trigger/run).
      expect(Array.isArray(job.script) && (job.script as unknown[]).every((line) => typeof line === 'string')).toBe(true);
      expect(typeof job.image).toBe('string');
      for (const service of job.services as { name?: unknown; alias?: unknown }[]) {
        expect(typeof service.name).toBe('string');
        expect(typeof service.alias).toBe('string');
      }
    }
  });

  it('refuses what the systems refuse (the check can fail)', () => {
    expect(() => load('jobs:\n  test:\n    runs-on: a\n    runs-on: b\n')).toThrow();
    expect(() => load('script:\n\t- npm test\n')).toThrow();
  });
});
