import { type RawBuilder, sql } from 'kysely';
import { internalError, validationError } from '../../wire/errors.js';
import { fullTypeOf } from '../../wire/full-type.js';
import {
  type Entity,
  type FieldRef,
  JSON_COLUMNS,
  type Projection,
  type QbCast,
  type QbCondition,
  type QbPlan,
  type QbVertex,
  TIME_COLUMNS,
} from '../../wire/querybuilder.js';
import type { ColumnFilter } from '../../wire/request-params.js';
import { balanced } from './balanced.js';
import { compileFilter } from './conditions.js';
import type { AiidaDialect, AiidaStore } from './open.js';
import { toDate, toJson } from './rows.js';

const TABLES: Record<Entity, string> = {
  node: 'db_dbnode',
  group: 'db_dbgroup',
  computer: 'db_dbcomputer',
  user: 'db_dbuser',
};

type Sql = RawBuilder<unknown>;

function sqlitePath(path: string[]): string {
  return `$${path.map((k) => `."${k.replace(/"/g, '\\"')}"`).join('')}`;
}

/** The SQL of a field: a plain column, or a JSON value (JSON text on SQLite, jsonb on PostgreSQL). */
function fieldSql(alias: string, field: FieldRef, dialect: AiidaDialect): Sql {
  const column = sql.ref(`${alias}.${field.column}`);
  if (!field.path.length) return column;
  return dialect === 'postgres'
    ? sql`(${column} #> cast(${`{${field.path.join(',')}}`} as text[]))`
    : sql`(${column} -> ${sqlitePath(field.path)})`;
}

/** A JSON value cast as the reference's `_get_projectable_entity` does (`d` as an instant on both backends). */
function castSql(alias: string, field: FieldRef, cast: QbCast | undefined, dialect: AiidaDialect): Sql {
  if (!cast) return fieldSql(alias, field, dialect);
  const column = sql.ref(`${alias}.${field.column}`);
  if (cast === 'j') return fieldSql(alias, field, dialect);
  if (dialect === 'postgres') {
    const text = sql`(${column} #>> cast(${`{${field.path.join(',')}}`} as text[]))`;
    const types = { f: 'double precision', i: 'integer', b: 'boolean', d: 'timestamptz' } as const;
    return cast === 't' ? text : sql`cast(${text} as ${sql.raw(types[cast])})`;
  }
  const path = field.path.length ? sqlitePath(field.path) : '$';
  const value = sql`json_extract(${column}, ${path})`;
  switch (cast) {
    case 'f':
      return sql`cast(${value} as real)`;
    case 'i':
      return sql`cast(${value} as integer)`;
    case 'b':
      return value;
    case 't':
      return sql`(case json_type(${column}, ${path}) when 'true' then 'true' when 'false' then 'false' else cast(${value} as text) end)`;
    case 'd':
      return sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${value})`;
  }
}

/** A projected expression: the (cast) field, under `count`/`max`/`min` when asked. */
function projectionSql(alias: string, projection: Projection, dialect: AiidaDialect): Sql {
  const value = castSql(alias, projection.field, projection.cast, dialect);
  return projection.func ? sql`${sql.raw(projection.func)}(${value})` : value;
}

/** A comparison inside a JSON document, typed by the operand as AiiDA does. */
function jsonCondition(alias: string, field: FieldRef, op: string, value: unknown, dialect: AiidaDialect): Sql {
  const column = sql.ref(`${alias}.${field.column}`);
  const pg = dialect === 'postgres';
  const path = field.path.length ? sqlitePath(field.path) : '$';
  const json = pg ? fieldSql(alias, field, dialect) : sql`${column}`;
  const type = pg ? sql`jsonb_typeof(${json})` : sql`json_type(${column}, ${path})`;
  const scalar = pg ? sql`(${json} #>> '{}')` : sql`json_extract(${column}, ${path})`;
  const isNumber = sql`${type} in (${sql.join(pg ? ['number'] : ['integer', 'real'])})`;
  const numeric = pg ? sql`cast(${scalar} as double precision)` : scalar;
  const textType = pg ? 'string' : 'text';
  const comparison = (operator: string, operand: unknown): Sql => {
    if (typeof operand === 'number') return sql`(${isNumber} and ${numeric} ${sql.raw(operator)} ${operand})`;
    if (typeof operand === 'string') {
      if (operator === 'like') return sql`(${type} = ${textType} and ${scalar} like ${operand} escape '\\')`;
      if (operator === 'ilike')
        return sql`(${type} = ${textType} and lower(${scalar}) like lower(${operand}) escape '\\')`;
      return sql`(${type} = ${textType} and ${scalar} ${sql.raw(operator)} ${operand})`;
    }
    if (typeof operand === 'boolean') {
      return pg ? sql`(${type} = 'boolean' and ${scalar} = ${String(operand)})` : sql`${type} = ${String(operand)}`;
    }
    if (operand === null) return sql`${type} = 'null'`;
    return pg
      ? sql`${json} = cast(${JSON.stringify(operand)} as jsonb)`
      : sql`json(${sql`${column} -> ${path}`}) = json(${JSON.stringify(operand)})`;
  };
  const length = pg ? sql`jsonb_array_length(${json})` : sql`json_array_length(${column}, ${path})`;
  switch (op) {
    case '==':
      return comparison('=', value);
    case '>':
    case '<':
    case '>=':
    case '<=':
    case 'like':
    case 'ilike':
      return comparison(op, value);
    case 'in': {
      // One `in (…)` per operand type: planning an OR of thousands of comparisons takes seconds.
      const values = value as unknown[];
      const numbers = values.filter((v) => typeof v === 'number');
      const strings = values.filter((v) => typeof v === 'string');
      const others = values.filter((v) => typeof v !== 'number' && typeof v !== 'string');
      return balanced(
        [
          ...(numbers.length ? [sql`(${isNumber} and ${numeric} in (${sql.join(numbers)}))`] : []),
          ...(strings.length ? [sql`(${type} = ${textType} and ${scalar} in (${sql.join(strings)}))`] : []),
          ...others.map((v) => comparison('=', v)),
        ],
        'or',
      );
    }
    case 'has_key':
      return pg
        ? sql`(${json} ? ${String(value)})`
        : sql`json_type(${column}, ${`${path}."${String(value)}"`}) is not null`;
    case 'of_length':
      return sql`(${type} = 'array' and ${length} = ${Number(value)})`;
    case 'longer':
      return sql`(${type} = 'array' and ${length} > ${Number(value)})`;
    case 'shorter':
      return sql`(${type} = 'array' and ${length} < ${Number(value)})`;
    case 'of_type': {
      const names: Record<string, string[]> = pg
        ? { number: ['number'], string: ['string'], bool: ['boolean'], boolean: ['boolean'] }
        : { number: ['integer', 'real'], string: ['text'], bool: ['true', 'false'], boolean: ['true', 'false'] };
      const wanted = names[String(value)] ?? [String(value)];
      return sql`${type} in (${sql.join(wanted)})`;
    }
    case 'contains': {
      const items = Array.isArray(value) ? value : [value];
      if (pg) return sql`${json} @> cast(${JSON.stringify(items)} as jsonb)`;
      if (items.some((item) => typeof item === 'object' && item !== null)) {
        throw validationError(
          `QueryBuilder: 'contains' of ${field.column} takes numbers, strings and booleans on archives`,
        );
      }
      return balanced(
        items.map(
          (item) =>
            // json_each yields SQL values: numbers and text as such, JSON booleans as 1/0.
            sql`exists (select 1 from json_each(${column}, ${path}) where value = ${typeof item === 'boolean' ? Number(item) : (item as string | number | null)})`,
        ),
        'and',
      );
    }
    default:
      throw new Error(`unsupported operator ${op}`);
  }
}

function columnValue(column: string, value: unknown, dialect: AiidaDialect): unknown {
  if (TIME_COLUMNS.has(column) && typeof value === 'string') {
    const date = new Date(value.includes('T') || value.includes('Z') ? value : `${value.replace(' ', 'T')}Z`);
    if (!Number.isNaN(date.getTime())) return date;
  }
  if (Array.isArray(value)) return value.map((v) => columnValue(column, v, dialect));
  return value;
}

function compileQb(alias: string, condition: QbCondition, dialect: AiidaDialect): Sql {
  if ('and' in condition) {
    return balanced(
      condition.and.map((c) => compileQb(alias, c, dialect)),
      'and',
    );
  }
  if ('or' in condition) {
    return balanced(
      condition.or.map((c) => compileQb(alias, c, dialect)),
      'or',
    );
  }
  const { field, op, value, negated } = condition;
  let compiled: Sql;
  if (field.path.length || JSON_COLUMNS.has(field.column)) {
    compiled = jsonCondition(alias, field, op, value, dialect);
  } else {
    if (!['==', '>', '<', '>=', '<=', 'like', 'ilike', 'in'].includes(op)) {
      throw new Error(`operator ${op} needs a JSON column`);
    }
    const filter = { column: field.column, op, value: columnValue(field.column, value, dialect) } as ColumnFilter;
    compiled = compileFilter(filter, sql.ref(`${alias}.${field.column}`), dialect);
  }
  return negated ? sql`not ${compiled}` : compiled;
}

/**
 * `with_ancestors` / `with_descendants`: the transitive closure over links (every link type) from the
 * nodes the target vertex selects, as a recursive CTE `tc<index>(source, target)`; `union` stops cycles.
 */
function closureCte(
  vertex: QbVertex,
  index: number,
  target: QbVertex,
  targetIndex: number,
  dialect: AiidaDialect,
): Sql {
  const alias = `v${targetIndex}`;
  const seeds = [...target.typeWhere, ...target.where];
  const where = seeds.length
    ? sql`where ${balanced(
        seeds.map((c) => compileQb(alias, c, dialect)),
        'and',
      )}`
    : sql``;
  const seedIds = sql`select ${sql.ref(`${alias}.id`)} from db_dbnode as ${sql.raw(alias)} ${where}`;
  const name = sql.raw(`tc${index}`);
  const [from, to] = vertex.join?.keyword === 'with_ancestors' ? ['input_id', 'output_id'] : ['output_id', 'input_id'];
  return sql`${name}(source, target) as (select l.${sql.raw(from)}, l.${sql.raw(to)} from db_dblink as l where l.${sql.raw(
    from,
  )} in (${seedIds}) union select ${name}.source, l.${sql.raw(to)} from ${name} join db_dblink as l on l.${sql.raw(from)} = ${name}.target)`;
}

interface JoinStep {
  table: Sql;
  on: Sql;
}

/** The tables a vertex joins, each with its condition (the first one on the earlier vertex). */
function joinSteps(vertex: QbVertex, index: number, other: string): JoinStep[] {
  const me = `v${index}`;
  const table = sql`${sql.table(TABLES[vertex.entity])} as ${sql.raw(me)}`;
  const link = `l${index}`;
  const ref = (alias: string, column: string) => sql.ref(`${alias}.${column}`);
  const through = (name: string, alias: string, from: string, to: string): JoinStep[] => [
    { table: sql`${sql.raw(name)} as ${sql.raw(alias)}`, on: sql`${ref(alias, from)} = ${ref(other, 'id')}` },
    { table, on: sql`${ref(me, 'id')} = ${ref(alias, to)}` },
  ];
  const direct = (mine: string, theirs: string): JoinStep[] => [
    { table, on: sql`${ref(me, mine)} = ${ref(other, theirs)}` },
  ];
  switch (vertex.join?.keyword) {
    case undefined:
      return [];
    case 'with_ancestors':
    case 'with_descendants':
      return [
        { table: sql.raw(`tc${index}`), on: sql`${ref(`tc${index}`, 'source')} = ${ref(other, 'id')}` },
        { table, on: sql`${ref(me, 'id')} = ${ref(`tc${index}`, 'target')}` },
      ];
    case 'with_incoming':
      return through('db_dblink', link, 'input_id', 'output_id');
    case 'with_outgoing':
      return through('db_dblink', link, 'output_id', 'input_id');
    case 'with_group':
      if (vertex.entity === 'user') return direct('id', 'user_id');
      return through('db_dbgroup_dbnodes', link, 'dbgroup_id', 'dbnode_id');
    case 'with_node':
      if (vertex.entity === 'group') return through('db_dbgroup_dbnodes', link, 'dbnode_id', 'dbgroup_id');
      if (vertex.entity === 'user') return direct('id', 'user_id');
      return direct('id', 'dbcomputer_id');
    case 'with_user':
      return direct('user_id', 'id');
    case 'with_computer':
      return direct('dbcomputer_id', 'id');
  }
}

/**
 * The FROM part of one vertex. An outer join nests the link table and the entity (`left join (l join v
 * on …) on …`) so that a link to an entity of another type does not leave a half-null row; the implied
 * type filter joins the entity's condition instead of the WHERE clause.
 */
function joinSql(vertex: QbVertex, index: number, aliasOf: (tag: string) => string, dialect: AiidaDialect): Sql {
  const me = `v${index}`;
  if (!vertex.join) return sql`${sql.table(TABLES[vertex.entity])} as ${sql.raw(me)}`;
  const steps = joinSteps(vertex, index, aliasOf(vertex.join.target));
  const last = steps[steps.length - 1] as JoinStep;
  if (vertex.outer) {
    const typed = [last.on, ...vertex.typeWhere.map((c) => compileQb(me, c, dialect))];
    const entity = { table: last.table, on: balanced(typed, 'and') };
    const [first] = steps;
    if (steps.length === 1 || !first) return sql`left join ${entity.table} on ${entity.on}`;
    return sql`left join (${first.table} join ${entity.table} on ${entity.on}) on ${first.on}`;
  }
  return sql.join(
    steps.map((step) => sql`join ${step.table} on ${step.on}`),
    sql` `,
  );
}

type Json = Record<string, unknown>;

function toBoolean(value: unknown): boolean {
  if (typeof value !== 'string') return Boolean(value);
  const text = value.trim().toLowerCase();
  if (['t', 'true', 'y', 'yes', 'on', '1'].includes(text)) return true;
  if (['f', 'false', 'n', 'no', 'off', '0'].includes(text)) return false;
  throw internalError(`invalid input syntax for type boolean: "${value}"`);
}

/** JSON values arrive parsed from PostgreSQL and as JSON text from SQLite. */
function decode(projection: Projection, value: unknown, dialect: AiidaDialect): unknown {
  if (value === null || value === undefined) return null;
  const { field, cast, func } = projection;
  if (func === 'count' || cast === 'f' || cast === 'i') return Number(value);
  if (cast === 'b') return toBoolean(value);
  if (cast === 't') return String(value);
  if (cast === 'd') return toDate(value as string | Date);
  if (field.path.length || JSON_COLUMNS.has(field.column)) return dialect === 'postgres' ? value : toJson(value);
  if (TIME_COLUMNS.has(field.column)) return toDate(value as string | Date);
  return value;
}

/** Compiles the plan to one SELECT and shapes the answer `{tag: [record per row]}`. */
export async function runQueryBuilder(store: AiidaStore, plan: QbPlan): Promise<{ count: number; data: Json }> {
  const aliases = new Map<string, string>();
  plan.vertices.forEach((v, i) => {
    aliases.set(v.tag, `v${i}`);
    if (v.edgeTag) aliases.set(v.edgeTag, `l${i}`);
  });
  const aliasOf = (tag: string) => aliases.get(tag) ?? 'v0';
  const selects: Sql[] = [];
  const readers: { tag: string; projection: Projection; entity: Entity | 'link'; column: string }[] = [];
  const conditions: Sql[] = [];
  plan.vertices.forEach((vertex, i) => {
    const groups: [string, Entity | 'link', QbVertex['project']][] = [[vertex.tag, vertex.entity, vertex.project]];
    if (vertex.edgeTag) groups.push([vertex.edgeTag, 'link', vertex.edgeProject]);
    for (const [tag, entity, projections] of groups) {
      for (const projection of projections ?? []) {
        const column = `p${readers.length}`;
        selects.push(sql`${projectionSql(aliasOf(tag), projection, store.dialect)} as ${sql.raw(column)}`);
        readers.push({ tag, projection, entity, column });
      }
    }
    const where = vertex.outer ? vertex.where : [...vertex.typeWhere, ...vertex.where];
    for (const c of where) conditions.push(compileQb(`v${i}`, c, store.dialect));
    for (const c of vertex.edgeWhere) conditions.push(compileQb(`l${i}`, c, store.dialect));
  });
  const ctes = plan.vertices.flatMap((vertex, i) => {
    const keyword = vertex.join?.keyword;
    if (keyword !== 'with_ancestors' && keyword !== 'with_descendants') return [];
    const targetIndex = plan.vertices.findIndex((v) => v.tag === vertex.join?.target);
    const target = plan.vertices[targetIndex];
    return target ? [closureCte(vertex, i, target, targetIndex, store.dialect)] : [];
  });
  const withClause = ctes.length ? sql`with recursive ${sql.join(ctes)}` : sql``;
  const from = sql.join(
    plan.vertices.map((v, i) => joinSql(v, i, aliasOf, store.dialect)),
    sql` `,
  );
  const where = conditions.length ? sql`where ${balanced(conditions, 'and')}` : sql``;
  const order = plan.order.length
    ? sql`order by ${sql.join(
        plan.order.map(
          (o) =>
            sql`${castSql(aliasOf(o.tag), o.field, o.cast, store.dialect)} ${sql.raw(o.descending ? 'desc' : 'asc')}`,
        ),
      )}`
    : sql``;
  const limit =
    plan.limit !== undefined
      ? sql`limit ${plan.limit}`
      : plan.offset && store.dialect === 'sqlite'
        ? sql`limit -1`
        : sql``;
  const offset = plan.offset ? sql`offset ${plan.offset}` : sql``;
  const distinct = plan.distinct ? sql`distinct` : sql``;
  const { rows } =
    await sql<Json>`${withClause} select ${distinct} ${sql.join(selects)} from ${from} ${where} ${order} ${limit} ${offset}`.execute(
      store.db,
    );
  const data: Json = {};
  if (rows.length === 0) return { count: 0, data };
  const tags = [...new Set(readers.map((r) => r.tag))];
  for (const tag of tags) {
    const mine = readers.filter((r) => r.tag === tag);
    data[tag] = rows.map((row) => {
      const record: Json = {};
      for (const { projection, column } of mine) {
        record[projection.key] = decode(projection, row[column], store.dialect);
      }
      const projected = (key: string) => mine.some((r) => !r.projection.func && r.projection.key === key);
      const nodeType = (record.node_type as string | undefined) ?? null;
      const processType = (record.process_type as string | undefined) ?? null;
      // AiiDA adds `full_type` where `node_type` is projected, or a projected `process_type` is set.
      const typed = projected('node_type') || (projected('process_type') && !!processType);
      if (mine[0]?.entity === 'node' && typed) {
        // An outer join without a match has no node, hence no type.
        record.full_type = nodeType === null && processType === null ? null : fullTypeOf(nodeType, processType);
      }
      return record;
    });
  }
  return { count: rows.length, data };
}
