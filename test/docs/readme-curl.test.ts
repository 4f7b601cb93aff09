import { describe, expect, it } from 'vitest';
import { curlRequest, jqRaw, parseCommand, projectOnto, readmeExamples } from './readme-curl.ts';

const ROOT = new URL('../../', import.meta.url);

describe('reading README examples', () => {
  it('takes sh blocks that run curl, their "# → status" lines and the json excerpt after them', () => {
    const markdown = [
      '### Job',
      '```sh',
      'npm start',
      '```',
      '```sh',
      "# the applicant's page, with a quote in a comment",
      'ID=$(curl -s -X POST http://127.0.0.1:4010/v1/x \\',
      '  -d \'{"a":',
      "  1}' | jq -r '.id')",
      '# → 201',
      'curl -s http://127.0.0.1:4010/v1/x/$ID',
      '# → 200',
      '```',
      '',
      '```json',
      '{ "id": "x" }',
      '```',
    ].join('\n');
    const [example, ...rest] = readmeExamples(markdown);
    expect(rest).toEqual([]);
    expect(example).toEqual({
      line: 5,
      heading: 'Job',
      commands: [
        { text: "ID=$(curl -s -X POST http://127.0.0.1:4010/v1/x    -d '{\"a\":\n  1}' | jq -r '.id')", status: 201 },
        { text: 'curl -s http://127.0.0.1:4010/v1/x/$ID', status: 200 },
      ],
      excerpt: { id: 'x' },
    });
  });

  it('leaves a block marked for the Docker CI to it: its curl runs against the image, not in-process', () => {
    const docker = '```sh\ndocker run -d -p 127.0.0.1:4010:4010 idv-sandbox\ncurl -s http://127.0.0.1:4010/healthz\n```';
    expect(readmeExamples(`<!-- ci: docker-example -->\n${docker}`)).toEqual([]);
    expect(() => readmeExamples(docker)).toThrow('has no "# → <status>" line');
  });

  it('refuses a curl command without its status line', () => {
    expect(() => readmeExamples('```sh\ncurl -s http://127.0.0.1:4010/healthz\n```')).toThrow('has no "# → <status>" line');
  });

  it('parses assignments, jq paths and variables, and refuses an unset variable', () => {
    expect(parseCommand("ID=$(curl -s http://h/x | jq -r '.a[0].b')", {})).toEqual({ assign: 'ID', jqPath: '.a[0].b', curl: ['-s', 'http://h/x'] });
    expect(parseCommand('K=$(echo "$U" | jq -r .key)', { U: '{"key":"v"}' })).toEqual({ assign: 'K', jqPath: '.key', echo: '{"key":"v"}' });
    expect(parseCommand('curl -s "http://h/$ID"', { ID: 'abc' }).curl).toEqual(['-s', 'http://h/abc']);
    expect(() => parseCommand('curl -s http://h/$MISSING', {})).toThrow('$MISSING, which no earlier example sets');
    expect(() => parseCommand('curl -s http://h | grep x', {})).toThrow('jq -r');
  });

  it('reads jq -r paths as jq prints them', () => {
    expect(jqRaw('{"a":[{"b":"text"}],"n":3}', '.a[0].b')).toBe('text');
    expect(jqRaw('{"a":[{"b":"text"}],"n":3}', '.n')).toBe('3');
    expect(jqRaw('{"a":1}', '.missing')).toBe('null');
    expect(() => jqRaw('{}', '.a | length')).toThrow('plain member/index paths');
  });
});

describe('curl command lines as requests', () => {
  it('sends -d as curl does: POST, form content type unless a header says otherwise', () => {
    const form = curlRequest(['-s', 'http://127.0.0.1:4010/v1/x', '-d', 'a=1', '-d', 'b=2'], ROOT);
    expect(form.method).toBe('POST');
    expect(form.body).toBe('a=1&b=2');
    expect(form.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(form.headers.get('host')).toBe('127.0.0.1:4010');
    const json = curlRequest(['-X', 'PATCH', '-H', 'Content-Type: application/json', '--data', '{"a":1}', 'http://127.0.0.1:4010/v1/x'], ROOT);
    expect([json.method, json.headers.get('content-type'), json.body]).toEqual(['PATCH', 'application/json', '{"a":1}']);
    expect(curlRequest(['http://127.0.0.1:4010/v1/x', '-H', 'x-api-key: sk_live_demo'], ROOT)).toMatchObject({ method: 'GET' });
  });

  it('reads files for --data-binary @, -T and -F name=@file', async () => {
    const binary = curlRequest(['-X', 'PUT', '--data-binary', '@fixtures/images/face.jpg', 'http://h/u'], ROOT);
    expect((binary.body as Uint8Array).length).toBe(4184);
    expect(curlRequest(['-T', 'fixtures/images/face.jpg', 'http://h/u'], ROOT).method).toBe('PUT');
    const multipart = curlRequest(['-F', 'image=@fixtures/images/passport.jpg', '-F', 'documentType=passport', 'http://h/u'], ROOT);
    const form = multipart.body as FormData;
    const file = form.get('image') as File;
    expect([multipart.method, file.name, file.type, file.size, form.get('documentType')]).toEqual(['POST', 'passport.jpg', 'image/jpeg', 25066, 'passport']);
  });

  it('refuses options it does not model, and two kinds of body', () => {
    expect(() => curlRequest(['-k', 'http://h/u'], ROOT)).toThrow('curl option -k');
    expect(() => curlRequest(['-d', 'a', '-F', 'b=c', 'http://h/u'], ROOT)).toThrow('more than one kind of body');
  });
});

describe('excerpts', () => {
  it('projects an answer onto the excerpt: named members, array items by position; a missing member stays missing', () => {
    const answer = { a: 1, b: { c: 2, d: 3 }, list: [{ x: 1, y: 2 }, { x: 3 }] };
    expect(projectOnto(answer, { b: { c: 0 }, list: [{ x: 0 }] })).toEqual({ b: { c: 2 }, list: [{ x: 1 }] });
    expect(projectOnto(answer, { gone: 1 })).toEqual({});
  });
});
