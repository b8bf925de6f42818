import { mulberry32 } from '@atrium/core';

/** A seeded PRNG (mulberry32) with a Box–Muller normal sampler, so generated weights are byte-identical across runs. */
export function seededNormal(seed: number): () => number {
  const uniform = mulberry32(seed);
  return () => {
    const u = 1 - uniform();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform());
  };
}
