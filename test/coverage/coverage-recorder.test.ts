/**
 * The recorder counts by class number, per namespace and key: the report's counts, first and last
 * request ids and per-key counts come out of those arrays, merged across keys and namespaces.
 */
import { describe, expect, it } from 'vitest';
import { Coverage, CoverageRecorder } from '../../src/platform/coverage/coverage.ts';
import type { OutcomeClass } from '../../src/platform/coverage/outcome-class.ts';

const classes = ['status A 200', 'status A 404', 'refusal rate'].map(
  (id): OutcomeClass => ({ id, kind: 'status', title: id, trigger: { how: id }, recognizer: { by: 'fact', fact: id } }),
);

function recorder(): CoverageRecorder {
  const built = new CoverageRecorder(true);
  built.size = classes.length;
  return built;
}

describe('CoverageRecorder', () => {
  it('merges the keys of a namespace: counts add up, the first id is the earliest and the last the latest of any key', () => {
    const hits = recorder();
    hits.record('ns', [0], 'req_1', 'key_a');
    hits.record('ns', [0, 2], 'req_2', 'key_b');
    hits.record('ns', [0], 'req_3', 'key_a');
    hits.record('ns', [], 'req_4', 'key_a');
    expect(hits.hits(classes, 'ns')).toEqual(
      new Map([
        ['status A 200', { count: 3, firstRequestId: 'req_1', lastRequestId: 'req_3', byKey: { key_a: 2, key_b: 1 } }],
        ['refusal rate', { count: 1, firstRequestId: 'req_2', lastRequestId: 'req_2', byKey: { key_b: 1 } }],
      ]),
    );
  });

  it('limits the hits to one key, counts requests without a key under "-", and keeps namespaces apart until all are asked for', () => {
    const hits = recorder();
    hits.record('one', [1], 'req_1', 'key_a');
    hits.record('one', [1], 'req_2', null);
    hits.record('two', [1], 'req_3', 'key_a');
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
});
