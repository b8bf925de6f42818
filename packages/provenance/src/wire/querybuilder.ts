import { internalError } from './errors.js';
import { checkQbOperand } from './filter-operands.js';
import { escapeLike } from './full-type.js';
import { pyReprJson, pyTypeNameJson } from './python-values.js';
import {
  checkBodyNesting,
  checkFilterDepth,
  checkInteger,
  checkPathLength,
  TermBudget,
} from './querybuilder-limits.js';

/**
 * AiiDA's `QueryBuilder.as_dict()` payload, validated into a plan the storage layer compiles to one
 * SQL statement. Anything outside the supported subset is refused with a message naming it.
 */

export type Entity = 'node' | 'group' | 'computer' | 'user';
export type JoinKeyword =
  | 'with_ancestors'
  | 'with_descendants'
  | 'with_incoming'
  | 'with_outgoing'
  | 'with_group'
  | 'with_node'
  | 'with_user'
  | 'with_computer';

/** The columns `**` projects, per entity (also the columns filters and ordering may name). */
export const ENTITY_COLUMNS: Record<Entity | 'link', readonly string[]> = {
  node: [
    'id',
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
    'dbcomputer_id',
    'user_id',
  ],
  computer: ['id', 'uuid', 'label', 'hostname', 'description', 'scheduler_type', 'transport_type', 'metadata'],
  group: ['id', 'uuid', 'label', 'type_string', 'time', 'description', 'extras', 'user_id'],
  user: ['id', 'email', 'first_name', 'last_name', 'institution'],
  link: ['id', 'input_id', 'output_id', 'label', 'type'],
};

export const JSON_COLUMNS = new Set(['attributes', 'extras', 'repository_metadata', 'metadata']);
export const TIME_COLUMNS = new Set(['ctime', 'mtime', 'time']);
const ALIASES: Record<string, string> = { pk: 'id', computer: 'dbcomputer_id', user: 'user_id' };

const JOINS: Record<Entity, readonly JoinKeyword[]> = {
  node: [
    'with_incoming',
    'with_outgoing',
    'with_ancestors',
    'with_descendants',
    'with_group',
    'with_user',
    'with_computer',
  ],
  group: ['with_node', 'with_user'],
  computer: ['with_node'],
  user: ['with_node', 'with_group'],
};

/** A reference to a column or to a JSON path inside a JSON column. */
export interface FieldRef {
  column: string;
  path: string[];
}

export type QbOperator =
  | '=='
  | '>'
  | '<'
  | '>='
  | '<='
  | 'like'
  | 'ilike'
  | 'in'
  | 'contains'
  | 'has_key'
  | 'of_length'
  | 'longer'
  | 'shorter'
  | 'of_type';

export type QbCondition =
  | { field: FieldRef; op: QbOperator; value: unknown; negated: boolean }
  | { and: QbCondition[] }
  | { or: QbCondition[] };

/** AiiDA's projection and ordering casts: float, integer, boolean, text, datetime, JSON. */
export type QbCast = 'f' | 'i' | 'b' | 't' | 'd' | 'j';
export type QbFunction = 'count' | 'max' | 'min';

export interface Projection {
  /** Key in the answer: the column name or the attribute path as the client wrote it. */
  key: string;
  field: FieldRef;
  /** Only on JSON values (a path, or `attributes`/`extras` whole), as the reference ignores it elsewhere. */
  cast?: QbCast;
  func?: QbFunction;
}

export interface QbVertex {
  tag: string;
  entity: Entity;
  join?: { keyword: JoinKeyword; target: string };
  /** LEFT JOIN: rows of the earlier vertices without a match keep nulls here. */
  outer: boolean;
  /** Tag of the link (node–node joins) between this vertex and its join target. */
  edgeTag?: string;
  /** The filter `entity_type` implies: part of the join condition when the join is outer. */
  typeWhere: QbCondition[];
  where: QbCondition[];
  edgeWhere: QbCondition[];
  project?: Projection[];
  edgeProject?: Projection[];
}

export interface QbOrder {
  tag: string;
  field: FieldRef;
  cast?: QbCast;
  descending: boolean;
}

export interface QbPlan {
  vertices: QbVertex[];
  order: QbOrder[];
  limit?: number;
  offset?: number;
  distinct: boolean;
}

const OPERATORS = new Set<QbOperator>([
  '==',
  '>',
  '<',
  '>=',
  '<=',
  'like',
  'ilike',
  'in',
  'contains',
  'has_key',
  'of_length',
  'longer',
  'shorter',
  'of_type',
]);

const CASTS = new Set<string>(['f', 'i', 'b', 't', 'd', 'j']);
const FUNCTIONS = new Set<string>(['count', 'max', 'min']);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const unsupported = (what: string) => internalError(`QueryBuilder: ${what} is not supported by this server`);

/**
 * `QueryBuilder.append` → `_get_ormclass_from_str`: the entity comes from `entity_type` alone (`orm_base` is
 * ignored); `group…`, `computer` and `user` (any case) name those, anything else must be a node type string
 * (`is_valid_node_type_string`), so `comment`, `log` and `authinfo` are refused as invalid type strings: the
 * reference cannot rebuild a QueryBuilder over them from its dictionary.
 */
function entityOf(item: Json): Entity {
  const given = item.entity_type;
  if (given === undefined || given === null)
    throw internalError('You need to specify at least a class or a entity_type');
  const types = Array.isArray(given) ? given : [given];
  let entity: Entity | undefined;
  for (const type of types) {
    if (typeof type !== 'string')
      throw internalError(`${pythonStr(type)} was passed as entity_type, but is not a string`);
    const next = entityOfType(type);
    if (entity !== undefined && next !== entity)
      throw internalError('Non-matching types have been passed as list/tuple/set.');
    entity = next;
  }
  return entity ?? 'node';
}

function entityOfType(type: string): Entity {
  const lower = type.toLowerCase();
  if (lower.startsWith('group')) return 'group';
  if (lower === 'computer' || lower === 'user') return lower;
  if (lower === 'link') throw unsupported("entity_type 'link'");
  if (type !== '' && (type.split('.').length === 2 || !type.endsWith('.'))) {
    throw internalError(`The type string ${type} is invalid`);
  }
  return 'node';
}

/** Python's `str()` of a JSON value. */
const pythonStr = (value: unknown) => (typeof value === 'string' ? value : pyReprJson(value));

function resolveField(entity: Entity | 'link', name: string, tag: string): FieldRef {
  const [head = '', ...path] = name.split('.');
  const column = ALIASES[head] ?? head;
  if (!ENTITY_COLUMNS[entity].includes(column) || (path.length && !JSON_COLUMNS.has(column))) {
    throw internalError(`${name} is not a column of ${entity} (tag ${tag})`);
  }
  return { column, path };
}

/** `data.core.dict.Dict.` → `data.core.dict.` (the class dropped); a type without the trailing dot is kept. */
function modulePrefix(type: string): string {
  if (!type.endsWith('.')) return type;
  return type.slice(0, type.lastIndexOf('.', type.length - 2) + 1);
}

/** `data.core.dict.Dict.` → `node_type LIKE 'data.core.dict.%'` (subclassing, as the reference). */
function nodeTypeCondition(entityType: unknown, budget: TermBudget): QbCondition[] {
  const types = (Array.isArray(entityType) ? entityType : [entityType]).map((t) => String(t ?? ''));
  budget.spend(types.length);
  const conditions = types
    .filter((t) => t !== '' && t !== 'node.Node.')
    .map((t): QbCondition => {
      const prefix = modulePrefix(t.split('|')[0] ?? '');
      return {
        field: { column: 'node_type', path: [] },
        op: 'like',
        value: `${escapeLike(prefix)}%`,
        negated: false,
      };
    });
  if (conditions.length < types.length) return [];
  return conditions.length === 1 ? conditions : [{ or: conditions }];
}

function parseFilters(
  spec: unknown,
  entity: Entity | 'link',
  tag: string,
  budget: TermBudget,
  depth = 0,
): QbCondition[] {
  checkFilterDepth(depth, tag);
  if (spec === undefined || spec === null) return [];
  if (!isObject(spec)) throw internalError(`filters of tag ${tag} must be a dictionary`);
  const conditions: QbCondition[] = [];
  for (const [key, value] of Object.entries(spec)) {
    if (key === 'and' || key === 'or') {
      if (!Array.isArray(value)) throw internalError(`'${key}' of tag ${tag} must be a list`);
      budget.spend(value.length);
      const parts = value.map((v) => ({ and: parseFilters(v, entity, tag, budget, depth + 1) }));
      conditions.push(key === 'and' ? { and: parts } : { or: parts });
      continue;
    }
    const field = resolveField(entity, key, tag);
    const ops = isObject(value) ? Object.entries(value) : [['==', value] as [string, unknown]];
    for (const [rawOp, operand] of ops) {
      if (rawOp === 'and' || rawOp === 'or') {
        if (!Array.isArray(operand)) throw internalError(`'${rawOp}' of ${key} must be a list`);
        budget.spend(operand.length);
        const parts = operand.map((o) => ({ and: parseFilters({ [key]: o }, entity, tag, budget, depth + 1) }));
        conditions.push(rawOp === 'and' ? { and: parts } : { or: parts });
        continue;
      }
      const negated = rawOp.startsWith('!') || rawOp.startsWith('~');
      const op = (negated ? rawOp.slice(1) : rawOp) as QbOperator;
      if (!OPERATORS.has(op)) throw unsupported(`filter operator '${rawOp}'`);
      const value = checkQbOperand(op, operand);
      budget.spend(Array.isArray(value) ? value.length : 1);
      conditions.push({ field, op, value, negated });
    }
  }
  return conditions;
}

function parseCast(options: unknown, field: FieldRef): QbCast | undefined {
  const cast = isObject(options) ? options.cast : undefined;
  if (cast === undefined || cast === null) return undefined;
  if (!CASTS.has(String(cast))) throw internalError(`Unknown casting key ${String(cast)}`);
  return field.path.length || field.column === 'attributes' || field.column === 'extras' ? (cast as QbCast) : undefined;
}

function parseProjections(
  spec: unknown,
  entity: Entity | 'link',
  tag: string,
  budget: TermBudget,
): Projection[] | undefined {
  const items = spec === undefined ? [] : Array.isArray(spec) ? spec : [spec];
  if (items.length === 0) return undefined;
  budget.spend(items.length);
  const projections: Projection[] = [];
  for (const item of items) {
    const [name, options] =
      typeof item === 'string' ? [item, {}] : isObject(item) ? (Object.entries(item)[0] ?? []) : [];
    if (typeof name !== 'string') throw internalError(`invalid projection for tag ${tag}: ${pyReprJson(item)}`);
    const func = isObject(options) ? options.func : undefined;
    if (func !== undefined && func !== null && !FUNCTIONS.has(String(func))) {
      throw internalError(`\nInvalid function specification ${String(func)}`);
    }
    if (name === '*' && func) {
      throw internalError(
        "Very sorry, but functions on the aliased class\n(You specified '*')\nwill not work!\nI suggest you apply functions on a column, e.g. ('id')\n",
      );
    }
    const fields =
      name === '*' || name === '**'
        ? ENTITY_COLUMNS[entity].map((column) => ({ key: column, field: { column, path: [] } }))
        : [{ key: name, field: resolveField(entity, name, tag) }];
    for (const { key, field } of fields) {
      if (projections.some((p) => p.key === key)) {
        throw internalError('You are projecting the same key multiple times within the same node');
      }
      const cast = parseCast(options, field);
      projections.push({ key, field, ...(cast ? { cast } : {}), ...(func ? { func: func as QbFunction } : {}) });
    }
  }
  return projections;
}

function parseOrder(spec: unknown, tagged: Map<string, Entity | 'link'>, budget: TermBudget): QbOrder[] {
  const orders: QbOrder[] = [];
  const blocks = Array.isArray(spec) ? spec : spec ? [spec] : [];
  budget.spend(blocks.length);
  for (const block of blocks) {
    if (!isObject(block)) throw internalError(`invalid order_by entry ${pyReprJson(block)}`);
    for (const [tag, terms] of Object.entries(block)) {
      const entity = tagged.get(tag);
      if (!entity) throw internalError(`order_by: unknown tag ${tag}`);
      const list = Array.isArray(terms) ? terms : [terms];
      budget.spend(list.length);
      for (const term of list) {
        const [name, options] =
          typeof term === 'string' ? [term, {}] : isObject(term) ? (Object.entries(term)[0] ?? []) : [];
        if (typeof name !== 'string') throw internalError(`invalid order_by term ${pyReprJson(term)}`);
        const order = isObject(options) ? options.order : options;
        const field = resolveField(entity, name, tag);
        const cast = parseCast(options, field);
        orders.push({ tag, field, ...(cast ? { cast } : {}), descending: order === 'desc' });
      }
    }
  }
  return orders;
}

/**
 * `QueryBuilder.limit` / `.offset` take Python ints (booleans included) or None, else raise `TypeError`
 * (500); negative values reach SQLite, where a negative limit is none and a negative offset is 0.
 */
function rowBound(value: unknown, what: 'limit' | 'offset'): number | undefined {
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'boolean' ? Number(value) : value;
  if (!Number.isInteger(n)) {
    throw internalError(
      what === 'limit' ? 'The limit has to be an integer, or None' : 'offset has to be an integer, or None',
    );
  }
  checkInteger(n as number, what);
  return (n as number) < 0 ? (what === 'limit' ? undefined : 0) : (n as number);
}

/**
 * Without GROUP BY (which the dictionary cannot express) PostgreSQL refuses aggregates next to plain
 * columns or ordering; both backends refuse them here alike.
 */
function checkAggregates(vertices: QbVertex[], order: QbOrder[]): void {
  const projections = vertices.flatMap((v) => [...(v.project ?? []), ...(v.edgeProject ?? [])]);
  const aggregated = projections.filter((p) => p.func);
  if (!aggregated.length) return;
  const plain = projections.find((p) => !p.func);
  if (plain) throw unsupported(`projecting ${plain.key} next to a func projection (it needs a GROUP BY)`);
  if (order.length) throw unsupported('order_by together with func projections');
  const uncast = aggregated.find((p) => p.func !== 'count' && !p.cast && JSON_COLUMNS.has(p.field.column));
  if (uncast) throw unsupported(`${uncast.func} of the JSON value ${uncast.key} without a cast`);
}

/** Python's `TypeError` text for subscripting a JSON value that is neither a list nor a dictionary. */
function notSubscriptable(value: unknown): string {
  if (typeof value === 'string') return "string indices must be integers, not 'str'";
  return `'${pyTypeNameJson(value)}' object is not subscriptable`;
}

/** `QueryBuilder.post` reads `path[-1]['tag']` before anything else (KeyError, IndexError, TypeError: 500). */
function lastTag(path: unknown): void {
  if (isObject(path)) throw internalError('-1');
  if (typeof path === 'string' && path === '') throw internalError('string index out of range');
  if (!Array.isArray(path)) throw internalError(notSubscriptable(typeof path === 'string' ? path.slice(-1) : path));
  if (path.length === 0) throw internalError('list index out of range');
  const last: unknown = path[path.length - 1];
  if (Array.isArray(last)) throw internalError('list indices must be integers or slices, not str');
  if (!isObject(last)) throw internalError(notSubscriptable(last));
  if (!('tag' in last)) throw internalError("'tag'");
}

/** Validates a POSTed QueryBuilder dictionary into a plan; errors carry the reference's texts. */
export function parseQueryBuilder(body: unknown): QbPlan {
  if (!isObject(body)) {
    throw internalError(
      `POSTed data MUST be a valid QueryBuilder.as_dict() dictionary. Got instead (type: <class '${pyTypeNameJson(body)}'>): ${pyReprJson(body)}`,
    );
  }
  if (!('path' in body)) throw internalError("'path'");
  lastTag(body.path);
  if (!('project' in body)) throw internalError("'project'");
  if (!Array.isArray(body.path)) throw internalError('Path needs to be a tuple or a list');
  checkPathLength(body.path.length);
  const filters = isObject(body.filters) ? body.filters : {};
  const project = isObject(body.project) ? body.project : {};
  const budget = new TermBudget();
  const tagged = new Map<string, Entity | 'link'>();
  /** Edges without columns (group membership, foreign keys): they may appear with empty filters only. */
  const columnlessEdges = new Set<string>();
  const vertices: QbVertex[] = body.path.map((raw, index) => {
    if (!isObject(raw)) throw internalError(`path entry ${index} must be a dictionary`);
    const entity = entityOf(raw);
    const tag = typeof raw.tag === 'string' ? raw.tag : `${entity}_${index + 1}`;
    if (tagged.has(tag)) throw internalError(`tag ${tag} is used twice`);
    const vertex: QbVertex = {
      tag,
      entity,
      outer: index > 0 && raw.outerjoin === true,
      typeWhere: entity === 'node' ? nodeTypeCondition(raw.entity_type, budget) : [],
      where: [],
      edgeWhere: [],
    };
    const keyword = raw.joining_keyword;
    if (index > 0) {
      if (typeof keyword !== 'string') throw internalError(`path entry ${tag} needs a joining_keyword`);
      if (!(JOINS[entity] as readonly string[]).includes(keyword))
        throw unsupported(`joining keyword '${keyword}' for ${entity}`);
      const target = String(raw.joining_value ?? '');
      const targetEntity = tagged.get(target);
      if (!targetEntity || targetEntity === 'link')
        throw internalError(`joining_value ${target} is not an earlier tag`);
      if ((keyword === 'with_ancestors' || keyword === 'with_descendants') && targetEntity !== 'node') {
        throw unsupported(`${keyword} of a ${targetEntity}`);
      }
      vertex.join = { keyword: keyword as JoinKeyword, target };
      const edgeTag = typeof raw.edge_tag === 'string' ? raw.edge_tag : `${target}--${tag}`;
      if (keyword === 'with_incoming' || keyword === 'with_outgoing') vertex.edgeTag = edgeTag;
      else columnlessEdges.add(edgeTag);
    }
    tagged.set(tag, entity);
    if (vertex.edgeTag) tagged.set(vertex.edgeTag, 'link');
    return vertex;
  });
  for (const [tag, spec] of [...Object.entries(filters), ...Object.entries(project)]) {
    if (tagged.has(tag)) continue;
    if (!columnlessEdges.has(tag)) throw internalError(`Tag ${tag} is not among the path tags`);
    if (Object.keys(spec ?? {}).length) throw unsupported(`filtering or projecting edge ${tag}`);
  }
  // Checked by the QueryBuilder's constructor, before columns are resolved (when the query is built).
  const limit = rowBound(body.limit, 'limit');
  const offset = rowBound(body.offset, 'offset');
  for (const vertex of vertices) {
    vertex.where.push(...parseFilters(filters[vertex.tag], vertex.entity, vertex.tag, budget));
    const projected = project[vertex.tag];
    const star = Array.isArray(projected) && projected.length === 1 && isObject(projected[0]) && projected[0]['*'];
    const all = isObject(star) && Object.keys(star).length === 0;
    vertex.project = parseProjections(all ? '**' : projected, vertex.entity, vertex.tag, budget);
    if (vertex.edgeTag) {
      vertex.edgeWhere = parseFilters(filters[vertex.edgeTag], 'link', vertex.edgeTag, budget);
      vertex.edgeProject = parseProjections(project[vertex.edgeTag], 'link', vertex.edgeTag, budget);
    }
  }
  const last = vertices[vertices.length - 1];
  if (last && vertices.every((v) => !v.project && !v.edgeProject)) {
    last.project = parseProjections('**', last.entity, last.tag, budget);
  }
  const order = parseOrder(body.order_by, tagged, budget);
  checkAggregates(vertices, order);
  return {
    vertices,
    order,
    limit,
    offset,
    distinct: body.distinct === true,
  };
}

const BAD_JSON = '400 Bad Request: The browser (or proxy) sent a request that this server could not understand.';

/** The POSTed text, read as JSON whatever its content type (Flask's `get_json(force=True)`), into a plan. */
export function parseQueryBuilderBody(text: string): QbPlan {
  checkBodyNesting(text);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw internalError(BAD_JSON);
  }
  return parseQueryBuilder(body);
}
