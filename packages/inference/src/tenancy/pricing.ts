/** Credits are kept as integer micro-credits, so every addition is exact. */
export const MICRO = 1_000_000;

export interface Prices {
  /** Credits per million input tokens (cached and uncached alike). */
  inputPerMillion: number;
  /** Credits per million output tokens. */
  outputPerMillion: number;
}

/** Micro-credits for a token count: credits per million tokens × tokens is exactly micro-credits; rounded up. */
export const chargeOf = (prices: Prices, promptTokens: number, completionTokens: number): number =>
  Math.ceil(promptTokens * prices.inputPerMillion + completionTokens * prices.outputPerMillion);

export const toMicro = (credits: number): number => Math.round(credits * MICRO);
export const fromMicro = (micro: number): number => micro / MICRO;
