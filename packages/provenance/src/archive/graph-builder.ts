import { createHash } from 'node:crypto';
import { mulberry32 } from '@atrium/core';

/** What the generated graphs (synthetic and shaped) build on: seeded ids, nodes and repository files. */

export interface SyntheticNode {
  id: number;
  uuid: string;
  node_type: string;
  process_type: string | null;
  label: string;
  ctime: string;
  attributes: Record<string, unknown>;
  extras: Record<string, unknown>;
  repository: Record<string, string>;
  dbcomputer_id: number | null;
  user_id: number;
}

export interface GraphSink {
  node(node: SyntheticNode): void;
  link(inputId: number, outputId: number, label: string, type: string): void;
  log(nodeId: number, time: string, message: string, levelname?: string): void;
  comment(nodeId: number, time: string, content: string): void;
  member(groupId: number, nodeId: number): void;
  /** A repository object (content addressed by its sha256); called once per distinct content. */
  object(key: string, content: Buffer): void;
}

export type Attributes = Record<string, unknown>;

export interface NodeOptions {
  processType?: string;
  label?: string;
  /** Repository file name -> object key (from `file`). */
  files?: Record<string, string>;
  computer?: number;
  user?: number;
}

/** How two generators that must keep their archives stable differ in the ids they derive. */
export interface IdStyle {
  /** The hex digit after the fourth dash of each uuid. */
  uuidVariant: string;
  /** What the node's `_aiida_hash` extra hashes. */
  hashInput(nodeType: string, id: number): string;
}

export function formatTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000`;
}

/** A StructureData's attributes: a cubic cell of side `a` (height `height`), one site per symbol along x. */
export function structureAttributes(
  symbols: readonly string[],
  a: number,
  shape: { height?: number; periodicZ?: boolean; siteY?: number } = {},
): Attributes {
  return {
    cell: [
      [a, 0, 0],
      [0, a, 0],
      [0, 0, shape.height ?? a],
    ],
    pbc1: true,
    pbc2: true,
    pbc3: shape.periodicZ ?? true,
    kinds: [...new Set(symbols)].map((s) => ({ name: s, symbols: [s], weights: [1], mass: 1 })),
    sites: symbols.map((s, i) => ({ kind_name: s, position: [(i * a) / symbols.length, shape.siteY ?? 0, 0] })),
  };
}

/** The attributes every sealed process node carries, then `extra`. */
export function processAttributes(
  label: string,
  state: string,
  exitStatus: number,
  extra: Attributes = {},
): Attributes {
  return {
    process_label: label,
    process_state: state,
    exit_status: exitStatus,
    sealed: true,
    version: { core: '2.7.1' },
    ...extra,
  };
}

export abstract class GraphBuilder {
  protected readonly random: () => number;
  protected nextId = 1;
  private readonly written = new Set<string>();

  constructor(
    protected readonly sink: GraphSink,
    seed: number,
    private readonly style: IdStyle,
  ) {
    this.random = mulberry32(seed);
  }

  /** The ctime of the node about to be added. */
  protected abstract time(): string;

  private uuid(): string {
    const hex = Array.from({ length: 32 }, () => Math.floor(this.random() * 16).toString(16)).join('');
    const variant = this.style.uuidVariant;
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

  /** Writes `content` to the repository once; returns its key. */
  protected file(content: Buffer | string): string {
    const buffer = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const key = createHash('sha256').update(buffer).digest('hex');
    if (!this.written.has(key)) {
      this.written.add(key);
      this.sink.object(key, buffer);
    }
    return key;
  }

  protected add(nodeType: string, attributes: Attributes, options: NodeOptions = {}): number {
    const id = this.nextId++;
    this.sink.node({
      id,
      uuid: this.uuid(),
      node_type: nodeType,
      process_type: options.processType ?? null,
      label: options.label ?? '',
      ctime: this.time(),
      attributes,
      extras: { _aiida_hash: createHash('sha256').update(this.style.hashInput(nodeType, id)).digest('hex') },
      repository: options.files ?? {},
      dbcomputer_id: options.computer ?? null,
      user_id: options.user ?? 1,
    });
    return id;
  }
}
