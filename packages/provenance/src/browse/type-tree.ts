import type { TypeCount } from '../wire/namespace-tree.js';

/** One entry of the browser's type filter: a node_type prefix (and a process type on the leaves). */
export interface TypeTreeNode {
  label: string;
  /** `node_type` prefix this entry selects (`data.core.`, `data.core.int.Int.`). */
  nodeType: string;
  /** Set on process-type leaves: the exact `process_type` (`''` for none). */
  processType?: string;
  count: number;
  children: TypeTreeNode[];
}

function childOf(parent: TypeTreeNode[], label: string, nodeType: string): TypeTreeNode {
  let child = parent.find((c) => c.nodeType === nodeType && c.processType === undefined);
  if (!child) {
    child = { label, nodeType, count: 0, children: [] };
    parent.push(child);
  }
  return child;
}

/** A chain of single children with the same count reads as one entry (`data.core` rather than `data` › `core`). */
function collapse(node: TypeTreeNode): TypeTreeNode {
  let current = node;
  for (;;) {
    const [only] = current.children;
    if (current.children.length !== 1 || !only || only.count !== current.count || only.processType !== undefined) break;
    current = { ...only, label: `${current.label}.${only.label}` };
  }
  return { ...current, children: current.children.map(collapse) };
}

const byLabel = (a: TypeTreeNode, b: TypeTreeNode) => a.label.localeCompare(b.label);

function sortTree(nodes: TypeTreeNode[]): TypeTreeNode[] {
  return nodes.sort(byLabel).map((n) => ({ ...n, children: sortTree(n.children) }));
}

/**
 * The full-type tree with counts: node types split at their dots, process types as leaves under their
 * node type (when any node of it has one).
 */
export function buildTypeTree(types: readonly TypeCount[]): TypeTreeNode[] {
  const roots: TypeTreeNode[] = [];
  for (const { nodeType, processType, count = 0 } of types) {
    const segments = nodeType.split('.').filter(Boolean);
    let level = roots;
    let prefix = '';
    let leaf: TypeTreeNode | undefined;
    for (const segment of segments.length ? segments : ['(none)']) {
      prefix += `${segment}.`;
      leaf = childOf(level, segment, segments.length ? prefix : '');
      leaf.count += count;
      level = leaf.children;
    }
    if (leaf && nodeType.startsWith('process.')) {
      level.push({ label: processType || '(no process type)', nodeType, processType, count, children: [] });
    }
  }
  return sortTree(roots.map(collapse));
}

/** The entries on the path to the selected filter, for the page's heading and the open branches. */
export function selectedPath(tree: readonly TypeTreeNode[], nodeType: string, processType?: string): TypeTreeNode[] {
  for (const node of tree) {
    const match = node.nodeType === nodeType && node.processType === processType;
    if (match) return [node];
    if (nodeType.startsWith(node.nodeType) || node.nodeType === '') {
      const below = selectedPath(node.children, nodeType, processType);
      if (below.length) return [node, ...below];
    }
  }
  return [];
}
