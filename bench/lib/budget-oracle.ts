/** One request of a key's sequence: its prompt tokens and the output it produces when nothing but its own max_tokens caps it. */
export interface MeteredRequest {
  prompt: number;
  output: number;
}

/**
 * The most any admission that never overdraws can spend of `budget` on this sequence, taken in order: a request is
 * admitted while its prompt and one output token fit what is left, and then uses its prompt and its output capped at
 * what is left; the first request that does not fit is refused and ends the key. The sequence must not end before that.
 */
export function attainableSpend(budget: number, requests: Iterable<MeteredRequest>): number {
  let left = budget;
  for (const { prompt, output } of requests) {
    if (prompt + 1 > left) return budget - left;
    left -= prompt + Math.min(output, left - prompt);
  }
  throw new Error('the request sequence ended before a refusal');
}
