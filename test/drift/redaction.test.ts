import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildDriftReport, renderDriftReport } from '../../src/drift/drift-report.ts';
import type { Exchange } from '../../src/drift/recording.ts';
import { replay } from '../../src/drift/replay.ts';
import { COVERAGE_FORMATS } from '../../src/platform/coverage/coverage-report.ts';
import { RECORDED_KEY, recorder } from './recorder.ts';

const PERSON = {
  email: 'margarethe.vonstrelitz@privatemail.example',
  first: 'Margarethe',
  last: 'Vonstrelitz',
  phone: '+447700900461',
  address: '221B Baker Street, London NW1 6XE',
  birth: '1961-07-23',
  document: 'X93K41027',
};
const selfie = readFileSync('fixtures/images/face.jpg');

/** A recording full of one person's data, whose recorded answers then differ from the sandbox's exactly where that data sits. */
async function personalRecording(): Promise<Exchange[]> {
  const r = await recorder(7);
  const session = await r.call('POST', '/v1/sessions', {
    first_name: PERSON.first,
    last_name: PERSON.last,
    email: PERSON.email,
    phone: PERSON.phone,
    external_id: PERSON.email,
  });
  await r.call('GET', `/v1/sessions/${session.id}`);
  await r.call('POST', '/v1/screening/phone-ownership', {
    phone: PERSON.phone,
    firstName: PERSON.first,
    lastName: PERSON.last,
    address: PERSON.address,
    dateOfBirth: PERSON.birth,
    email: PERSON.email,
  });
  await r.call('POST', '/v1/igaming/self-exclusion/identity', { document_number: PERSON.document, first_name: PERSON.first, last_name: PERSON.last });
  await r.call('DELETE', `/v1/igaming/self-exclusion/identity/${PERSON.document}`);
  await r.call('GET', `/v1/financial/externalId/${encodeURIComponent(PERSON.email)}`);
  const uploads = await r.call('POST', `/v1/sessions/${session.id}/uploads`, {
    files: [{ file_name: `${PERSON.last}.jpg`, content_type: 'image/jpeg', slot: 'selfie_front' }],
  });
  await r.call('PUT', uploads.signed_urls[0].upload_url, new Uint8Array(selfie));
  await r.close();
  const exchanges = r.exchanges.map((exchange) => {
    const body = JSON.parse(exchange.response.body as string);
    if (exchange.number === 2) {
      body.user.email = 42; // a type difference where the e-mail was
      body.user.phone = null;
      body.session_record.status = PERSON.first; // personal data where an enum is expected
    }
    if (exchange.number === 4) body.excluded[0].status = PERSON.document;
    return { ...exchange, response: { ...exchange.response, body: JSON.stringify(body) } };
  });
  // Requests the sandbox does not serve, with personal data in the path and the query.
  exchanges.push({
    number: exchanges.length + 1,
    request: {
      method: 'GET',
      url: `https://api.idv.example/v1/people/${encodeURIComponent(PERSON.email)}/${PERSON.document}?name=${PERSON.first}`,
      headers: { 'x-api-key': RECORDED_KEY },
    },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: `${PERSON.first} ${PERSON.last}` }) },
  });
  return exchanges;
}

describe('a drift report of a recording full of personal data', () => {
  it('reports the differences without any of the personal values, in every format', async () => {
    const exchanges = await personalRecording();
    const report = buildDriftReport(await replay(exchanges));
    const rendered = COVERAGE_FORMATS.map((format) => renderDriftReport(report, format, { at: '2026-02-01T10:00:00.000Z', hostname: 'localhost' })).join('\n');

    const differences = report.operations.flatMap((o) => o.differences.map((d) => `${o.operation} ${d.kind} ${d.path} ${d.recorded} ${d.sandbox}`));
    const documentHash = report.unserved[0]?.path.split('/').at(-1)?.slice(1, -1);
    expect(report.unserved).toEqual([{ number: 9, method: 'GET', path: expect.stringMatching(/^\/v1\/people\/\{#[0-9a-f]{8}\}\/\{#[0-9a-f]{8}\}$/) }]);
    expect(differences).toEqual([
      expect.stringMatching(/^GET \/v1\/sessions\/\{id\} value \$\.session_record\.status #[0-9a-f]{8} PENDING$/),
      'GET /v1/sessions/{id} type $.user.email number string',
      'GET /v1/sessions/{id} null $.user.phone null string',
      // The same document number hashes alike wherever it appears, so the two places can be matched up.
      `POST /v1/igaming/self-exclusion/identity value $.excluded[*].status ${documentHash} added`,
    ]);

    const secrets = [RECORDED_KEY, ...Object.values(PERSON), encodeURIComponent(PERSON.email), selfie.toString('base64').slice(200, 260)];
    for (const secret of secrets) expect(rendered.toLowerCase()).not.toContain(secret.toLowerCase());
  });
});
