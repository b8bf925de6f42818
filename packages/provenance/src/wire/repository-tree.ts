import { inputError, internalError } from './errors.js';

/** `repository_metadata`: `{"o": {name: {"k": key} | {"o": {...}}}}` (file = has `k`, directory = has `o`). */
export interface RepositoryTree {
  o?: Record<string, RepositoryTree>;
  k?: string;
}

export interface RepositoryEntry {
  name: string;
  type: 'DIRECTORY' | 'FILE';
}

function walk(tree: RepositoryTree, path: string): RepositoryTree | undefined {
  let current: RepositoryTree | undefined = tree;
  for (const part of path.split('/').filter(Boolean)) current = current?.o?.[part];
  return current;
}

/** Children of a directory sorted by name, with the reference's errors for files and missing paths. */
export function listDirectory(tree: RepositoryTree, path = ''): RepositoryEntry[] {
  const node = walk(tree, path);
  if (!node) throw internalError(`object with path \`${path}\` does not exist.`);
  if (node.k !== undefined) throw inputError(`${path} is not a directory in this repository`);
  return Object.keys(node.o ?? {})
    .sort()
    .map((name) => ({ name, type: node.o?.[name]?.k !== undefined ? 'FILE' : 'DIRECTORY' }));
}

/** The object key of a file, `undefined` when missing; a directory is the reference's 500. */
export function fileKey(tree: RepositoryTree, path: string): string | undefined {
  const node = walk(tree, path);
  if (!node) return undefined;
  if (node.k === undefined) throw internalError(`object with path \`${path}\` is not a file.`);
  return node.k;
}
