/**
 * fast-check arbitraries for requests to an operation of /openapi.json: values from the operation's own
 * schemas (examples, enums, bounds) and values outside them (wrong types, limits ±1, huge and deep values,
 * unicode and control characters, `__proto__`, invalid base64, truncated images, traversal names).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { HOSTILE_NAMES } from './hostile-names.ts';

type Schema = Record<string, any>;
export type OpenApiDocument = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };
export interface Operation {
  operationId?: string;
  parameters?: { name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  /** What the case tried, for the failure message. */
  label: string;
}

const JPEG = readFileSync(new URL('../../fixtures/images/face.jpg', import.meta.url));
export const KEYS = ['sk_live_demo', 'sk_test_demo', 'sk_live_other', 'sk_live_broke', 'sk_live_revoked', 'sk_live_nope', ''] as const;

/** Strings nobody expects: control characters, lone surrogates, RTL marks, huge, traversal names. */
const oddString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(...HOSTILE_NAMES, '__proto__', 'constructor', '\u0000', '\ud800', '\u202e', '😀'.repeat(50), '%00', '${7*7}', "'; DROP TABLE x;--"),
  fc.constant('a'.repeat(70_000)),
);

/** Base64 that lies: truncated images, padding errors, the wrong alphabet, a data URL of nothing. */
const badImageString = fc.oneof(
  fc.integer({ min: 0, max: 400 }).map((n) => JPEG.subarray(0, n).toString('base64')),
  fc.constantFrom(
    'not base64!!',
    '====',
    'data:image/png;base64,',
    'uploads/does-not-exist',
    'uploads/../../etc/passwd',
    JPEG.toString('base64url').slice(0, 101),
  ),
);

/** A JSON value of the wrong kind for a schema, or a dangerous one. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, 0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.5, '', [], {}),
  fc.jsonValue({ maxDepth: 2 }),
  oddString,
  badImageString,
);

export class RequestArbitraries {
  constructor(private readonly document: OpenApiDocument) {}

  /** A value matching the schema (examples, enums, formats, bounds), `depth` limiting recursion. */
  valid(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
    if (!schema || depth > 6) return fc.constant('x');
    if (schema.$ref) return this.valid(this.resolve(schema.$ref), depth + 1);
    const examples = [schema.example, ...(schema.examples ?? [])].filter((value) => value !== undefined);
    const own = this.generated(schema, depth);
    return examples.length > 0 ? fc.oneof(fc.constantFrom(...examples), own) : own;
  }

  /** A value near or past the schema's edges: limits ±1, wrong types, hostile strings. */
  edge(schema: Schema | undefined): fc.Arbitrary<unknown> {
    const resolved = schema?.$ref ? this.resolve(schema.$ref) : (schema ?? {});
    const edges: unknown[] = [];
    for (const bound of [resolved.minimum, resolved.maximum, resolved.exclusiveMinimum, resolved.exclusiveMaximum]) {
      if (typeof bound === 'number') edges.push(bound - 1, bound, bound + 1);
    }
    for (const length of [resolved.minLength, resolved.maxLength]) {
      if (typeof length === 'number' && length < 100_000) edges.push('a'.repeat(Math.max(0, length - 1)), 'a'.repeat(length), 'a'.repeat(length + 1));
    }
    for (const count of [resolved.minItems, resolved.maxItems]) {
      if (typeof count === 'number' && count < 1000)
        edges.push(
          [],
          Array.from({ length: count + 1 }, () => 'a'),
        );
    }
    return edges.length > 0 ? fc.oneof(fc.constantFrom(...edges), wrongValue) : wrongValue;
  }

  /** A request body: the schema's shape, one field out of bounds, extra hostile keys, or raw garbage. */
  body(schema: Schema | undefined): fc.Arbitrary<{ text: string; label: string }> {
    const resolved = schema?.$ref ? this.resolve(schema.$ref) : schema;
    const valid = this.valid(resolved).map((value) => ({ text: JSON.stringify(value) ?? '', label: 'valid' }));
    const properties = Object.entries<Schema>(resolved?.properties ?? {});
    const oneFieldOff =
      properties.length === 0
        ? valid
        : fc.tuple(this.valid(resolved), fc.constantFrom(...properties), fc.boolean()).chain(([value, [name, field], useEdge]) =>
            (useEdge ? this.edge(field) : wrongValue).map((bad) => ({
              text: JSON.stringify({ ...(value as object), [name]: bad }) ?? '',
              label: `field ${name} off`,
            })),
          );
    const polluted = this.valid(resolved).map((value) => ({
      text: `{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},${JSON.stringify(value ?? {}).slice(1) || '}'}`,
      label: '__proto__',
    }));
    const raw = fc.constantFrom(
      { text: '{', label: 'truncated JSON' },
      { text: '{"a":1,}', label: 'trailing comma' },
      { text: `${'['.repeat(5000)}${']'.repeat(5000)}`, label: 'deep array' },
      { text: `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`, label: 'deep object' },
      { text: JSON.stringify({ big: 'x'.repeat(600_000) }), label: '600 KB string' },
      { text: 'null', label: 'null' },
      { text: '[]', label: 'array' },
      { text: '"just a string"', label: 'string' },
      { text: '\u0000\u0001', label: 'control bytes' },
      { text: '', label: 'empty' },
    );
    return fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: oneFieldOff, weight: 4 }, { arbitrary: polluted, weight: 1 }, { arbitrary: raw, weight: 2 });
  }

  /** A whole request to the operation. */
  request(method: string, template: string, operation: Operation): fc.Arbitrary<FuzzRequest> {
    const parameters = operation.parameters ?? [];
    const param = (schema: Schema | undefined) =>
      fc.oneof(
        { arbitrary: this.valid(schema).map(String), weight: 3 },
        { arbitrary: this.edge(schema).map(String), weight: 1 },
        { arbitrary: oddString, weight: 1 },
      );
    const pathValues = fc.tuple(...parameters.filter((p) => p.in === 'path').map((p) => param(p.schema).map((value) => [p.name, value] as const)));
    const queryValues = fc.array(
      fc.oneof(
        ...parameters.filter((p) => p.in === 'query').map((p) => param(p.schema).map((value) => [p.name, value] as const)),
        fc.tuple(fc.constantFrom('namespace', 'x', '__proto__', 'limit'), oddString),
      ),
      { maxLength: 4 },
    );
    const contentTypes = Object.keys(operation.requestBody?.content ?? {});
    const jsonSchema = operation.requestBody?.content?.['application/json']?.schema;
    const body = contentTypes.length === 0 ? fc.constant({ text: '', label: 'no body' }) : this.body(jsonSchema);
    const contentType = fc.oneof(
      { arbitrary: fc.constant('application/json'), weight: 6 },
      {
        arbitrary: fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/json; charset=utf-16',
          'application/xml',
          ';;;',
          '',
        ),
        weight: 1,
      },
    );
    const key = fc.constantFrom(...KEYS);
    const namespace = fc.oneof({ arbitrary: fc.constant('fuzz'), weight: 8 }, { arbitrary: fc.constantFrom('..', '.', 'a/b', 'x'.repeat(65)), weight: 1 });
    const multipart = contentTypes.includes('multipart/form-data')
      ? fc.option(
          fc.integer({ min: 0, max: JPEG.length }).map((n) => multipartBody(JPEG.subarray(0, n))),
          { nil: undefined },
        )
      : fc.constant(undefined);
    return fc
      .record({ path: pathValues, query: queryValues, body, contentType, key, namespace, multipart })
      .map(({ path, query, body, contentType, key, namespace, multipart }) => {
        let url = template;
        for (const [name, value] of path) url = url.replace(`{${name}}`, encodeUrlPart(value));
        const search = query.map(([name, value]) => `${encodeUrlPart(name)}=${encodeUrlPart(value)}`).join('&');
        const headers: Record<string, string> = { 'x-sandbox-namespace': namespace };
        if (key !== '') headers['x-api-key'] = key;
        let sent: string | Uint8Array | undefined = method === 'GET' || body.text === '' ? undefined : body.text;
        let label = body.label;
        if (multipart) {
          headers['content-type'] = multipart.contentType;
          sent = multipart.bytes;
          label = `multipart image of ${multipart.imageBytes} bytes`;
        } else if (sent !== undefined && contentType !== '') headers['content-type'] = contentType;
        return { method, path: search ? `${url}?${search}` : url, headers, body: sent, label: `${label}; key ${key || '(none)'}; ns ${namespace}` };
      });
  }

  private generated(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
    const variants = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(variants) && variants.length > 0) return fc.oneof(...variants.map((variant: Schema) => this.valid(variant, depth + 1)));
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return this.valid(schema.allOf[0], depth + 1);
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type ?? (schema.properties ? 'object' : 'string')];
    return fc.oneof(...types.map((type) => this.ofType(type, schema, depth)));
  }

  private ofType(type: string, schema: Schema, depth: number): fc.Arbitrary<unknown> {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return fc.integer({ min: Math.ceil(schema.minimum ?? -1000), max: Math.floor(schema.maximum ?? 100_000) });
      case 'number':
        return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000, noNaN: true, noDefaultInfinity: true });
      case 'array': {
        const maxLength = Math.min(schema.maxItems ?? 3, 3);
        return fc.array(this.valid(schema.items, depth + 1), { minLength: Math.min(schema.minItems ?? 0, maxLength), maxLength });
      }
      case 'object': {
        const properties = Object.entries<Schema>(schema.properties ?? {});
        if (properties.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 });
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [name, property] of properties) model[name] = this.valid(property, depth + 1);
        return fc.record(model, { requiredKeys: schema.required ?? [] });
      }
      default:
        return this.string(schema);
    }
  }

  private string(schema: Schema): fc.Arbitrary<string> {
    if (schema.format === 'date-time')
      return fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2040-01-01T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString());
    if (schema.format === 'date')
      return fc
        .date({ min: new Date('1930-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true })
        .map((date) => date.toISOString().slice(0, 10));
    if (schema.format === 'email') return fc.emailAddress();
    if (schema.format === 'uuid') return fc.uuid({ version: 4 });
    if (schema.format === 'uri') return fc.webUrl();
    const minLength = schema.minLength ?? 0;
    const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 24, 24));
    if (typeof schema.pattern === 'string') {
      try {
        const pattern = new RegExp(schema.pattern);
        // Also the longest strings the pattern allows: "99999…9d" is where durations overflow.
        return fc
          .oneof(fc.stringMatching(pattern), fc.stringMatching(pattern, { size: 'large' }))
          .filter((value) => value.length >= minLength && value.length <= (schema.maxLength ?? Infinity));
      } catch {
        // A pattern JavaScript cannot compile: fall back to plain strings.
      }
    }
    return fc.string({ minLength, maxLength });
  }

  private resolve(ref: string): Schema {
    const name = ref.replace('#/components/schemas/', '');
    return this.document.components?.schemas?.[name] ?? {};
  }
}

/** Percent-encodes; a lone surrogate (not encodable) becomes an invalid UTF-8 sequence, which a server must survive too. */
function encodeUrlPart(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80%FF';
  }
}

function multipartBody(image: Buffer): { contentType: string; bytes: Uint8Array; imageBytes: number } {
  const boundary = 'fuzzboundary';
  const parts = ['image', 'source', 'target', 'documentImage', 'faceImage'].map((name) =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="x.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
      image,
      Buffer.from('\r\n'),
    ]),
  );
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    bytes: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    imageBytes: image.length,
  };
}
