import { describe, expect, it } from 'vitest';
import { keptAnswers } from '../../src/platform/kept-answers.ts';

describe('kept answers', () => {
  it('computes each key once and answers it again from what it kept', () => {
    const kept = keptAnswers<string>(4);
    const computed: string[] = [];
    const ask = (key: string) =>
      kept(key, () => {
        computed.push(key);
        return `answer ${key}`;
      });
    expect([ask('a'), ask('b'), ask('a')]).toEqual(['answer a', 'answer b', 'answer a']);
    expect(computed).toEqual(['a', 'b']);
  });

  it('keeps no more than its limit: past it, it starts over and computes again', () => {
    const kept = keptAnswers<number>(3);
    let computations = 0;
    const ask = (key: string) => kept(key, () => ++computations);
    for (const key of ['a', 'b', 'c']) ask(key);
    expect(ask('d')).toBe(4);
    expect(ask('a')).toBe(5);
    expect(ask('d')).toBe(4);
  });
});
