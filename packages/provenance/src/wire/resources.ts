import type { AiidaTable } from '../storage/aiida/schema.js';
import { internalError } from './errors.js';
import { ENTITY_COLUMNS, type Entity, JSON_COLUMNS } from './querybuilder.js';

/** The columns the query string may filter and order by: all but the JSON ones. */
const plainColumns = (entity: Entity): ReadonlySet<string> =>
  new Set(ENTITY_COLUMNS[entity].filter((c) => !JSON_COLUMNS.has(c)));

export type ResourceName = 'nodes' | 'computers' | 'groups' | 'users';

/** What the translators know about one entity: its table, its columns and how the reference names them. */
export interface ResourceDefinition {
  name: ResourceName;
  table: AiidaTable;
  /** Columns returned by list/single requests, in table order. */
  projection: readonly string[];
  /** Columns usable in filters and `orderby` (after alias resolution). */
  columns: ReadonlySet<string>;
  aliases: Readonly<Record<string, string>>;
  jsonColumns: ReadonlySet<string>;
  timeColumns: ReadonlySet<string>;
  /** The SQLAlchemy class in the "<col> is not a column of aliased(...)" message, and its column list. */
  ormClass: string;
  validColumns: readonly string[];
  /** `aiida.orm.<T>` in the "either no object's id starts with" message; undefined for users (pk ids). */
  ormType?: string;
}

export const NODES: ResourceDefinition = {
  name: 'nodes',
  table: 'db_dbnode',
  projection: ['id', 'uuid', 'node_type', 'process_type', 'label', 'ctime', 'mtime', 'user_id'],
  columns: plainColumns('node'),
  aliases: { pk: 'id', computer: 'dbcomputer_id', user: 'user_id' },
  jsonColumns: new Set(['attributes', 'extras', 'repository_metadata']),
  timeColumns: new Set(['ctime', 'mtime']),
  ormClass: 'DbNode',
  validColumns: [
    'pk (alias for id)',
    'uuid',
    'node_type',
    'process_type',
    'label',
    'description',
    'ctime',
    'mtime',
    'attributes',
    'extras',
    'repository_metadata',
    'computer (alias for dbcomputer_id)',
    'user (alias for user_id)',
  ],
  ormType: 'node.Node',
};

export const COMPUTERS: ResourceDefinition = {
  name: 'computers',
  table: 'db_dbcomputer',
  projection: ['id', 'uuid', 'label', 'hostname', 'description', 'scheduler_type', 'transport_type', 'metadata'],
  columns: plainColumns('computer'),
  aliases: { pk: 'id' },
  jsonColumns: new Set(['metadata']),
  timeColumns: new Set(),
  ormClass: 'DbComputer',
  validColumns: [
    'pk (alias for id)',
    'uuid',
    'label',
    'hostname',
    'description',
    'scheduler_type',
    'transport_type',
    '_metadata',
  ],
  ormType: 'Computer',
};

export const GROUPS: ResourceDefinition = {
  name: 'groups',
  table: 'db_dbgroup',
  projection: ['id', 'uuid', 'label', 'type_string', 'time', 'description', 'extras', 'user_id'],
  columns: plainColumns('group'),
  aliases: { pk: 'id', user: 'user_id' },
  jsonColumns: new Set(['extras']),
  timeColumns: new Set(['time']),
  ormClass: 'DbGroup',
  validColumns: [
    'pk (alias for id)',
    'uuid',
    'label',
    'type_string',
    'time',
    'description',
    'extras',
    'user (alias for user_id)',
  ],
  ormType: 'groups.Group',
};

export const USERS: ResourceDefinition = {
  name: 'users',
  table: 'db_dbuser',
  projection: ['id', 'first_name', 'last_name', 'institution'],
  columns: plainColumns('user'),
  aliases: { pk: 'id' },
  jsonColumns: new Set(),
  timeColumns: new Set(),
  ormClass: 'DbUser',
  validColumns: ['pk (alias for id)', 'email', 'first_name', 'last_name', 'institution'],
};

export const RESOURCES: Record<ResourceName, ResourceDefinition> = {
  nodes: NODES,
  computers: COMPUTERS,
  groups: GROUPS,
  users: USERS,
};

/** Resolves an alias and checks the column exists, failing with the reference's QueryBuilder message. */
export function resolveColumn(resource: ResourceDefinition, name: string): string {
  const column = resource.aliases[name] ?? name;
  if (resource.columns.has(column)) return column;
  throw internalError(
    `${name} is not a column of aliased(${resource.ormClass})\nValid columns are:\n${resource.validColumns.join('\n')}`,
  );
}
