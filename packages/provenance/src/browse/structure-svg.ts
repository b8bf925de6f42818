import { type Html, html } from '@atrium/core';
import type { Structure } from '../wire/structure.js';

type Vector = [number, number, number];

/** Sites drawn at most (a structure page stays light whatever its size). */
export const MAX_DRAWN_SITES = 2000;

/** Colours (CPK-like) and radii (Å, roughly covalent) of common elements; others are grey, 0.8 Å. */
const ELEMENT_STYLE: Record<string, [colour: string, radius: number]> = {
  H: ['#f2f2f2', 0.38],
  C: ['#505050', 0.77],
  N: ['#3050f8', 0.75],
  O: ['#ff0d0d', 0.73],
  F: ['#90e050', 0.71],
  Na: ['#ab5cf2', 1.54],
  Mg: ['#8aff00', 1.3],
  Al: ['#bfa6a6', 1.18],
  Si: ['#f0c8a0', 1.11],
  P: ['#ff8000', 1.06],
  S: ['#ffff30', 1.02],
  Cl: ['#1ff01f', 0.99],
  K: ['#8f40d4', 1.96],
  Ca: ['#3dff00', 1.74],
  Ti: ['#bfc2c7', 1.36],
  Fe: ['#e06633', 1.25],
  Co: ['#f090a0', 1.26],
  Ni: ['#50d050', 1.21],
  Cu: ['#c88033', 1.38],
  Zn: ['#7d80b0', 1.31],
  Ga: ['#c28f8f', 1.26],
  As: ['#bd80e3', 1.19],
  Sr: ['#00ff00', 1.92],
  Ba: ['#00c900', 1.98],
  Au: ['#ffd123', 1.44],
};

/** A fixed oblique view: turn 30° about z, then tilt 20° about x (depth grows away from the viewer). */
export function project([x, y, z]: Vector): Vector {
  const a = Math.PI / 6;
  const t = Math.PI / 9;
  const x1 = x * Math.cos(a) - y * Math.sin(a);
  const y1 = x * Math.sin(a) + y * Math.cos(a);
  return [x1, -(z * Math.cos(t) - y1 * Math.sin(t)), y1 * Math.cos(t) + z * Math.sin(t)];
}

const add = (...vs: Vector[]): Vector => [0, 1, 2].map((i) => vs.reduce((s, v) => s + v[i as 0], 0)) as Vector;

function symbolOf(structure: Structure, kindName: string): string {
  const kind = structure.kinds.find((k) => k.name === kindName);
  return kind?.symbols.length === 1 ? (kind.symbols[0] ?? kindName) : kindName;
}

/** The cell (its 12 edges) and the atoms, projected and drawn back to front, scaled into `size`×`size`. */
export function structureSvg(structure: Structure, size = 360): Html {
  const [a, b, c] = structure.cell;
  const origin: Vector = [0, 0, 0];
  const corners = [origin, a, b, c, add(a, b), add(a, c), add(b, c), add(a, b, c)];
  const edgePairs = [
    [0, 1],
    [0, 2],
    [0, 3],
    [1, 4],
    [1, 5],
    [2, 4],
    [2, 6],
    [3, 5],
    [3, 6],
    [4, 7],
    [5, 7],
    [6, 7],
  ] as const;
  const sites = structure.sites.slice(0, MAX_DRAWN_SITES).map((site) => {
    const symbol = symbolOf(structure, site.kind_name);
    const [colour, radius] = ELEMENT_STYLE[symbol] ?? ['#a0a0a0', 0.8];
    return { symbol, colour, radius, at: project(site.position) };
  });
  const points = [...corners.map(project), ...sites.map((s) => s.at)];
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const pad = 1.2;
  const minX = Math.min(...xs) - pad;
  const minY = Math.min(...ys) - pad;
  const span = Math.max(Math.max(...xs) + pad - minX, Math.max(...ys) + pad - minY, 1e-9);
  const scale = size / span;
  const sx = (p: Vector) => ((p[0] - minX) * scale).toFixed(1);
  const sy = (p: Vector) => ((p[1] - minY) * scale).toFixed(1);
  const projected = corners.map(project);
  const cell = edgePairs.map(([i, j]) => {
    const p = projected[i] as Vector;
    const q = projected[j] as Vector;
    return html`<line x1="${sx(p)}" y1="${sy(p)}" x2="${sx(q)}" y2="${sy(q)}"/>`;
  });
  const label = sites.length <= 60;
  const atoms = [...sites]
    .sort((s, t) => t.at[2] - s.at[2])
    .map(
      (s) =>
        html`<g><title>${s.symbol}</title><circle cx="${sx(s.at)}" cy="${sy(s.at)}" r="${(s.radius * 0.45 * scale).toFixed(1)}" fill="${s.colour}"/>${label ? html`<text x="${sx(s.at)}" y="${sy(s.at)}">${s.symbol}</text>` : ''}</g>`,
    );
  return html`<svg class="structure" role="img" aria-label="Unit cell and atoms" viewBox="0 0 ${size} ${size}" width="${size}" height="${size}" xmlns="http://www.w3.org/2000/svg"><g class="cell">${cell}</g><g class="atoms">${atoms}</g></svg>`;
}
