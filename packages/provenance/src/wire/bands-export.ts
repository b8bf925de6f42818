import { exportHeader, pyString } from './array-export.js';
import type { NpyArray } from './npy.js';
import { pyFloat } from './structure.js';

/** What the BandsData exporters read: its `bands` and `kpoints` arrays and a few attributes. */
export interface BandsInput {
  uuid: string;
  label: string;
  units: string;
  /** `nkpoints × nbands`, or `nspins × nkpoints × nbands`. */
  bands: NpyArray;
  /** `nkpoints × 3` in crystal (relative) coordinates. */
  kpoints: NpyArray;
  cell?: number[][];
  /** `(kpoint index, label)` pairs from the `label_numbers` / `labels` attributes. */
  labels: [number, string][];
  aiidaVersion: string;
}

type Vector = number[];
interface PlotData {
  x: number[];
  /** One row per k-point, both spins side by side. */
  y: Vector[];
  rawLabels: [number, string][];
  labels: [number, string][];
}

const number = (value: number | boolean | null | undefined) => (typeof value === 'number' ? value : Number.NaN);

function rows(array: NpyArray, count: number, width: number, offset = 0): Vector[] {
  return Array.from({ length: count }, (_, i) =>
    Array.from({ length: width }, (_, j) => number(array.values[offset + i * width + j])),
  );
}

/** Python's `str(float)` / `repr`, with NumPy's spelling of the non-finite values. */
function pyStr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  return Object.is(x, -0) ? '-0.0' : pyFloat(x);
}

/** `f'{x:.8f}'`. */
function fixed8(x: number): string {
  if (!Number.isFinite(x)) return pyStr(x);
  const text = x.toFixed(8);
  return x < 0 || Object.is(x, -0) ? (text.startsWith('-') ? text : `-${text}`) : text;
}

/** Inverse of a 3×3 matrix by LU decomposition with partial pivoting (LAPACK's `dgesv` against the identity). */
function inverse(matrix: number[][]): number[][] {
  const a = matrix.map((row) => [...row]);
  const perm = [0, 1, 2];
  for (let k = 0; k < 3; k++) {
    let pivot = k;
    for (let i = k + 1; i < 3; i++) if (Math.abs(a[i]?.[k] ?? 0) > Math.abs(a[pivot]?.[k] ?? 0)) pivot = i;
    [a[k], a[pivot]] = [a[pivot] as Vector, a[k] as Vector];
    [perm[k], perm[pivot]] = [perm[pivot] as number, perm[k] as number];
    const rowK = a[k] as Vector;
    if (rowK[k] === 0) throw new Error('Singular matrix');
    for (let i = k + 1; i < 3; i++) {
      const row = a[i] as Vector;
      const factor = (row[k] as number) / (rowK[k] as number);
      row[k] = factor;
      for (let j = k + 1; j < 3; j++) row[j] = (row[j] as number) - factor * (rowK[j] as number);
    }
  }
  const columns = [0, 1, 2].map((c) => {
    const y: number[] = perm.map((p) => (p === c ? 1 : 0));
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < i; j++) y[i] = (y[i] as number) - (a[i]?.[j] as number) * (y[j] as number);
    for (let i = 2; i >= 0; i--) {
      for (let j = i + 1; j < 3; j++) y[i] = (y[i] as number) - (a[i]?.[j] as number) * (y[j] as number);
      y[i] = (y[i] as number) / (a[i]?.[i] as number);
    }
    return y;
  });
  return [0, 1, 2].map((i) => columns.map((column) => column[i] as number));
}

/** `KpointsData.get_kpoints(cartesian=True)`: relative coordinates times the reciprocal cell `2π (cell⁻¹)ᵀ`. */
function cartesian(kpoints: Vector[], cell: number[][]): Vector[] {
  const transpose = (m: number[][]) => [0, 1, 2].map((j) => m.map((row) => row[j] as number));
  const reciprocal = transpose(inverse(cell)).map((row) => row.map((v) => 2.0 * Math.PI * v));
  const toCartesian = transpose(reciprocal);
  return kpoints.map((k) => toCartesian.map((row) => row.reduce((sum, v, i) => sum + v * (k[i] as number), 0)));
}

const norm = (v: Vector) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));

/** AiiDA's k-point label prettifiers (`agr_seekpath`, `gnuplot_seekpath`). */
export const PRETTIFIERS: Record<string, (label: string) => string> = {
  agr: (label) =>
    label
      .replaceAll('GAMMA', '\\xG\\f{}')
      .replaceAll('DELTA', '\\xD\\f{}')
      .replaceAll('LAMBDA', '\\xL\\f{}')
      .replaceAll('SIGMA', '\\xS\\f{}')
      .replace(/_(.?)/g, '\\s$1\\N'),
  gnuplot: (label) =>
    label
      .replaceAll('GAMMA', 'Γ')
      .replaceAll('DELTA', 'Δ')
      .replaceAll('LAMBDA', 'Λ')
      .replaceAll('SIGMA', 'Σ')
      .replace(/_(.?)/g, '_{$1}'),
};

/** Labels closer than 1e-6 on the x axis become one, joined by `|`. */
function joinLabels(labels: [number, string][]): [number, string][] {
  const joined: [number, string][] = [];
  labels.forEach(([x, label], i) => {
    const last = joined[joined.length - 1];
    if (i > 0 && last && Math.abs(x - (labels[i - 1]?.[0] as number)) < 1e-6) last[1] += `|${label}`;
    else joined.push([x, label]);
  });
  return joined;
}

/** `BandsData._get_bandplot_data(cartesian=True)`: path distances on x, bands on y, labels at their x. */
function plotData(input: BandsInput, prettify?: (label: string) => string): PlotData {
  const { bands, kpoints } = input;
  const [nk = 0, nb = 0] = bands.shape.length === 3 ? bands.shape.slice(1) : bands.shape;
  const spins = bands.shape.length === 3 ? (bands.shape[0] as number) : 1;
  const perSpin = Array.from({ length: spins }, (_, s) => rows(bands, nk, nb, s * nk * nb));
  const y = Array.from({ length: nk }, (_, k) => perSpin.flatMap((spin) => spin[k] as Vector));
  const relative = rows(kpoints, kpoints.shape[0] ?? 0, kpoints.shape[1] ?? 3);
  const points = input.cell ? cartesian(relative, input.cell) : relative;
  const indices = new Set(input.labels.map(([i]) => i));
  const x = [0];
  for (let i = 1; i < points.length; i++) {
    const jump = indices.has(i) && indices.has(i - 1);
    const distance = jump ? 0 : norm((points[i] as Vector).map((v, j) => v - ((points[i - 1] as Vector)[j] as number)));
    x.push((x[i - 1] as number) + distance);
  }
  const rawLabels = input.labels.map(([i, label]): [number, string] => [x[i] as number, label]);
  const pretty = prettify ? rawLabels.map(([at, label]): [number, string] => [at, prettify(label)]) : rawLabels;
  return {
    x,
    y,
    rawLabels,
    labels: joinLabels(pretty),
  };
}

/** `prepare_header_comment`: the AiiDA header, the shape and the raw labels, each line commented. */
function headerComment(input: BandsInput, plot: PlotData, commentChar: string): string {
  const lines = [
    ...exportHeader(input.aiidaVersion).split('\n'),
    '',
    `Dumped from BandsData UUID=${input.uuid}`,
    '\tpoints\tbands',
    `\t${plot.y.length}\t${plot.y[0]?.length ?? 0}`,
    '',
    '\tlabel\tpoint',
    ...plot.rawLabels.map(([at, label]) => `\t${label}\t${fixed8(at)}`),
  ];
  return lines.map((line) => `${commentChar} ${line}`).join('\n');
}

const extremes = (plot: PlotData) => {
  const all = plot.y.flat();
  const hasNaN = all.some(Number.isNaN);
  return {
    xMin: Math.min(...plot.x),
    xMax: Math.max(...plot.x),
    yMin: hasNaN ? Number.NaN : Math.min(...all),
    yMax: hasNaN ? Number.NaN : Math.max(...all),
  };
};

/** `dat_multicolumn`: one row per k-point, the distance then every band. */
export function bandsDatMulticolumn(input: BandsInput): string {
  const plot = plotData(input);
  const rowsText = plot.y.map((row, k) => [plot.x[k] as number, ...row].map(fixed8).join('\t'));
  return `${[headerComment(input, plot, '#'), ...rowsText].join('\n')}\n`;
}

/** `dat_blocks`: one block of `distance energy` rows per band, blocks separated by two empty lines. */
export function bandsDatBlocks(input: BandsInput): string {
  const plot = plotData(input);
  const lines = [headerComment(input, plot, '#')];
  for (let band = 0; band < (plot.y[0]?.length ?? 0); band++) {
    lines.push(...plot.y.map((row, k) => `${fixed8(plot.x[k] as number)}\t${fixed8(row[band] as number)}`), '', '');
  }
  return lines.join('\n');
}

/** `agr_batch`: the xmgrace batch script reading `_data.dat`. */
export function bandsAgrBatch(input: BandsInput): string {
  const plot = plotData(input, PRETTIFIERS.agr);
  const { xMin, xMax, yMin, yMax } = extremes(plot);
  const lines = [
    headerComment(input, plot, '#'),
    'READ XY "_data.dat"',
    `world ${pyStr(xMin)}, ${pyStr(yMin)}, ${pyStr(xMax)}, ${pyStr(yMax)}`,
    'yaxis label "Dispersion"',
    'xaxis  tick place both',
    'xaxis  tick spec type both',
    `xaxis  tick spec ${plot.labels.length}`,
    ...plot.labels.flatMap(([at, label], i) => [
      `xaxis  tick major ${i}, ${pyStr(at)}`,
      `xaxis  ticklabel ${i}, "${label}"`,
    ]),
    'xaxis  tick major color 7',
    'xaxis  tick major grid on',
    'yaxis  tick minor ticks 3',
    'frame linewidth 1.0',
    'map font 4 to "Helvetica", "Helvetica"',
    'yaxis  label font 4',
    'xaxis  label font 4',
    ...(plot.y[0] ?? []).flatMap((_, i) => [`s${i} line color 1`, `s${i} linewidth 1`]),
  ];
  return `${lines.join('\n')}\n`;
}

/** The commented-out options AiiDA's gnuplot script starts with. */
const GNUPLOT_OPTIONS = `## Uncomment the next two lines to write directly to PDF
## Note: You need to have gnuplot installed with pdfcairo support!
#set term pdfcairo
#set output 'out.pdf'

### Uncomment one of the options below to change font
### For the LaTeX fonts, you can download them from here:
### https://sourceforge.net/projects/cm-unicode/
### And then install them in your system
## LaTeX Serif font, if installed
#set termopt font "CMU Serif, 12"
## LaTeX Sans Serif font, if installed
#set termopt font "CMU Sans Serif, 12"
## Classical Times New Roman
#set termopt font "Times New Roman, 12"
`;

/** `gnuplot`: the script plotting `band_data.dat` (the data file itself is not part of the download). */
export function bandsGnuplot(input: BandsInput): string {
  const plot = plotData(input, PRETTIFIERS.gnuplot);
  const { xMin, xMax, yMin, yMax } = extremes(plot);
  const xtics = plot.labels.map(([at, label]) => `"${label}" ${pyStr(at)}`).join(', ');
  const lines = [
    headerComment(input, plot, '# '),
    '',
    GNUPLOT_OPTIONS,
    'set termopt enhanced',
    'set encoding utf8',
    `set xtics (${xtics})`,
    'unset key',
    `set yrange [${pyStr(yMin)}:${pyStr(yMax)}]`,
    `set ylabel "Dispersion (${input.units})"`,
    ...(plot.x.length > 1
      ? [
          `set xrange [${pyStr(xMin)}:${pyStr(xMax)}]`,
          'set grid xtics lt 1 lc rgb "#888888"',
          'plot "band_data.dat" with l lc rgb "#000000"',
        ]
      : [
          'set xrange [-1.0:1.0]',
          'plot "band_data.dat" using ($1-0.25):($2):(0.5):(0) with vectors nohead lc rgb "#000000"',
        ]),
  ];
  return `${lines.join('\n')}\n`;
}

const jsonFloat = (x: number) =>
  Number.isNaN(x) ? 'NaN' : Number.isFinite(x) ? pyStr(x) : x > 0 ? 'Infinity' : '-Infinity';
const jsonList = (items: string[]) => `[${items.join(', ')}]`;

/**
 * `json` (`_get_band_segments` + uuid + header): the path split at the labels into segments, each with its
 * x values and, per band, the energies along it; `json.dumps` with Python's separators and floats.
 */
export function bandsJson(input: BandsInput): string {
  const plot = plotData(input);
  const labels: [number, string][] = [...input.labels];
  const path: [string, string][] = [];
  const segments: { from: string; to: string; start: number; end: number }[] = [];
  const last = plot.y.length - 1;
  if (labels.length > 1) {
    if (labels[0]?.[0] !== 0) labels.unshift([0, '']);
    if (labels[labels.length - 1]?.[0] !== last) labels.push([last, '']);
    for (let i = 1; i < labels.length; i++) {
      const [start, from] = labels[i - 1] as [number, string];
      const [end, to] = labels[i] as [number, string];
      if (end - start > 1) path.push([from, to]);
      segments.push({ from, to, start, end });
    }
  } else {
    path.push(['0', '1']);
    segments.push({ from: '0', to: '1', start: 0, end: last });
  }
  const twoTypes = input.bands.shape.length === 3 ? 'true' : 'false';
  const paths = segments.map(({ from, to, start, end }) => {
    const window = plot.y.slice(start, end + 1);
    const values = (plot.y[0] ?? []).map((_, band) => jsonList(window.map((row) => jsonFloat(row[band] as number))));
    const x = plot.x.slice(start, end + 1).map(jsonFloat);
    return `{"length": ${end - start}, "from": ${pyString(from)}, "to": ${pyString(to)}, "values": ${jsonList(values)}, "x": ${jsonList(x)}, "two_band_types": ${twoTypes}}`;
  });
  const pathJson = jsonList(path.map(([from, to]) => jsonList([pyString(from), pyString(to)])));
  return `{"label": ${pyString(input.label)}, "path": ${pathJson}, "paths": ${jsonList(paths)}, "original_uuid": ${pyString(input.uuid)}, "comments": ${pyString(exportHeader(input.aiidaVersion))}}`;
}
