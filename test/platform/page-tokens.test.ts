import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pageToken } from '../../src/platform/secrets/page-tokens.ts';

const expected = (secret: string, namespace: string, id: string) =>
  createHmac('sha256', secret).update(`hosted-page\n${namespace}\n${id}`).digest('base64url').slice(0, 22);

describe('hosted-page tokens kept between reads', () => {
  it('gives each secret, namespace and record its own token, whichever was asked first', () => {
    const asks = [
      ['secret-a', 'default', 'rec-1'],
      ['secret-b', 'default', 'rec-1'],
      ['secret-a', 'team-x', 'rec-1'],
      ['secret-a', 'default', 'rec-2'],
      ['secret-a', 'default', 'rec-1'],
    ] as const;
    const tokens = asks.map(([secret, namespace, id]) => pageToken(secret, namespace, id));
    asks.forEach(([secret, namespace, id], n) => expect(tokens[n]).toBe(expected(secret, namespace, id)));
    expect(new Set(tokens.slice(0, 4)).size).toBe(4);
  });

  it('answers the same token once more records were linked than it keeps', () => {
    const first = pageToken('secret-a', 'default', 'rec-kept');
    for (let n = 0; n < 5000; n++) pageToken('secret-a', 'default', `rec-${n}`);
    expect(pageToken('secret-a', 'default', 'rec-kept')).toBe(first);
    expect(pageToken('secret-a', 'default', 'rec-4999')).toBe(expected('secret-a', 'default', 'rec-4999'));
  });
});
