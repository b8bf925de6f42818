import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GraphSink, SyntheticNode } from './graph-builder.js';
import { type Shape, ShapedGraph } from './shaped-graph.js';
import { AiidaSqliteWriter } from './sqlite-writer.js';
import { SYNTHETIC_COMPUTERS, SYNTHETIC_GROUPS, SYNTHETIC_USERS, SyntheticGraph } from './synthetic-graph.js';
import { ZipWriter } from './zip-writer.js';

export interface MadeArchive {
  path: string;
  nodes: number;
  links: number;
  objects: number;
}

const NOW = '2026-01-01 00:00:00.000000';

function fixedRows(writer: AiidaSqliteWriter): void {
  for (const u of SYNTHETIC_USERS) writer.user({ ...u, institution: 'Atrium' });
  for (const c of SYNTHETIC_COMPUTERS) {
    writer.computer({
      ...c,
      uuid: randomUUID(),
      description: '',
      metadata: { workdir: '/scratch/{username}/aiida_run/' },
    });
  }
  for (const g of SYNTHETIC_GROUPS) {
    writer.group({ ...g, uuid: randomUUID(), time: NOW, description: '', extras: {}, user_id: 1 });
  }
}

/** `repository_metadata` of files given by path (`dir/name` → nested directories). */
function repositoryTree(files: Record<string, string>): Record<string, unknown> {
  const root: { o: Record<string, unknown> } = { o: {} };
  for (const [path, k] of Object.entries(files)) {
    const parts = path.split('/');
    let dir = root;
    for (const part of parts.slice(0, -1)) {
      dir.o[part] ??= { o: {} };
      dir = dir.o[part] as typeof root;
    }
    dir.o[parts[parts.length - 1] as string] = { k };
  }
  return Object.keys(root.o).length ? root : {};
}

/** Feeds the generated graph into the writer; repository contents are collected for the zip. */
function writerSink(writer: AiidaSqliteWriter, objects: Map<string, Buffer>): GraphSink & { links: number } {
  const sink = {
    links: 0,
    node(n: SyntheticNode) {
      writer.node({ ...n, description: '', mtime: n.ctime, repository_metadata: repositoryTree(n.repository) });
    },
    link(input: number, output: number, label: string, type: string) {
      sink.links++;
      writer.link(input, output, label, type);
    },
    log: (nodeId: number, time: string, message: string, levelname = 'REPORT') =>
      writer.log({
        uuid: randomUUID(),
        time,
        loggername: 'aiida.orm.nodes.process.workflow.workchain.WorkChainNode',
        levelname,
        dbnode_id: nodeId,
        message,
        metadata: {},
      }),
    comment: (nodeId: number, time: string, content: string) =>
      writer.comment({ uuid: randomUUID(), dbnode_id: nodeId, ctime: time, mtime: time, user_id: 1, content }),
    member: (groupId: number, nodeId: number) => writer.member(groupId, nodeId),
    object: (key: string, content: Buffer) => objects.set(key, content),
  };
  return sink;
}

/** Zips an AiiDA SQLite file and repository objects (keyed by sha256) as a `main_0001` archive at `path`. */
export async function zipArchive(path: string, dbPath: string, objects: Map<string, Buffer>): Promise<void> {
  const zip = new ZipWriter(createWriteStream(path));
  const metadata = { export_version: 'main_0001', aiida_version: '2.7.1', key_format: 'sha256', compression: 0 };
  await zip.addBuffer('metadata.json', Buffer.from(JSON.stringify(metadata)));
  await zip.addFile('db.sqlite3', dbPath);
  for (const [key, content] of objects) await zip.addBuffer(`repo/${key}`, content);
  await zip.finish();
}

/**
 * `atrium provenance make-archive`: a synthetic graph of about `nodes` nodes as a main_0001 `.aiida` archive,
 * or, with `shapes`, `count` instances of each chosen shape (see {@link SHAPES}).
 */
export async function makeArchive(
  path: string,
  size: { nodes: number } | { shapes: readonly Shape[]; count: number },
  seed?: number,
): Promise<MadeArchive> {
  const scratch = mkdtempSync(join(tmpdir(), 'atrium-make-archive-'));
  try {
    const dbPath = join(scratch, 'db.sqlite3');
    const writer = await AiidaSqliteWriter.create(dbPath);
    const objects = new Map<string, Buffer>();
    const sink = writerSink(writer, objects);
    const written = writer.transaction(() => {
      fixedRows(writer);
      const graph =
        'nodes' in size
          ? new SyntheticGraph(sink, size.nodes, seed)
          : new ShapedGraph(sink, size.shapes, size.count, seed);
      return graph.generate();
    });
    writer.close();
    await zipArchive(path, dbPath, objects);
    return { path, nodes: written, links: sink.links, objects: objects.size };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
