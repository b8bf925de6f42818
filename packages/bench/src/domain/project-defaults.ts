import type { Model } from '../boundary/model.js';
import { builtInMeasure, type MeasureDefinition } from './built-in-measures.js';

/**
 * What the seed says every new project starts with (Bencher ≤ 0.5.8 did the same; later versions stopped): branch
 * `main`, testbed `localhost`, the measures latency and throughput, and a t-test threshold on `main` × `localhost`
 * for each, over at most 64 samples, bounding latency from above and throughput from below. The boundary is the
 * seed's 0.95 (Bencher used 0.99).
 */

export const DEFAULT_BOUNDARY = 0.95;

export const DEFAULT_BRANCH = { name: 'main', slug: 'main' } as const;
export const DEFAULT_TESTBED = { name: 'localhost', slug: 'localhost' } as const;

const tTest = { test: 't_test', min_sample_size: null, max_sample_size: 64, window: null } as const;

export const DEFAULT_THRESHOLDS: readonly { measure: MeasureDefinition; model: Model }[] = [
  {
    measure: builtInMeasure('latency') as MeasureDefinition,
    model: { ...tTest, lower_boundary: null, upper_boundary: DEFAULT_BOUNDARY },
  },
  {
    measure: builtInMeasure('throughput') as MeasureDefinition,
    model: { ...tTest, lower_boundary: DEFAULT_BOUNDARY, upper_boundary: null },
  },
];

/**
 * A model given without any boundary gets the default one: below for throughput (named by name or slug), above for
 * anything else.
 */
export function withDefaultBoundary(model: Model, measure?: string): Model {
  if (model.lower_boundary !== null || model.upper_boundary !== null) return model;
  return measure !== undefined && builtInMeasure(measure)?.slug === 'throughput'
    ? { ...model, lower_boundary: DEFAULT_BOUNDARY }
    : { ...model, upper_boundary: DEFAULT_BOUNDARY };
}
