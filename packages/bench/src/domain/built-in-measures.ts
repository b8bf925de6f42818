import { GUNGRAUN_MEASURES } from '../adapters/gungraun-measures.js';

/** Measures created with canonical name, slug and units when a report names them (Bencher's built-ins). */

export interface MeasureDefinition {
  name: string;
  slug: string;
  units: string;
}

const BUILT_IN: readonly MeasureDefinition[] = [
  { name: 'Latency', slug: 'latency', units: 'nanoseconds (ns)' },
  { name: 'Throughput', slug: 'throughput', units: 'operations / second (ops/s)' },
  { name: 'Build Time', slug: 'build-time', units: 'seconds (s)' },
  { name: 'File Size', slug: 'file-size', units: 'bytes (B)' },
  { name: 'Allocated', slug: 'allocated', units: 'bytes (B)' },
  { name: 'Gen0 Collects', slug: 'gen0-collects', units: 'collects' },
  { name: 'Gen1 Collects', slug: 'gen1-collects', units: 'collects' },
  { name: 'Gen2 Collects', slug: 'gen2-collects', units: 'collects' },
  { name: 'Total Operations', slug: 'total-operations', units: 'operations' },
  { name: 'L1 Accesses', slug: 'l1-accesses', units: 'accesses' },
  { name: 'L2 Accesses', slug: 'l2-accesses', units: 'accesses' },
  { name: 'RAM Accesses', slug: 'ram-accesses', units: 'accesses' },
  // Instructions and Estimated Cycles (Iai's too) are among them.
  ...GUNGRAUN_MEASURES.map(({ name, slug, units }) => ({ name, slug, units })),
];

const BY_KEY = new Map<string, MeasureDefinition>();
for (const definition of BUILT_IN) {
  BY_KEY.set(definition.slug, definition);
  BY_KEY.set(definition.name, definition);
  BY_KEY.set(definition.name.toLowerCase(), definition);
}

export const builtInMeasure = (key: string): MeasureDefinition | undefined => BY_KEY.get(key);

/** Units of a measure nobody defined: Bencher's placeholder. */
export const CUSTOM_UNITS = 'Measure (units)';
