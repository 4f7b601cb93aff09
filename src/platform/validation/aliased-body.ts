/**
 * Request bodies whose keys are snake_case with camelCase aliases (spec: 'Parameters marked with an alias
 * accept both spellings; when both are sent the camelCase value wins').
 *
 * `aliasedBody(fields, { name })` builds ONE zod schema for a route: the OpenAPI document shows both spellings
 * of every aliased key, and the parsed value is the normalized camelCase object:
 * - when both spellings are sent, the camelCase value is used and the snake_case one is ignored entirely,
 *   not even validated;
 * - a required field missing in both spellings is reported at the snake_case key, naming both;
 * - optional keys that were not sent are absent from the result (never undefined-valued, never null);
 *   `default` fills a key that neither spelling sent;
 * - unknown keys are dropped.
 *
 * In the OpenAPI document both spellings are optional properties; each required pair is stated as
 * `anyOf: [{ required: [snake] }, { required: [camel] }]` (inside one `allOf`), so a generator or validator
 * reading the document requires what the server requires. The description lists the required keys too.
 */
import { z } from '@hono/zod-openapi';

export interface AliasedField {
  /** The snake_case spelling; omit it for a key with one spelling (the record key is then the wire key). */
  snake?: string;
  /**
   * The field's rules. A function is called once per spelling with the key, so that messages name the key
   * the caller sent (the factories of request-fields.ts).
   */
  schema: z.ZodType | ((key: string) => z.ZodType);
  /** Required in either spelling. */
  required?: boolean;
  /** The value when neither spelling is sent (a value of the field's output type). */
  default?: unknown;
}

type SchemaOf<F> = F extends { schema: infer S } ? (S extends (key: string) => infer R ? R : S) : never;
type AlwaysPresent<F> = F extends { required: true } ? true : F extends { default: unknown } ? true : false;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The normalized (camelCase) body of a record of fields. */
export type AliasedBody<F extends Record<string, AliasedField>> = Simplify<
  { -readonly [K in keyof F as AlwaysPresent<F[K]> extends true ? K : never]: z.output<SchemaOf<F[K]>> } & {
    -readonly [K in keyof F as AlwaysPresent<F[K]> extends true ? never : K]?: z.output<SchemaOf<F[K]>>;
  }
>;

export interface AliasedBodyOptions {
  /** The OpenAPI component name, e.g. 'CreateSessionBody'. */
  name: string;
  /** Said first in the component's description; the aliasing rule and the required keys follow. */
  description?: string;
}

/** "a, b and c" */
function listed(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/**
 * The message for a required field sent in neither spelling: the field schema's own sentence for a missing
 * key (request-fields.ts writes `first_name is required: send ...`), with the alias named after the key.
 */
function missingMessage(schema: z.ZodType, snake: string, camel: string): string {
  const result = schema.safeParse(undefined);
  const own = result.success ? undefined : result.error.issues[0]?.message;
  if (own !== undefined && own.startsWith(`${snake} is required`)) return `${snake} (or ${camel})${own.slice(snake.length)}`;
  return `${snake} (or ${camel}) is required: send it in either spelling`;
}

export function aliasedBody<const F extends Record<string, AliasedField>>(fields: F, options: AliasedBodyOptions): z.ZodType<AliasedBody<F>, unknown> {
  const shape: Record<string, z.ZodType> = {};
  /** snake_case key → its camelCase alias. */
  const camelOf = new Map<string, string>();
  const requiredKeys: string[] = [];
  const eitherRequired: { snake: string; camel: string; message: string }[] = [];

  for (const [key, field] of Object.entries(fields)) {
    const build = (spelling: string): z.ZodType => (typeof field.schema === 'function' ? field.schema(spelling) : field.schema);
    if (field.snake === undefined) {
      shape[key] = field.required ? build(key) : build(key).optional();
      if (field.required) requiredKeys.push(key);
      continue;
    }
    const snakeSchema = build(field.snake);
    shape[field.snake] = snakeSchema.optional();
    shape[key] = build(key).optional();
    camelOf.set(field.snake, key);
    if (field.required) {
      requiredKeys.push(field.snake);
      eitherRequired.push({ snake: field.snake, camel: key, message: missingMessage(snakeSchema, field.snake, key) });
    }
  }

  const fieldList = Object.entries(fields);
  const pairs = [...camelOf].map(([snake, camel]) => `${snake}/${camel}`);
  const description = [
    options.description,
    pairs.length > 0
      ? `Each snake_case key also accepts its camelCase alias (${pairs.join(', ')}); when both spellings of a field are sent the camelCase value wins and the snake_case one is ignored.`
      : undefined,
    requiredKeys.length > 0
      ? `Required: ${listed(requiredKeys.map((snake) => (camelOf.has(snake) ? `${snake} (or ${camelOf.get(snake)})` : snake)))}.`
      : undefined,
  ]
    .filter((part) => part !== undefined)
    .join(' ');

  const wire = z.object(shape, {
    error: requiredKeys.length > 0 ? `the request body must be a JSON object with ${listed(requiredKeys)}` : 'the request body must be a JSON object',
  });

  /** A snake_case key sent beside its camelCase twin. */
  const shadowed = (source: Record<string, unknown>, key: string): boolean => {
    const camel = camelOf.get(key);
    return camel !== undefined && Object.hasOwn(source, camel) && source[camel] !== undefined;
  };
  /** Drops each snake_case key whose camelCase twin was sent, so it is not validated at all. */
  const dropShadowed = (input: unknown): unknown => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
    const source = input as Record<string, unknown>;
    // Most bodies use one spelling: they are passed on as they are (the object schema copies what it keeps).
    if (!Object.keys(source).some((key) => shadowed(source, key))) return source;
    // fromEntries defines own keys, so a hostile "__proto__" key stays a plain (then stripped) key.
    return Object.fromEntries(Object.entries(source).filter(([key]) => !shadowed(source, key)));
  };

  return (
    z
      .preprocess(dropShadowed, wire)
      .superRefine((body, ctx) => {
        const sent = body as Record<string, unknown>;
        for (const { snake, camel, message } of eitherRequired) {
          if (sent[camel] === undefined && sent[snake] === undefined) ctx.addIssue({ code: 'custom', path: [snake], message });
        }
      })
      .transform((body) => {
        const sent = body as Record<string, unknown>;
        const out: Record<string, unknown> = {};
        for (const [key, field] of fieldList) {
          const value = sent[key] !== undefined ? sent[key] : field.snake === undefined ? undefined : sent[field.snake];
          if (value !== undefined) out[key] = value;
          else if (field.default !== undefined) out[key] = field.default;
        }
        return out as AliasedBody<F>;
      })
      // Named on the outside so the document gets one component; it renders the wire object (both spellings).
      .openapi(options.name, {
        description,
        ...(eitherRequired.length > 0 ? { allOf: eitherRequired.map(({ snake, camel }) => ({ anyOf: [{ required: [snake] }, { required: [camel] }] })) } : {}),
      })
  );
}
