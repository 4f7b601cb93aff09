/**
 * `/openapi.json` must require what the server requires: a generator or validator built from the document
 * (openapi-typescript, a schema-driven mock, a contract test) otherwise accepts bodies the server refuses.
 * Each body below is valid; dropping a required group of keys (both spellings of an aliased field, or each
 * alternative of a "phone or sessionId" rule) must make the document refuse it and the server answer 400
 * naming the group's first key.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestSandbox, testSandbox } from '../helpers/sandbox.ts';

const APPLICANT = { first_name: 'Jane', lastName: 'Doe', email: 'jane@example.com', phone: '+14155550100' };

/** [method, path, component, a valid body, the required groups: [snake, camel], [key], or alternatives] */
const BODIES: [string, string, string, Record<string, unknown>, string[][]][] = [
  ['POST', '/v1/sessions', 'CreateSessionBody', APPLICANT, [['first_name', 'firstName'], ['last_name', 'lastName'], ['email']]],
  ['POST', '/v1/workflows/wf-1/sessions', 'CreateWorkflowSessionBody', APPLICANT, [['first_name', 'firstName'], ['last_name', 'lastName'], ['email'], ['phone']]],
  ['POST', '/v1/credit-check/soft', 'CreditCheckBody', APPLICANT, [['first_name', 'firstName'], ['last_name', 'lastName'], ['email'], ['phone']]],
  ['POST', '/v1/aml/bots/bot-1/monitored-users', 'EnrolMonitoredUserBody', { subjectUserId: 'user-1' }, [['subject_user_id', 'subjectUserId']]],
  ['POST', '/v1/screening/phone-trust', 'PhoneTrustRequest', { phone: '+14155550100' }, [['phone', 'sessionId']]],
  ['POST', '/v1/screening/carrier-age-gate', 'CarrierAgeGateRequest', { phone: '+14155550100' }, [['phone', 'sessionId']]],
  ['POST', '/v1/screening/phone-ownership', 'PhoneOwnershipRequest', { phone: '+14155550100', lastName: 'Doe' }, [['phone', 'sessionId'], ['firstName', 'lastName']]],
  ['POST', '/v1/igaming/self-exclusion/identity', 'AddSelfExclusionIdentityBody', { document_number: 'X1234567' }, [['document_number', 'document_numbers']]],
];

let sandbox: TestSandbox;
let validatorOf: (component: string) => (body: unknown) => boolean;

beforeAll(async () => {
  sandbox = await testSandbox();
  const document = (await sandbox.call('GET', '/openapi.json', { key: null })).body as { components: { schemas: Record<string, object> } };
  // The document's own vocabulary (example, openapi metadata) is not JSON Schema; formats are the server's job.
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ $id: 'doc', components: document.components });
  validatorOf = (component) => {
    const validate = ajv.compile({ $ref: `doc#/components/schemas/${component}` });
    return (body) => validate(body) === true;
  };
});
afterAll(() => sandbox.close());

describe('/openapi.json request bodies', () => {
  it.each(BODIES)('%s %s: the document requires every field the server requires', async (method, path, component, body, required) => {
    const documentAccepts = validatorOf(component);
    expect(documentAccepts(body), 'the valid body').toBe(true);
    expect((await sandbox.call(method, path, { body })).status, 'the valid body').not.toBe(400);
    for (const group of required) {
      const without = Object.fromEntries(Object.entries(body).filter(([key]) => !group.includes(key)));
      expect(documentAccepts(without), `without ${group.join('/')}`).toBe(false);
      const response = await sandbox.call(method, path, { body: without });
      expect(response.status, `without ${group.join('/')}`).toBe(400);
      expect(response.body.error).toContain(group[0]);
    }
  });

  it('gives expires_in_hours one rule on every body that takes it', async () => {
    const messages = await Promise.all(
      (
        [
          ['/v1/sessions', { ...APPLICANT, expiresInHours: 0 }],
          ['/v1/workflows/wf-1/sessions', { ...APPLICANT, expiresInHours: 0 }],
          ['/v1/age-verification', { firstName: 'Sam', lastName: 'Doe', email: 'p@example.com', phone: '+14155550100', method: 'quiz', expiresInHours: 0 }],
        ] as const
      ).map(async ([path, body]) => {
        const response = await sandbox.call('POST', path, { body });
        expect(response.status, path).toBe(400);
        return response.body.error as string;
      }),
    );
    expect(messages[0]).toContain('expiresInHours must be at least 1 (hours)');
    expect(new Set(messages).size, messages.join(' | ')).toBe(1);
  });
});
