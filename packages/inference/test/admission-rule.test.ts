import { describe, expect, it } from 'vitest';
import { fittingPerChoice, type OutputAsk, wantedPerChoice } from '../src/tenancy/admission-rule.js';

const CONTEXT = 262_144;
const free = { inputPerMillion: 0, outputPerMillion: 0 };
const priced = { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 }; // 1 and 2 credits per token
const credits = (n: number) => n * 1_000_000;
const ask = (requested: number | undefined, choices = 1): OutputAsk => ({ choices, requested, contextLength: CONTEXT });
const plenty = Number.POSITIVE_INFINITY;

describe('the admission rule: the output cap a request gets from what is left', () => {
  const cases: Array<
    [string, number, OutputAsk, { tokens: number; credits: number }, typeof free, number | undefined]
  > = [
    ['max_tokens that fits is kept', 12_000, ask(16_384), { tokens: 100_000, credits: plenty }, free, 16_384],
    ['max_tokens over what is left is capped', 12_000, ask(16_384), { tokens: 20_000, credits: plenty }, free, 8_000],
    ['no max_tokens: what the context leaves', 500, ask(undefined), { tokens: plenty, credits: plenty }, free, 261_644],
    ['no max_tokens on a 100,000-token key', 500, ask(undefined), { tokens: 100_000, credits: plenty }, free, 99_500],
    ['the prompt and one token fit exactly', 500, ask(undefined), { tokens: 501, credits: plenty }, free, 1],
    ['the prompt alone does not leave a token', 500, ask(undefined), { tokens: 500, credits: plenty }, free, undefined],
    ['n choices share what is left', 100, ask(1_000, 4), { tokens: 1_000, credits: plenty }, free, 225],
    ['n choices need a token each', 100, ask(1_000, 4), { tokens: 103, credits: plenty }, free, undefined],
    ['credits limit the output', 100, ask(undefined), { tokens: plenty, credits: credits(1_000) }, priced, 450],
    [
      'credits for the prompt and a token',
      100,
      ask(undefined),
      { tokens: plenty, credits: credits(101) },
      priced,
      undefined,
    ],
    [
      'max_tokens above the context is the context',
      10,
      ask(10 * CONTEXT),
      { tokens: plenty, credits: plenty },
      free,
      CONTEXT,
    ],
    ['no output (embeddings): the prompt fits', 300, ask(undefined, 0), { tokens: 300, credits: plenty }, free, 0],
    [
      'no output (embeddings): the prompt does not fit',
      300,
      ask(undefined, 0),
      { tokens: 299, credits: plenty },
      free,
      undefined,
    ],
  ];
  it.each(cases)('%s', (_name, prompt, request, room, prices, expected) => {
    expect(fittingPerChoice(prompt, request, room, prices)).toBe(expected);
  });

  it('a request never gets more than it wants, and what it gets always fits', () => {
    for (const [, prompt, request, room, prices] of cases) {
      const cap = fittingPerChoice(prompt, request, room, prices);
      if (cap === undefined) continue;
      expect(cap).toBeLessThanOrEqual(wantedPerChoice(prompt, request));
      expect(prompt + request.choices * cap).toBeLessThanOrEqual(room.tokens);
    }
  });
});
