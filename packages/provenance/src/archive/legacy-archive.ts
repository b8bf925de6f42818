import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { migrateLegacyExport } from './legacy-chain.js';
import { migrateTime, toVersion04 } from './legacy-migrations.js';
import { AiidaSqliteWriter } from './sqlite-writer.js';
import { readTarFiles } from './tar.js';
import { openZipEntry, readZipDirectory } from './zip.js';

type Json = Record<string, unknown>;
type Entities = Record<string, Json>;

/** The files of a legacy archive (zip or tar/tar.gz), read on demand. */
export type LegacyFiles = Map<string, () => Promise<Buffer>>;

export async function readLegacyFiles(path: string): Promise<LegacyFiles> {
  const files: LegacyFiles = new Map();
  try {
    for (const [name, entry] of await readZipDirectory(path)) {
      if (name.endsWith('/')) continue;
      files.set(name.replace(/^\.\//, ''), async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of await openZipEntry(path, entry)) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      });
    }
  } catch (error) {
    if (!(error instanceof Error) || !error.message.includes('is not a zip file')) throw error;
    for (const [name, content] of await readTarFiles(path)) files.set(name, async () => content);
  }
  return files;
}

function entities(exportData: Json, name: string): Entities {
  return (exportData[name] as Entities | undefined) ?? {};
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
const object = (value: unknown): Json =>
  typeof value === 'string' ? (JSON.parse(value) as Json) : ((value as Json | null) ?? {});

interface RepositoryDirectory {
  o: Record<string, RepositoryDirectory | { k: string }>;
}

/** Builds node repositories from `nodes/<2>/<2>/<rest of uuid>/{path,raw_input}/…` and stores their objects. */
async function collectRepositories(files: LegacyFiles, container: string) {
  const trees = new Map<string, RepositoryDirectory>();
  for (const [name, read] of files) {
    const match = /^nodes\/([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f-]{32})\/(?:path|raw_input)\/(.+)$/.exec(name);
    if (!match) continue;
    const uuid = `${match[1]}${match[2]}${match[3]}`;
    const content = await read();
    const key = createHash('sha256').update(content).digest('hex');
    const dir = join(container, 'loose', key.slice(0, 2));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, key.slice(2)), content);
    const tree = trees.get(uuid) ?? { o: {} };
    trees.set(uuid, tree);
    const parts = (match[4] ?? '').split('/').filter(Boolean);
    const fileName = parts.pop();
    if (!fileName) continue;
    let current = tree;
    for (const part of parts) {
      const next = current.o[part];
      if (!next || 'k' in next) current.o[part] = { o: {} };
      current = current.o[part] as RepositoryDirectory;
    }
    current.o[fileName] = { k: key };
  }
  return trees;
}

/**
 * Converts a legacy archive (formats 0.1 … 0.13: `data.json` + `metadata.json` + `nodes/`) into an
 * AiiDA-schema SQLite file `<target>/db.sqlite3` plus a loose object container `<target>/container`:
 * AiiDA's legacy chain up to 0.13 (legacy-chain.ts), then `legacy_to_main` and `main_0000a` (null
 * descriptions, labels and texts become `""`; `process_type` is kept as the archive has it). Dangling
 * links and group members that are not in the archive are dropped.
 */
export async function convertLegacyArchive(files: LegacyFiles, target: string): Promise<void> {
  const readJson = async (name: string) => {
    const read = files.get(name);
    if (!read) throw new Error(`legacy archive has no ${name}`);
    return JSON.parse((await read()).toString('utf8')) as Json;
  };
  const data = await readJson('data.json');
  const metadata = await readJson('metadata.json');
  if (!/^0\.([4-9]|1[0-3])$/.test(String(metadata.export_version))) toVersion04({ metadata, data });
  migrateLegacyExport({ metadata, data });
  const exportData = (data.export_data as Json | undefined) ?? {};
  const attributes = (data.node_attributes as Entities | undefined) ?? {};
  const extras = (data.node_extras as Entities | undefined) ?? {};
  mkdirSync(target, { recursive: true });
  const container = join(target, 'container');
  const repositories = await collectRepositories(files, container);
  const dbPath = join(target, 'db.sqlite3.partial');
  rmSync(dbPath, { force: true });
  const writer = await AiidaSqliteWriter.create(dbPath);
  try {
    writer.transaction(() => {
      const users = entities(exportData, 'User');
      for (const [pk, u] of Object.entries(users)) {
        writer.user({
          id: Number(pk),
          email: text(u.email),
          first_name: text(u.first_name),
          last_name: text(u.last_name),
          institution: text(u.institution),
        });
      }
      for (const [pk, c] of Object.entries(entities(exportData, 'Computer'))) {
        writer.computer({
          id: Number(pk),
          uuid: text(c.uuid),
          label: text(c.label),
          hostname: text(c.hostname),
          description: text(c.description),
          scheduler_type: text(c.scheduler_type),
          transport_type: text(c.transport_type),
          metadata: object(c.metadata),
        });
      }
      const byUuid = new Map<string, { id: number }>();
      for (const [pk, n] of Object.entries(entities(exportData, 'Node'))) {
        const uuid = text(n.uuid);
        byUuid.set(uuid, { id: Number(pk) });
        writer.node({
          id: Number(pk),
          uuid,
          node_type: text(n.node_type),
          process_type: (n.process_type as string | null | undefined) ?? null,
          label: text(n.label),
          description: text(n.description),
          ctime: migrateTime(n.ctime),
          mtime: migrateTime(n.mtime ?? n.ctime),
          attributes: attributes[pk] ?? {},
          extras: extras[pk] ?? {},
          repository_metadata: (repositories.get(uuid) as Json | undefined) ?? {},
          dbcomputer_id: n.dbcomputer == null ? null : Number(n.dbcomputer),
          user_id: Number(n.user ?? Object.keys(users)[0] ?? 1),
        });
      }
      for (const link of (data.links_uuid as Json[] | undefined) ?? []) {
        const input = byUuid.get(text(link.input));
        const output = byUuid.get(text(link.output));
        if (!input || !output) continue;
        writer.link(input.id, output.id, text(link.label), text(link.type));
      }
      const groupIds = new Map<string, number>();
      for (const [pk, g] of Object.entries(entities(exportData, 'Group'))) {
        groupIds.set(text(g.uuid), Number(pk));
        writer.group({
          id: Number(pk),
          uuid: text(g.uuid),
          label: text(g.label),
          type_string: g.type_string == null ? 'core' : text(g.type_string),
          time: migrateTime(g.time),
          description: text(g.description),
          extras: object(g.extras),
          user_id: Number(g.user ?? 1),
        });
      }
      for (const [groupUuid, members] of Object.entries((data.groups_uuid as Record<string, string[]>) ?? {})) {
        const groupId = groupIds.get(groupUuid);
        if (groupId === undefined) continue;
        for (const uuid of members) {
          const node = byUuid.get(uuid);
          if (node) writer.member(groupId, node.id);
        }
      }
      const nodeIds = new Set([...byUuid.values()].map((n) => n.id));
      for (const c of Object.values(entities(exportData, 'Comment'))) {
        if (!nodeIds.has(Number(c.dbnode))) continue;
        writer.comment({
          uuid: text(c.uuid),
          dbnode_id: Number(c.dbnode),
          ctime: migrateTime(c.ctime),
          mtime: migrateTime(c.mtime ?? c.ctime),
          user_id: Number(c.user ?? 1),
          content: text(c.content),
        });
      }
      for (const l of Object.values(entities(exportData, 'Log'))) {
        if (!nodeIds.has(Number(l.dbnode ?? l.objpk))) continue;
        writer.log({
          uuid: text(l.uuid),
          time: migrateTime(l.time),
          loggername: text(l.loggername),
          levelname: text(l.levelname),
          dbnode_id: Number(l.dbnode ?? l.objpk),
          message: text(l.message),
          metadata: object(l.metadata),
        });
      }
    });
  } finally {
    writer.close();
  }
  renameSync(dbPath, join(target, 'db.sqlite3'));
}
