/**
 * Files read once at start (organizations, scenarios) are checked by zod without its fast path: the fast
 * path generates and compiles a parser per object schema, which pays only for schemas parsed again and
 * again (request bodies). The answers are the same, refusals included.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { readOrganizationsFile } from '../../src/platform/auth/organizations.ts';
import { parseScenarioFile } from '../../src/platform/scenarios/scenarios.ts';
import { temporaryDirectory } from '../helpers/temporary-directory.ts';

const ORGANIZATIONS = {
  organizations: [{ id: 'org_bench', name: 'Bench Org', balance: 1000, keys: [{ id: 'key_live_bench', key: 'sk_live_bench', kind: 'live' }] }],
};
const SCENARIO = {
  name: 'slow-sessions',
  description: 'x',
  rules: [{ match: { methods: ['GET'], path: '/v1/sessions/*' }, respond: { status: 503, error: 'Try again later.' } }],
};

function fileOf(content: unknown): string {
  const path = join(temporaryDirectory('idv-start-parses-'), 'file.json');
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe('files read once at start', () => {
  it('are parsed without compiling a parser, to the same values', () => {
    const compiled = vi.spyOn(globalThis, 'Function');
    try {
      expect(readOrganizationsFile(fileOf(ORGANIZATIONS))[0]).toMatchObject({ id: 'org_bench', keys: [{ key: 'sk_live_bench', kind: 'live' }] });
      expect(parseScenarioFile(fileOf(SCENARIO))).toMatchObject({ name: 'slow-sessions', rules: [{ respond: { status: 503 } }] });
      expect(compiled).not.toHaveBeenCalled();
    } finally {
      compiled.mockRestore();
    }
  });

  it('still refuse a bad file, naming the place', () => {
    const badOrganizations = { organizations: [{ ...ORGANIZATIONS.organizations[0], balance: 'lots' }] };
    expect(() => readOrganizationsFile(fileOf(badOrganizations))).toThrow(/is invalid at organizations\.0\.balance: /);
    expect(() => parseScenarioFile(fileOf({ ...SCENARIO, rules: [{ match: {}, respond: { status: 'x' } }] }))).toThrow(/rules\.0/);
  });
});
