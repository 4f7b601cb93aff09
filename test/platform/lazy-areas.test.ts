/**
 * Areas are evaluated on first use: a start evaluates none of their modules (their zod schemas were most
 * of a start), an area's first request evaluates that area (a control-plane request too), and what reads
 * every area (/openapi.json, the catalog) loads them all. The route table the start mounts instead is the areas' own.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenAPIHono } from '@hono/zod-openapi';
import { describe, expect, it, vi } from 'vitest';
import { openApiDocument } from '../../src/app.ts';
import { AreaLoader, areaRoutesOf, evaluatedRouteTable } from '../../src/areas.ts';
import { AREAS } from '../../src/modules.ts';
import type { AppEnv } from '../../src/platform/http/context.ts';
import { ROUTE_TABLE } from '../../src/routes.generated.ts';
import { KEYS, loadedSandbox, testSandbox } from '../helpers/sandbox.ts';
import { temporaryDirectory } from '../helpers/temporary-directory.ts';
import { tempDataFile } from '../helpers/data-dir.ts';

/** The area routers evaluated so far (each router module notes its first evaluation). */
const evaluated = vi.hoisted(() => new Set<string>());
vi.mock('../../src/auth/index.ts', async (original) => {
  evaluated.add('auth');
  return original();
});
vi.mock('../../src/sessions/sessions.router.ts', async (original) => {
  evaluated.add('sessions');
  return original();
});
vi.mock('../../src/screening/screening.router.ts', async (original) => {
  evaluated.add('screening');
  return original();
});
vi.mock('../../src/workflows/workflows.router.ts', async (original) => {
  evaluated.add('workflows');
  return original();
});
vi.mock('../../src/control/control.router.ts', async (original) => {
  evaluated.add('control');
  return original();
});

describe('areas evaluated on first use', () => {
  it('a start evaluates no area; the first request of one evaluates it (and what it imports) only; /openapi.json all', async () => {
    const sandbox = await testSandbox();
    expect([...evaluated]).toEqual([]);

    const verified = await sandbox.call('GET', '/v1/auth/verify');
    expect(verified.status).toBe(200);
    expect([...evaluated]).toEqual(['auth']);

    const session = await sandbox.call('GET', '/v1/sessions/test_approved', { key: KEYS.sandbox });
    expect(session.status).toBe(200);
    expect([...evaluated].sort()).toEqual(['auth', 'sessions']);

    // A control-plane request that reads no other area (a clock move, retention, a test job) evaluates the control plane alone.
    const control = (method: string, path: string, body?: unknown) => sandbox.call(method, path, { key: null, body });
    expect((await control('POST', '/__sandbox/clock', { advance: '1s' })).status).toBe(200);
    expect((await control('PUT', '/__sandbox/retention', { days: 30 })).status).toBe(200);
    expect((await control('POST', '/__sandbox/jobs', { input: { n: 1 } })).body.status).toBe('pending');
    expect([...evaluated].sort()).toEqual(['auth', 'control', 'sessions']);
    // A scenario's stub is checked against its operation: that operation's area is evaluated, no other.
    const stub = { match: { methods: ['POST'], path: '/v1/screening/pep-sanctions' }, respond: { status: 200, body: { nope: true } } };
    const refused = await control('POST', '/__sandbox/scenarios', { name: 'bad-stub', description: 'x', rules: [stub] });
    expect([refused.status, refused.body.error]).toEqual([
      400,
      expect.stringMatching(/^Invalid scenario: rules\.0\.respond: .*POST \/v1\/screening\/pep-sanctions/),
    ]);
    expect([...evaluated].sort()).toEqual(['auth', 'control', 'screening', 'sessions']);

    expect((await sandbox.call('GET', '/openapi.json')).status).toBe(200);
    expect([...evaluated].sort()).toEqual(['auth', 'control', 'screening', 'sessions', 'workflows']);
  });

  it("an area's first requests answer as they do once every area is loaded: validation, guard, 404 and 405", async () => {
    const requests: [string, string, { key?: string | null; body?: unknown }][] = [
      ['GET', '/v1/sessions/test_approved', { key: KEYS.sandbox }],
      ['GET', '/v1/sessions/missing', {}],
      ['POST', '/v1/sessions', { body: { first_name: 42 } }],
      ['GET', '/v1/sessions', { key: null }],
      ['DELETE', '/v1/sessions', {}],
      ['GET', '/v1/nowhere', {}],
      ['POST', '/v1/screening/pep-sanctions', { body: { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '1990-01-01' } }],
    ];
    const lazy = await testSandbox();
    const eager = await loadedSandbox();
    for (const [method, path, options] of requests) {
      const [first, loaded] = [await lazy.call(method, path, options), await eager.call(method, path, options)];
      expect({ status: first.status, body: first.body }).toEqual({ status: loaded.status, body: loaded.body });
    }
  });

  it('the catalog loads every area first: it is the one of a sandbox with every area loaded, in the same order, job kinds included', async () => {
    const lazy = await testSandbox();
    await lazy.call('GET', '/v1/auth/verify');
    const eager = await loadedSandbox();
    const catalog = await lazy.call('GET', '/__sandbox/catalog');
    expect(catalog.status).toBe(200);
    expect(catalog.body.jobKinds).toEqual(['adverse-media', 'sandbox.echo']);
    expect(catalog.text).toBe((await eager.call('GET', '/__sandbox/catalog')).text);
  });

  it('/openapi.json is byte for byte the document of every area mounted at once, in the order of src/modules.ts', async () => {
    const sandbox = await testSandbox();
    const served = await sandbox.call('GET', '/openapi.json');
    const eager = new OpenAPIHono<AppEnv>();
    for (const area of AREAS) eager.route('/', (await area.load()).router());
    expect(served.text).toBe(JSON.stringify({ ...openApiDocument(eager), servers: [{ url: sandbox.platform.urls.base }] }));
    expect(Object.keys(served.body.paths).length).toBeGreaterThan(80);
  });

  it("a scenario file whose 2xx stub its clients could not parse still stops the start (the stubbed operation's area is loaded)", async () => {
    const directory = temporaryDirectory('idv-lazy-stubs-');
    const rules = [{ match: { methods: ['GET'], path: '/v1/sessions/*' }, respond: { status: 200, body: { nope: true } } }];
    writeFileSync(join(directory, 'bad.json'), JSON.stringify({ name: 'bad-stub', description: 'x', rules }));
    await expect(testSandbox({ extraScenariosDirs: [directory] })).rejects.toThrow(
      /^Scenario "bad-stub" is invalid at rules\.0\.respond: .*GET \/v1\/sessions\/\{id\}/,
    );
    expect(evaluated.has('sessions')).toBe(true);
  });

  it('a stored job read first after a restart is answered by its kind, which every platform has from its start', async () => {
    const options = { memory: false, data: tempDataFile(), jobTimings: { processingAfterMs: 0, doneAfterMs: 0 } };
    const first = await testSandbox(options);
    const queued = await first.call('POST', '/v1/screening/adverse-media', {
      body: { email: 'jane.doe@example.com', firstName: 'Jane', lastName: 'Doe', dateOfBirth: '1980-04-23', country: 'GB' },
    });
    expect(queued.status).toBe(202);
    await first.close();
    const restarted = await testSandbox(options);
    const job = await restarted.call('GET', `/v1/async-jobs/${queued.body.jobId}`);
    expect([job.status, job.body.status]).toEqual([200, 'ready']);
    await restarted.close();
  });
});

describe('the route table', () => {
  it('is what evaluating the areas yields (npm run generate:routes writes it)', async () => {
    expect(await evaluatedRouteTable()).toEqual(ROUTE_TABLE);
  });

  it('an area whose routes differ from its entry is refused on load, naming the command that writes the table again', async () => {
    const moved = new OpenAPIHono<AppEnv>().get('/v1/auth/verified', (c) => c.json({}, 200));
    const loader = new AreaLoader([{ name: 'auth', load: async () => ({ name: 'auth', router: () => moved }) }]);
    await expect(loader.load('auth')).rejects.toThrow('src/routes.generated.ts is stale (area auth): run npm run generate:routes.');
  });

  it("marks the operations that decode an image from their areas' capabilities, whatever the image came as", () => {
    const decoding = Object.values(ROUTE_TABLE).flatMap(({ operations }) =>
      operations.filter((operation) => operation.decodesImages).map((operation) => operation.operationId),
    );
    expect(decoding.sort()).toEqual(
      [
        // Binary parts or base64.
        'scanDocument',
        'detectFace',
        'compareFaces',
        'estimateAge',
        'verifyIdentity',
        // A selfie sent or read from a file key, stored frames, a step's pictures, a finished session's uploaded selfie.
        'analyzeAntiCheat',
        'analyzeDeepfake',
        'completeReVerificationLiveness',
        'submitWorkflowStep',
        'sandboxDriveSessionOutcome',
      ].sort(),
    );
    // An upload is stored as it came: it takes an image part but decodes none.
    const putUpload = ROUTE_TABLE.upload?.operations.find((operation) => operation.operationId === 'putUpload');
    expect([putUpload?.images, putUpload?.decodesImages]).toEqual([1, false]);
  });

  it('an area declaring that an operation it does not have decodes images is refused, naming it', () => {
    const router = new OpenAPIHono<AppEnv>();
    expect(() => areaRoutesOf({ name: 'auth', router: () => router, capabilities: [{ decodesImages: ['scanDocuments'] }] })).toThrow(
      'Area auth declares that scanDocuments decode images, but has no such operation.',
    );
  });
});
