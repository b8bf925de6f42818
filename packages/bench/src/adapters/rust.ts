import { type Adapter, type AdapterResults, addMetric, LATENCY, nonEmpty, spread } from './results.js';
import { isSingleLine, lines, NUMBER, nanosecondsPer, parseNumber, TIME_UNIT } from './units.js';

const LIBTEST = new RegExp(
  `^test (\\S+)\\s+\\.\\.\\. bench:\\s+(${NUMBER}) (${TIME_UNIT})/iter \\(\\+/- (${NUMBER})\\)\\s*$`,
);

/** libtest `cargo bench`: `test name ... bench: 3,161 ns/iter (+/- 975)`. */
export const parseRustBench: Adapter = (input, { average }) => {
  if (average === 'mean') return undefined;
  const results: AdapterResults = new Map();
  for (const line of lines(input)) {
    const match = LIBTEST.exec(line);
    if (!match) continue;
    const [, name, value, unit, variance] = match as unknown as [string, string, string, string, string];
    const scale = nanosecondsPer(unit) as number;
    const center = parseNumber(value);
    const deviation = parseNumber(variance);
    if (center === undefined || deviation === undefined) continue;
    addMetric(results, name, LATENCY, spread(center * scale, deviation * scale));
  }
  return nonEmpty(results);
};

const CRITERION_TAIL = new RegExp(
  `time:\\s+\\[(${NUMBER}) (${TIME_UNIT}) (${NUMBER}) (${TIME_UNIT}) (${NUMBER}) (${TIME_UNIT})\\]\\s*$`,
  'y',
);

/** Criterion: `name  time: [lo unit mid unit hi unit]`, the name on the previous line when it wraps. */
export const parseRustCriterion: Adapter = (input, { average }) => {
  if (average === 'median') return undefined;
  const results: AdapterResults = new Map();
  const all = lines(input);
  all.forEach((line, index) => {
    // The tail holds no other `time:`, so only the last one can start it.
    const at = line.lastIndexOf('time:');
    if (at < 0) return;
    CRITERION_TAIL.lastIndex = at;
    const match = CRITERION_TAIL.exec(line);
    if (!match) return;
    const head = line.slice(0, match.index).trimEnd();
    if (!isSingleLine(head)) return;
    const [, lo, loUnit, mid, midUnit, hi, hiUnit] = match as unknown as string[];
    const name = head.length > 0 ? head : (all[index - 1] ?? '').trim();
    const value = (parseNumber(mid as string) as number) * (nanosecondsPer(midUnit as string) as number);
    const lower = (parseNumber(lo as string) as number) * (nanosecondsPer(loUnit as string) as number);
    const upper = (parseNumber(hi as string) as number) * (nanosecondsPer(hiUnit as string) as number);
    if (name.length === 0 || ![value, lower, upper].every(Number.isFinite)) return;
    addMetric(results, name, LATENCY, { value, lower_value: lower, upper_value: upper });
  });
  return nonEmpty(results);
};

const IAI_MEASURES = [
  ['Instructions', 'instructions'],
  ['L1 Accesses', 'l1-accesses'],
  ['L2 Accesses', 'l2-accesses'],
  ['RAM Accesses', 'ram-accesses'],
  ['Estimated Cycles', 'estimated-cycles'],
] as const;

const IAI_LINES = IAI_MEASURES.map(
  ([label]) => new RegExp(`^\\s*${label}:\\s+(\\d+)( \\(No change\\)| \\([+-](?:\\d+(?:\\.\\d*)?|inf)%\\))?\\s*$`),
);

/** Iai: a benchmark name followed by exactly five counter lines. */
export const parseRustIai: Adapter = (input, { average }) => {
  if (average !== undefined) return undefined;
  const results: AdapterResults = new Map();
  const all = lines(input);
  for (let i = 0; i + IAI_MEASURES.length < all.length; i++) {
    const name = (all[i] as string).trim();
    if (name.length === 0 || name.includes(' ')) continue;
    const values = IAI_LINES.map((pattern, offset) => pattern.exec(all[i + 1 + offset] as string)?.[1]);
    if (values.some((value) => value === undefined)) continue;
    IAI_MEASURES.forEach(([, slug], offset) => {
      addMetric(results, name, slug, { value: Number(values[offset]) });
    });
    i += IAI_MEASURES.length;
  }
  return nonEmpty(results);
};
