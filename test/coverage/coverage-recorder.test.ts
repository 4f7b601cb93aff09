/**
 * The recorder counts by class number, per namespace and key: the report's counts, first and last
 * request ids and per-key counts come out of those arrays, merged across keys and namespaces.
 */
import { describe, expect, it, vi } from 'vitest';
import { Coverage, CoverageRecorder, PENDING_LIMIT } from '../../src/platform/coverage/coverage.ts';
import type { OutcomeClass } from '../../src/platform/coverage/outcome-class.ts';
import { valueFact } from '../../src/platform/coverage/sources.ts';

const classes = ['status A 200', 'status A 404', 'refusal rate'].map(
  (id): OutcomeClass => ({ id, kind: 'status', title: id, trigger: { how: id }, recognizer: { by: 'fact', fact: id } }),
);

function recorder(): CoverageRecorder {
  const built = new CoverageRecorder(true);
  built.size = classes.length;
  return built;
}

/** Counts one request's classes, as the recorder counts a run of one. */
function recordOne(hits: CoverageRecorder, namespace: string, hit: number[], requestId: string, keyId: string | null): void {
  const sequence = hits.nextSequence(1);
  const generation = hits.generation(namespace);
  hits.add(namespace, hit, keyId, {
    count: 1,
    firstSeq: sequence,
    firstRequestId: requestId,
    firstGeneration: generation,
    lastSeq: sequence,
    lastRequestId: requestId,
    lastGeneration: generation,
  });
}

/** A catalog of one operation (`GET /v1/things/{id}`): its 200 and 400, and a validation kind. */
function thingsCoverage(): Coverage {
  const coverage = new Coverage(true, [
    {
      name: 'statuses and a validation kind',
      classes: () => [
        {
          id: 'read 200',
          kind: 'status',
          title: 'read',
          trigger: { how: 'read' },
          recognizer: { by: 'status', operation: 'GET /v1/things/{id}', status: 200 },
        },
        {
          id: 'read 400',
          kind: 'status',
          title: 'bad read',
          trigger: { how: 'bad read' },
          recognizer: { by: 'status', operation: 'GET /v1/things/{id}', status: 400 },
        },
        {
          id: 'validation invalid_type',
          kind: 'validation',
          title: 'invalid type',
          trigger: { how: 'a number' },
          recognizer: { by: 'fact', fact: 'validation:invalid_type' },
        },
      ],
    },
  ]);
  const route = { method: 'get', path: '/v1/things/{id}', operationId: 'getThing', responses: { 200: {}, 400: {} } };
  coverage.learn([{ type: 'route', route }], () => ({}), { scenarios: [], catalogEntries: () => [] });
  return coverage;
}

describe('CoverageRecorder', () => {
  it('merges the keys of a namespace: counts add up, the first id is the earliest and the last the latest of any key', () => {
    const hits = recorder();
    recordOne(hits, 'ns', [0], 'req_1', 'key_a');
    recordOne(hits, 'ns', [0, 2], 'req_2', 'key_b');
    recordOne(hits, 'ns', [0], 'req_3', 'key_a');
    recordOne(hits, 'ns', [], 'req_4', 'key_a');
    expect(hits.hits(classes, 'ns')).toEqual(
      new Map([
        ['status A 200', { count: 3, firstRequestId: 'req_1', lastRequestId: 'req_3', byKey: { key_a: 2, key_b: 1 } }],
        ['refusal rate', { count: 1, firstRequestId: 'req_2', lastRequestId: 'req_2', byKey: { key_b: 1 } }],
      ]),
    );
  });

  it('limits the hits to one key, counts requests without a key under "-", and keeps namespaces apart until all are asked for', () => {
    const hits = recorder();
    recordOne(hits, 'one', [1], 'req_1', 'key_a');
    recordOne(hits, 'one', [1], 'req_2', null);
    recordOne(hits, 'two', [1], 'req_3', 'key_a');
    expect(hits.hits(classes, 'one', 'key_a').get('status A 404')).toEqual({ count: 1, firstRequestId: 'req_1', lastRequestId: 'req_1', byKey: { key_a: 1 } });
    expect(hits.hits(classes, 'one').get('status A 404')?.byKey).toEqual({ key_a: 1, '-': 1 });
    expect(hits.hits(classes, undefined).get('status A 404')).toEqual({
      count: 3,
      firstRequestId: 'req_1',
      lastRequestId: 'req_3',
      byKey: { key_a: 2, '-': 1 },
    });
    hits.clear('one');
    expect(hits.namespaceNames()).toEqual(['two']);
    expect(hits.hits(classes, 'one').size).toBe(0);
    expect(hits.hits(classes, 'two').get('status A 404')?.count).toBe(1);
  });

  it('builds the catalog when first needed, not when the app learns its routes: a start does not pay for it', () => {
    let examplesRead = 0;
    let sourcesAsked = 0;
    const coverage = new Coverage(true, [
      {
        name: 'one status',
        classes: (context) => {
          sourcesAsked += 1;
          return [...context.operations.values()].map(
            (operation): OutcomeClass => ({
              id: `status ${operation.name} 200`,
              kind: 'status',
              title: operation.summary,
              trigger: { how: 'call it' },
              recognizer: { by: 'status', operation: operation.name, status: 200 },
            }),
          );
        },
      },
    ]);
    const route = { method: 'get', path: '/v1/things/{id}', operationId: 'getThing', summary: 'Get a thing', responses: { 200: {}, 404: {} } };
    coverage.learn(
      [{ type: 'route', route }],
      () => {
        examplesRead += 1;
        return { getThing: { status: 200 } };
      },
      { scenarios: [], catalogEntries: () => [] },
    );
    expect([examplesRead, sourcesAsked]).toEqual([0, 0]);
    const operation = coverage.operationOf([{ method: 'GET', path: '/v1/things/:id' }]);
    expect(operation?.byStatus.get(200)).toBe(0);
    expect(coverage.catalog.operations.get('GET /v1/things/{id}')).toMatchObject({ operationId: 'getThing', statuses: [200, 404], exampleStatus: 200 });
    expect([examplesRead, sourcesAsked]).toEqual([1, 1]);
  });

  it('counts every answered request it queues, past any number of full queues: counts, first and last ids, keys, namespaces and validation kinds', () => {
    const coverage = thingsCoverage();
    const operation = coverage.operationOf([{ method: 'GET', path: '/v1/things/:id' }]);
    const answer = (namespace: string, n: number, keyId: string | null, status: number, facts: string[] = []) =>
      coverage.record(namespace, { requestId: `req_${namespace}_${n}`, keyId, keyKind: 'live', operation, path: `/v1/things/${n}`, status, facts });
    // Enough requests to fill the queue of answers waiting to be counted several times over, and end mid-way.
    const requests = 1000;
    for (let n = 1; n <= requests; n += 1) {
      answer('one', n, n % 2 === 0 ? 'key_a' : 'key_b', 200);
      if (n % 100 === 0) answer('two', n, null, 400, ['validation:invalid_type']);
    }
    const one = coverage.report({ namespace: 'one', baseUrl: 'http://sandbox' });
    expect(one.hit.map(({ id, count, firstRequestId, lastRequestId, byKey }) => ({ id, count, firstRequestId, lastRequestId, byKey }))).toEqual([
      {
        id: 'read 200',
        count: requests,
        firstRequestId: 'req_one_1',
        lastRequestId: `req_one_${requests}`,
        byKey: { key_a: requests / 2, key_b: requests / 2 },
      },
    ]);
    const two = coverage.report({ namespace: 'two', baseUrl: 'http://sandbox' });
    expect(two.hit.map(({ id, count, firstRequestId, lastRequestId, byKey }) => ({ id, count, firstRequestId, lastRequestId, byKey }))).toEqual([
      { id: 'read 400', count: 10, firstRequestId: 'req_two_100', lastRequestId: 'req_two_1000', byKey: { '-': 10 } },
      { id: 'validation invalid_type', count: 10, firstRequestId: 'req_two_100', lastRequestId: 'req_two_1000', byKey: { '-': 10 } },
    ]);
    // One more answer after the reports: counted before the next report, once.
    answer('two', requests + 1, null, 400, ['validation:invalid_type']);
    coverage.clear('one');
    expect(coverage.namespaceNames()).toEqual(['two']);
    expect(coverage.report({ namespace: 'two', baseUrl: 'http://sandbox' }).hit.map(({ id, count }) => [id, count])).toEqual([
      ['read 400', 11],
      ['validation invalid_type', 11],
    ]);
  });

  it('counts alike answers in a row as one run, with the first and last request ids, apart from an answer between them', () => {
    const coverage = thingsCoverage();
    const operation = coverage.operationOf([{ method: 'GET', path: '/v1/things/:id' }]);
    const answer = (n: number, status: number) =>
      coverage.record('ns', { requestId: `req_${n}`, keyId: 'key_a', keyKind: 'live', operation, path: '/v1/things/1', status, facts: [] });
    for (let n = 1; n <= 150; n += 1) answer(n, n === 70 ? 400 : 200);
    const report = coverage.report({ namespace: 'ns', baseUrl: 'http://sandbox' });
    expect(report.hit.map(({ id, count, firstRequestId, lastRequestId }) => ({ id, count, firstRequestId, lastRequestId }))).toEqual([
      { id: 'read 200', count: 149, firstRequestId: 'req_1', lastRequestId: 'req_150' },
      { id: 'read 400', count: 1, firstRequestId: 'req_70', lastRequestId: 'req_70' },
    ]);
  });

  it('classifies a run of alike answers once, however many queues it would fill (a load test repeats one request)', () => {
    const coverage = thingsCoverage();
    const operation = coverage.operationOf([{ method: 'GET', path: '/v1/things/:id' }]);
    const classify = vi.spyOn(coverage.catalog, 'classify');
    const repeats = PENDING_LIMIT * 3 + 5;
    for (let n = 1; n <= repeats; n += 1) {
      coverage.record('ns', { requestId: `req_${n}`, keyId: 'key_a', keyKind: 'live', operation, path: '/v1/things/1', status: 200, facts: [] });
    }
    expect(classify).not.toHaveBeenCalled();
    const report = coverage.report({ namespace: 'ns', baseUrl: 'http://sandbox' });
    expect(classify).toHaveBeenCalledTimes(1);
    expect(report.hit.map(({ id, count, firstRequestId, lastRequestId }) => ({ id, count, firstRequestId, lastRequestId }))).toEqual([
      { id: 'read 200', count: repeats, firstRequestId: 'req_1', lastRequestId: `req_${repeats}` },
    ]);
  });
});

describe('value facts', () => {
  it('name the operation, member and value, for the values kept and for any past them', () => {
    const table = { operation: 'GET /v1/things/{id}', member: 'thing.status' };
    for (const round of [1, 2]) {
      for (let i = 0; i < 100; i++) expect(valueFact(table, `S${i}`), `round ${round}`).toBe(`value:GET /v1/things/{id} thing.status=S${i}`);
    }
  });
});
