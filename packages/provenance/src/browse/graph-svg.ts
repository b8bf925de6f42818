import { type Html, html } from '@atrium/core';
import type { LinkedNode, NodeSummary } from '../storage/aiida/browse.js';
import { classNameOf } from '../wire/node-types.js';

/** The neighbourhood of a node: its links (level 1) and the links of those nodes further out (level 2). */
export interface Neighbourhood {
  centre: NodeSummary;
  incoming: LinkedNode[];
  outgoing: LinkedNode[];
  incoming2: LinkedNode[];
  outgoing2: LinkedNode[];
  /** All links of the centre, for the "+N more" marks. */
  totals: { incoming: number; outgoing: number };
}

export interface PlacedNode {
  node: NodeSummary;
  column: number;
  row: number;
}

export interface Edge {
  from: number;
  to: number;
  label: string;
  type: string;
}

export const NODE_WIDTH = 176;
export const NODE_HEIGHT = 36;
const COLUMN_STEP = 236;
const ROW_STEP = 46;
const MARGIN = 12;

/**
 * Inputs to the left, outputs to the right: columns -2 … 2, each node placed once (where first met,
 * centre first), every link between placed nodes drawn as an edge from input to output.
 */
export function layoutNeighbourhood(n: Neighbourhood): { nodes: PlacedNode[]; edges: Edge[] } {
  const placed = new Map<number, PlacedNode>();
  const rows = new Map<number, number>();
  const place = (node: NodeSummary, column: number) => {
    if (placed.has(node.id)) return;
    const row = rows.get(column) ?? 0;
    rows.set(column, row + 1);
    placed.set(node.id, { node, column, row });
  };
  place(n.centre, 0);
  for (const link of n.incoming) place(link, -1);
  for (const link of n.outgoing) place(link, 1);
  for (const link of n.incoming2) place(link, -2);
  for (const link of n.outgoing2) place(link, 2);
  const edges: Edge[] = [];
  const seen = new Set<string>();
  const add = (from: number, to: number, link: LinkedNode) => {
    const key = `${from}>${to}:${link.link_label}`;
    if (seen.has(key) || !placed.has(from) || !placed.has(to)) return;
    seen.add(key);
    edges.push({ from, to, label: link.link_label, type: link.link_type });
  };
  for (const link of [...n.incoming, ...n.incoming2]) add(link.id, link.from, link);
  for (const link of [...n.outgoing, ...n.outgoing2]) add(link.from, link.id, link);
  return { nodes: [...placed.values()], edges };
}

const KIND_CLASS = (nodeType: string) =>
  nodeType.startsWith('process.workflow') ? 'workflow' : nodeType.startsWith('process.') ? 'calculation' : 'data';

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** What a box says: the label (or the class) and, below, the class or the process's entry point. */
export function nodeCaption(node: NodeSummary): [string, string] {
  const cls = classNameOf(node.node_type) || node.node_type || 'Node';
  const entry = node.process_type ? (node.process_type.split(/[:.]/).pop() ?? '') : '';
  return [node.label || entry || cls, node.label || entry ? cls : ''];
}

/** The neighbourhood as an SVG whose boxes link to their node pages (`href(uuid)`). */
export function graphSvg(n: Neighbourhood, href: (uuid: string) => string): Html {
  const { nodes, edges } = layoutNeighbourhood(n);
  const columns = nodes.map((p) => p.column);
  const minColumn = Math.min(...columns);
  const maxRows = Math.max(1, ...[...new Set(columns)].map((c) => nodes.filter((p) => p.column === c).length));
  const width = (Math.max(...columns) - minColumn) * COLUMN_STEP + NODE_WIDTH + 2 * MARGIN;
  const height = maxRows * ROW_STEP + 2 * MARGIN + 18;
  const position = new Map(
    nodes.map((p) => [
      p.node.id,
      { x: MARGIN + (p.column - minColumn) * COLUMN_STEP, y: MARGIN + 18 + p.row * ROW_STEP, column: p.column },
    ]),
  );
  const lines = edges.map((e) => {
    const a = position.get(e.from);
    const b = position.get(e.to);
    if (!a || !b) return '';
    const x1 = a.x + NODE_WIDTH;
    const y1 = a.y + NODE_HEIGHT / 2;
    const x2 = b.column === a.column ? b.x + NODE_WIDTH : b.x;
    const y2 = b.y + NODE_HEIGHT / 2;
    const bend = b.column === a.column ? 40 : (x2 - x1) / 2;
    const d = `M${x1},${y1} C${x1 + bend},${y1} ${x2 - (b.column === a.column ? -bend : bend)},${y2} ${x2},${y2}`;
    return html`<path class="edge ${e.type}" d="${d}" marker-end="url(#arrow)"><title>${e.label} (${e.type})</title></path>`;
  });
  const boxes = nodes.map((p) => {
    const at = position.get(p.node.id);
    if (!at) return '';
    const [first, cls] = nodeCaption(p.node);
    const link = (p.node as Partial<LinkedNode>).link_label;
    const second = [cls, link].filter(Boolean).join(' · ');
    const centre = p.column === 0 && p.row === 0;
    return html`<a href="${href(p.node.uuid)}" class="gnode ${KIND_CLASS(p.node.node_type)}${centre ? ' centre' : ''}"><title>${p.node.node_type}${p.node.process_type ? ` ${p.node.process_type}` : ''} ${p.node.uuid}</title><rect x="${at.x}" y="${at.y}" width="${NODE_WIDTH}" height="${NODE_HEIGHT}" rx="${p.node.node_type.startsWith('process.') ? 2 : 14}"/><text x="${at.x + 10}" y="${at.y + 15}">${clip(first, 26)}</text><text class="sub" x="${at.x + 10}" y="${at.y + 29}">${clip(second, 30)}</text></a>`;
  });
  const more = (count: number, column: number, text: string) => {
    const x = MARGIN + (column - minColumn) * COLUMN_STEP;
    return count > 0 && columns.includes(column)
      ? html`<text class="more" x="${x}" y="${MARGIN + 8}">${text}</text>`
      : '';
  };
  return html`<svg class="graph" role="img" aria-label="Provenance graph around the node" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg"><defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#596272"/></marker></defs>${more(n.totals.incoming - n.incoming.length, -1, `inputs: ${n.incoming.length} of ${n.totals.incoming}`)}${more(n.totals.outgoing - n.outgoing.length, 1, `outputs: ${n.outgoing.length} of ${n.totals.outgoing}`)}${lines}${boxes}</svg>`;
}
