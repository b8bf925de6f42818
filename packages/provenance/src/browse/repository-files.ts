import type { RepositoryTree } from '../wire/repository-tree.js';

/** Bytes of a file shown in its page; larger files are cut there (and offered for download whole). */
export const PREVIEW_BYTES = 256 * 1024;
/** Entries listed per repository (deep trees are cut, with a note). */
export const MAX_LISTED = 200;

export interface FileEntry {
  path: string;
  /** Object key of a file; undefined for a directory. */
  key?: string;
  depth: number;
}

/** The entries under `tree` depth first, directories before their contents, names sorted, at most `limit`. */
export function repositoryEntries(tree: RepositoryTree, limit = MAX_LISTED, prefix = ''): FileEntry[] {
  const entries: FileEntry[] = [];
  const walk = (node: RepositoryTree, path: string, depth: number) => {
    for (const name of Object.keys(node.o ?? {}).sort()) {
      if (entries.length >= limit) return;
      const child = node.o?.[name] ?? {};
      const childPath = path ? `${path}/${name}` : name;
      entries.push(child.k !== undefined ? { path: childPath, key: child.k, depth } : { path: childPath, depth });
      if (child.k === undefined) walk(child, childPath, depth + 1);
    }
  };
  walk(tree, prefix, 0);
  return entries;
}

/** Counts every entry of a tree (files and directories), stopping past `stopAt`. */
export function countEntries(tree: RepositoryTree, stopAt = MAX_LISTED + 1): number {
  let count = 0;
  const walk = (node: RepositoryTree) => {
    for (const child of Object.values(node.o ?? {})) {
      if (count >= stopAt) return;
      count += 1;
      if (child.k === undefined) walk(child);
    }
  };
  walk(tree);
  return count;
}

/** The subtree at `path` (`''` = the root), undefined when missing. */
export function subtree(tree: RepositoryTree, path: string): RepositoryTree | undefined {
  let current: RepositoryTree | undefined = tree;
  for (const part of path.split('/').filter(Boolean)) current = current?.o?.[part];
  return current;
}

/**
 * Whether the first bytes of a file read as text: no NUL byte and (almost) no invalid UTF-8 (a character
 * cut at the end of the preview is allowed).
 */
export function textOf(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  const text = new TextDecoder('utf-8').decode(bytes);
  const invalid = text.match(/\uFFFD/g)?.length ?? 0;
  return invalid <= 1 + text.length / 1000 ? text : undefined;
}
