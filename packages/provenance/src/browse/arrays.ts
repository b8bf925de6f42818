import type { Source } from '../source.js';
import type { NodeContent } from '../storage/aiida/nodes.js';
import { parseNpy } from '../wire/npy.js';
import { fileKey } from '../wire/repository-tree.js';
import { readPrefix } from './object-read.js';
import { MAX_SERIES, type Plot } from './plot-svg.js';

/** `.npy` files read for a plot at most (bytes), and arrays per node. */
export const MAX_ARRAY_BYTES = 2 * 1024 * 1024;
const MAX_ARRAYS = 6;

export interface ArrayView {
  name: string;
  shape: number[];
  plot?: Plot;
  /** Why there is no plot. */
  note?: string;
}

/** `(rows, columns)` values in C order as one series per column. */
export function columnsOf(values: (number | boolean | null)[], rows: number, columns: number): number[][] {
  const series: number[][] = [];
  for (let c = 0; c < Math.min(columns, MAX_SERIES); c++) {
    const s: number[] = [];
    for (let r = 0; r < rows; r++) s.push(Number(values[r * columns + c] ?? Number.NaN));
    series.push(s);
  }
  return series;
}

/** BandsData: its high-symmetry labels at their k-point indexes. */
function bandMarks(attributes: Record<string, unknown>): Plot['marks'] {
  const numbers = Array.isArray(attributes.label_numbers) ? (attributes.label_numbers as number[]) : [];
  const labels = Array.isArray(attributes.labels) ? (attributes.labels as string[]) : [];
  return numbers.map((at, i) => ({ at, label: labels[i] ?? '' }));
}

/** Spin-polarised bands `(spins, k-points, bands)`: every band of every spin over the k-points. */
function spinBands(shape: number[], values: (number | boolean | null)[], attributes: Record<string, unknown>) {
  const [spins = 0, kpoints = 0, count = 0] = shape;
  const series: number[][] = [];
  for (let s = 0; s < spins; s++) {
    series.push(...columnsOf(values.slice(s * kpoints * count, (s + 1) * kpoints * count), kpoints, count));
  }
  const plot: Plot = { series: series.slice(0, MAX_SERIES), yLabel: 'bands' };
  const marks = bandMarks(attributes);
  if (marks?.length) plot.marks = marks;
  return { plot };
}

/** The plot of one decoded array, or why it has none. */
export function arrayPlot(
  name: string,
  shape: number[],
  values: (number | boolean | null)[],
  attributes: Record<string, unknown>,
  bands: boolean,
): Pick<ArrayView, 'plot' | 'note'> {
  // Singleton axes (a 1 × 5 × 3 array of one frame) do not change what is plotted.
  const squeezed = shape.filter((n) => n !== 1);
  if (bands && name === 'bands' && squeezed.length === 3) return spinBands(squeezed, values, attributes);
  const [rows = 0, columns = 1, ...rest] = squeezed;
  if (rest.length > 0 || shape.length === 0) return { note: `${squeezed.length}-dimensional: not plotted` };
  if (rows < 2) return { note: 'fewer than two points: not plotted' };
  const series = columnsOf(values, rows, squeezed.length === 1 ? 1 : columns);
  const plot: Plot = { series, yLabel: name };
  if (bands && name === 'bands') {
    const marks = bandMarks(attributes);
    if (marks?.length) plot.marks = marks;
  }
  return { plot };
}

/** The arrays of an ArrayData (and subclass) node with plots of those small enough to read. */
export async function loadArrays(source: Source, node: NodeContent): Promise<ArrayView[] | undefined> {
  if (!node.node_type.startsWith('data.core.array.')) return undefined;
  const bands = node.node_type.startsWith('data.core.array.bands.');
  const names = Object.keys(node.attributes)
    .filter((a) => a.startsWith('array|'))
    .map((a) => a.slice('array|'.length))
    .sort();
  const views: ArrayView[] = [];
  for (const name of names.slice(0, MAX_ARRAYS)) {
    const shape = (node.attributes[`array|${name}`] as number[] | undefined) ?? [];
    let key: string | undefined;
    try {
      key = fileKey(node.repository_metadata, `${name}.npy`);
    } catch {
      key = undefined;
    }
    const size = key === undefined ? undefined : source.objects.size(key);
    if (key === undefined || size === undefined) {
      views.push({ name, shape, note: 'its file is not in the repository' });
    } else if (size > MAX_ARRAY_BYTES) {
      views.push({ name, shape, note: `${size} bytes: too large to plot here (download it as JSON)` });
    } else {
      try {
        const array = parseNpy(await readPrefix(source.objects, key, MAX_ARRAY_BYTES));
        views.push({ name, shape: array.shape, ...arrayPlot(name, array.shape, array.values, node.attributes, bands) });
      } catch (error) {
        views.push({ name, shape, note: `not readable: ${(error as Error).message}` });
      }
    }
  }
  return views;
}
