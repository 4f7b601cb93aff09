import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { aliasedBody } from '../../src/platform/validation/aliased-body.ts';
import { e164Phone, email, flag, httpsUrl, identifier, personName } from '../../src/platform/validation/request-fields.ts';

/** A body with every kind of field: aliased required, single-spelling required and optional, defaults. */
const ExampleBodySchema = aliasedBody(
  {
    firstName: { snake: 'first_name', schema: (key) => personName(key, "the applicant's first name"), required: true },
    email: { schema: email, required: true },
    phone: { schema: e164Phone },
    externalId: { snake: 'external_id', schema: (key) => identifier(key, 'your own reference') },
    redirectUrl: { snake: 'redirect_url', schema: httpsUrl },
    sendEmailInvite: { snake: 'send_email_invite', schema: flag, default: true },
    note: { snake: 'note_text', schema: z.string().max(3) },
  },
  { name: 'ExampleAliasedBody', description: 'An example.' },
);

const valid = { first_name: 'Jane', email: 'jane@example.com' };

function problems(body: unknown): Record<string, string> {
  const result = ExampleBodySchema.safeParse(body);
  if (result.success) throw new Error(`expected a validation error, got ${JSON.stringify(result.data)}`);
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('aliasedBody', () => {
  it('normalizes snake_case to camelCase, fills defaults and leaves unsent optional keys absent', () => {
    const parsed = ExampleBodySchema.parse(valid);
    expect(parsed).toEqual({ firstName: 'Jane', email: 'jane@example.com', sendEmailInvite: true });
    expect(Object.keys(parsed).sort()).toEqual(['email', 'firstName', 'sendEmailInvite']);
  });

  it('accepts either spelling of every aliased key and types the result as the camelCase object', () => {
    const snake = ExampleBodySchema.parse({ ...valid, external_id: 'ref-1', redirect_url: 'https://a.example/x', send_email_invite: false, note_text: 'abc' });
    const camel = ExampleBodySchema.parse({
      firstName: 'Jane',
      email: 'jane@example.com',
      externalId: 'ref-1',
      redirectUrl: 'https://a.example/x',
      sendEmailInvite: false,
      note: 'abc',
    });
    const expected = {
      firstName: 'Jane',
      email: 'jane@example.com',
      externalId: 'ref-1',
      redirectUrl: 'https://a.example/x',
      sendEmailInvite: false,
      note: 'abc',
    };
    expect(snake).toEqual(expected);
    expect(camel).toEqual(expected);
    const typed: { firstName: string; sendEmailInvite: boolean; externalId?: string } = camel;
    expect(typed.externalId).toBe('ref-1');
  });

  it('lets camelCase win and ignores the snake_case twin entirely, even when it is invalid', () => {
    const parsed = ExampleBodySchema.parse({
      first_name: '',
      firstName: 'Camel',
      email: 'jane@example.com',
      external_id: null,
      externalId: 'camel',
      redirect_url: 'http://insecure.example',
      redirectUrl: 'https://ok.example',
      send_email_invite: 'yes',
      sendEmailInvite: false,
      note_text: 'far too long',
      note: 'ok',
    });
    expect(parsed).toEqual({
      firstName: 'Camel',
      email: 'jane@example.com',
      externalId: 'camel',
      redirectUrl: 'https://ok.example',
      sendEmailInvite: false,
      note: 'ok',
    });
  });

  it('validates the camelCase value when both are sent, naming the camelCase key', () => {
    expect(problems({ ...valid, redirect_url: 'https://ok.example', redirectUrl: 'http://insecure.example' })).toEqual({
      redirectUrl:
        'redirectUrl must be a valid https:// URL (http and other schemes are refused), e.g. https://example.com/verified; got "http://insecure.example"',
    });
  });

  it('reports a required field sent in neither spelling at the snake_case key, naming both', () => {
    expect(problems({ email: 'jane@example.com' })).toEqual({
      first_name: "first_name (or firstName) is required: send the applicant's first name, 1-255 characters",
    });
    expect(problems({ first_name: 'Jane' })).toEqual({ email: "email is required: it must be the applicant's e-mail address, e.g. jane.doe@example.com" });
  });

  it('says the fix for a required field whose schema writes no sentence of its own', () => {
    const Body = aliasedBody({ orderId: { snake: 'order_id', schema: z.string(), required: true } }, { name: 'ExampleOrderBody' });
    expect(Body.safeParse({}).error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['order_id', 'order_id (or orderId) is required: send it in either spelling'],
    ]);
  });

  it('refuses null instead of treating it as absent', () => {
    expect(problems({ ...valid, external_id: null })).toEqual({
      external_id: 'external_id must be a string of 1-255 characters (your own reference); got null (omit the key instead of sending null)',
    });
  });

  it('refuses a body that is not an object, listing the required keys', () => {
    for (const body of [null, [], 'text', 42]) {
      expect(Object.values(problems(body))).toEqual(['the request body must be a JSON object with first_name and email']);
    }
  });

  it('drops unknown and hostile keys without touching the prototype', () => {
    const body = JSON.parse('{"first_name":"Jane","email":"jane@example.com","__proto__":{"admin":true},"extra":1}');
    const parsed = ExampleBodySchema.parse(body) as Record<string, unknown>;
    expect(Object.keys(parsed).sort()).toEqual(['email', 'firstName', 'sendEmailInvite']);
    expect(parsed.admin).toBeUndefined();
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('appears in the OpenAPI document as one component with both spellings, either one required, and the aliasing rule', () => {
    const app = new OpenAPIHono();
    app.openapi(
      createRoute({
        method: 'post',
        path: '/example',
        request: { body: { required: true, content: { 'application/json': { schema: ExampleBodySchema } } } },
        responses: { 200: { description: 'ok' } },
      }),
      (c) => c.json({}, 200),
    );
    const doc = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } });
    expect(doc.paths?.['/example']?.post?.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ExampleAliasedBody' } } },
    });
    const component = doc.components?.schemas?.ExampleAliasedBody as {
      properties: Record<string, unknown>;
      required: string[];
      allOf: unknown;
      description: string;
    };
    expect(Object.keys(component.properties)).toEqual([
      'first_name',
      'firstName',
      'email',
      'phone',
      'external_id',
      'externalId',
      'redirect_url',
      'redirectUrl',
      'send_email_invite',
      'sendEmailInvite',
      'note_text',
      'note',
    ]);
    expect(component.required).toEqual(['email']);
    expect(component.allOf).toEqual([{ anyOf: [{ required: ['first_name'] }, { required: ['firstName'] }] }]);
    expect(component.description).toBe(
      'An example. Each snake_case key also accepts its camelCase alias (first_name/firstName, external_id/externalId, redirect_url/redirectUrl, send_email_invite/sendEmailInvite, note_text/note); when both spellings of a field are sent the camelCase value wins and the snake_case one is ignored. Required: first_name (or firstName) and email.',
    );
  });
});
