// A seeded, labelled corpus of benchmark series for scoring change-point detection and Bencher's threshold models.
// Levels are µs–ms in nanoseconds with 1–3 % noise; every change is a mean shift in units of the series' noise σ.

import { mulberry32 } from '@atrium/core';

/** Which side(s) of the threshold the series is judged under. */
export type Sides = 'both' | 'upper';

export interface LevelChange {
  /** Index of the first value of the new regime. */
  index: number;
  /** Mean shift in σ (signed). */
  sigmas: number;
}

export interface CorpusSeries {
  name: string;
  /** The corpus class; no-change classes have no alertable change. */
  kind: string;
  sides: Sides;
  values: number[];
  changes: LevelChange[];
}

/** Mean shifts at least this large (in σ) must be found; smaller ones may be. */
export const LABELLED_SIGMAS = 2.5;

interface Noise {
  uniform: () => number;
  normal: () => number;
  /** Student-t with 3 degrees of freedom. */
  studentT3: () => number;
}

function noiseOf(random: () => number): Noise {
  const normal = () => {
    const u = 1 - random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
  return {
    uniform: random,
    normal,
    studentT3: () => normal() / Math.sqrt((normal() ** 2 + normal() ** 2 + normal() ** 2) / 3),
  };
}

interface Draft {
  length: number;
  level: number;
  sigma: number;
  noise: Noise;
  random: () => number;
}

type Shape = (draft: Draft) => { values: number[]; changes: LevelChange[] };

/** Level + σ·(noise at i) + σ·(mean shift at i, from the changes). */
function series(draft: Draft, changes: LevelChange[], noiseAt: (i: number) => number): number[] {
  const values: number[] = [];
  for (let i = 0; i < draft.length; i++) {
    let shift = 0;
    for (const change of changes) if (i >= change.index) shift += change.sigmas;
    values.push(draft.level + draft.sigma * (shift + noiseAt(i)));
  }
  return values;
}

/** Change positions spaced at least `gap` apart, the first after 25 values, the last 15 before the end. */
function positions(draft: Draft, count: number, gap: number): number[] {
  const span = draft.length - 15 - 25 - gap * (count - 1);
  const result: number[] = [];
  let at = 25 + Math.floor(draft.random() * Math.max(1, span / count));
  for (let k = 0; k < count; k++) {
    result.push(at);
    at += gap + Math.floor(draft.random() * Math.max(1, span / count));
  }
  return result;
}

const steps =
  (sizes: number[]): Shape =>
  (draft) => {
    const changes = positions(draft, sizes.length, 22).map((index, k) => ({ index, sigmas: sizes[k] as number }));
    return { values: series(draft, changes, draft.noise.normal), changes };
  };

const withOutliers =
  (sizes: number[], rate: number): Shape =>
  (draft) => {
    const changes = positions(draft, sizes.length, 22).map((index, k) => ({ index, sigmas: sizes[k] as number }));
    const spike = () => (draft.random() < rate ? (draft.random() < 0.8 ? 1 : -1) * (5 + 10 * draft.random()) : 0);
    return { values: series(draft, changes, () => draft.noise.normal() + spike()), changes };
  };

const noiseOnly =
  (kind: 'normal' | 'uniform' | 'studentT3'): Shape =>
  (draft) => {
    // Uniform on [−√3, √3] has σ 1.
    const noise = kind === 'uniform' ? () => (draft.noise.uniform() - 0.5) * 2 * Math.sqrt(3) : draft.noise[kind];
    return { values: series(draft, [], noise), changes: [] };
  };

const varianceChange =
  (factor: number): Shape =>
  (draft) => {
    const at = positions(draft, 1, 0)[0] as number;
    return { values: series(draft, [], (i) => draft.noise.normal() * (i >= at ? factor : 1)), changes: [] };
  };

const drift =
  (sigmasPerValue: number): Shape =>
  (draft) => ({ values: series(draft, [], (i) => draft.noise.normal() + sigmasPerValue * i), changes: [] });

/** Two bands `gap` σ apart, the upper one drawn with probability `upper`, each with noise σ. */
const bimodal =
  (gap: number, upper: number): Shape =>
  (draft) => ({
    values: series(draft, [], () => draft.noise.normal() + (draft.random() < upper ? gap : 0)),
    changes: [],
  });

interface ClassSpec {
  kind: string;
  sides: Sides;
  variants: [string, Shape][];
}

const CLASSES: ClassSpec[] = [
  {
    kind: 'step-up',
    sides: 'both',
    variants: [0.5, 1, 1.5, 2, 2.5, 3, 4, 5].map((s) => [`${s}σ`, steps([s])] as [string, Shape]),
  },
  {
    kind: 'step-down',
    sides: 'both',
    variants: [0.5, 1, 1.5, 2, 2.5, 3, 4, 5].map((s) => [`${s}σ`, steps([-s])] as [string, Shape]),
  },
  {
    kind: 'two-steps',
    sides: 'both',
    variants: [
      ['regression-and-fix', steps([3, -3])],
      ['up-up', steps([2.5, 3])],
      ['down-up', steps([-4, 2.5])],
      ['up-small-down', steps([5, -1])],
    ],
  },
  {
    kind: 'three-steps',
    sides: 'both',
    variants: [
      ['up-up-up', steps([3, 3, 3])],
      ['up-down-up', steps([4, -2.5, 3])],
      ['down-down-up', steps([-2.5, -3, 5])],
    ],
  },
  {
    kind: 'step-with-outliers',
    sides: 'both',
    variants: [
      ['3σ, 2 % spikes', withOutliers([3], 0.02)],
      ['4σ, 3 % spikes', withOutliers([-4], 0.03)],
      ['2.5σ, 2 % spikes', withOutliers([2.5], 0.02)],
      ['5σ, 3 % spikes', withOutliers([5], 0.03)],
    ],
  },
  {
    kind: 'improvement-upper-only',
    sides: 'upper',
    variants: [
      ['−3σ', steps([-3])],
      ['−5σ', steps([-5])],
      ['−4σ, then −3σ', steps([-4, -3])],
    ],
  },
  {
    kind: 'noise-normal',
    sides: 'both',
    variants: [
      ['a', noiseOnly('normal')],
      ['b', noiseOnly('normal')],
      ['c', noiseOnly('normal')],
    ],
  },
  {
    kind: 'noise-uniform',
    sides: 'both',
    variants: [
      ['a', noiseOnly('uniform')],
      ['b', noiseOnly('uniform')],
    ],
  },
  {
    kind: 'noise-student-t3',
    sides: 'both',
    variants: [
      ['a', noiseOnly('studentT3')],
      ['b', noiseOnly('studentT3')],
      ['c', noiseOnly('studentT3')],
    ],
  },
  {
    kind: 'isolated-outliers',
    sides: 'both',
    variants: [
      ['1 %', withOutliers([], 0.01)],
      ['3 %', withOutliers([], 0.03)],
      ['5 %', withOutliers([], 0.05)],
    ],
  },
  {
    kind: 'variance-change',
    sides: 'both',
    variants: [
      ['×2', varianceChange(2)],
      ['×3', varianceChange(3)],
      ['×0.5', varianceChange(0.5)],
    ],
  },
  {
    kind: 'linear-drift',
    sides: 'both',
    variants: [
      ['0.02σ/report', drift(0.02)],
      ['0.03σ/report', drift(0.03)],
      ['−0.05σ/report', drift(-0.05)],
    ],
  },
  {
    kind: 'bimodal',
    sides: 'both',
    variants: [
      ['4σ bands, 50 %', bimodal(4, 0.5)],
      ['4σ bands, 30 %', bimodal(4, 0.3)],
      ['3σ bands, 20 %', bimodal(3, 0.2)],
    ],
  },
];

function generate(spec: ClassSpec, variant: string, shape: Shape, seed: number, name: string): CorpusSeries {
  const random = mulberry32(seed);
  const level = 1_000 * 1_000 ** random();
  const draft: Draft = {
    length: 80 + Math.floor(random() * 71),
    level,
    sigma: level * (0.01 + 0.02 * random()),
    noise: noiseOf(random),
    random,
  };
  const { values, changes } = shape(draft);
  return { name: `${spec.kind} ${variant}${name}`, kind: spec.kind, sides: spec.sides, values, changes };
}

/** Every class and its variants' names. */
export const CORPUS_CLASSES: readonly { kind: string; variants: string[] }[] = CLASSES.map((spec) => ({
  kind: spec.kind,
  variants: spec.variants.map(([variant]) => variant),
}));

/** One series of a class variant, drawn from `seed`. */
export function corpusSeries(kind: string, variant: string, seed: number): CorpusSeries {
  const spec = CLASSES.find((c) => c.kind === kind);
  const shape = spec?.variants.find(([name]) => name === variant)?.[1];
  if (!spec || !shape) throw new Error(`no corpus class ${kind} ${variant}`);
  return generate(spec, variant, shape, seed, ` seed ${seed}`);
}

/** The corpus: every class variant once per round, lengths 80–150, levels 1 µs–1 ms, noise 1–3 %. */
export function changePointCorpus(seed = 30, rounds = 2): CorpusSeries[] {
  const corpus: CorpusSeries[] = [];
  let counter = 0;
  for (let round = 0; round < rounds; round++) {
    for (const spec of CLASSES) {
      for (const [variant, shape] of spec.variants) {
        corpus.push(generate(spec, variant, shape, seed * 1_000_003 + counter++, ` #${round}`));
      }
    }
  }
  return corpus;
}

/** Whether a change must be found under the series' sides (an improvement under an upper-only threshold need not). */
export function isLabelled(change: LevelChange, sides: Sides): boolean {
  if (Math.abs(change.sigmas) < LABELLED_SIGMAS) return false;
  return sides === 'both' || change.sigmas > 0;
}

/** A class with nothing to alert on: every alert there is false. */
export const isNoChange = (series: CorpusSeries): boolean => !series.changes.some((c) => isLabelled(c, series.sides));
