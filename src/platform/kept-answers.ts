/**
 * Answers of a pure computation kept by key, for work that requests repeat with the same inputs (an HMAC
 * of the same query scope, a hash of the same organization). Bounded: past `limit` keys it starts over, so
 * ever-new inputs cost no more than `limit` answers. The key must name every input the answer depends on.
 */
export function keptAnswers<V>(limit: number): (key: string, compute: () => V) => V {
  const answers = new Map<string, V>();
  return (key, compute) => {
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = compute();
      if (answers.size >= limit) answers.clear();
      answers.set(key, answer);
    }
    return answer;
  };
}
