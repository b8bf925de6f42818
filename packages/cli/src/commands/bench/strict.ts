/** A field's expected shape: null for a scalar (or anything opaque), a shape name, or `[ref]` for an array. */
export type ShapeRef = string | null;

export interface Shape {
  fields: Readonly<Record<string, ShapeRef>>;
  required: readonly string[];
}

export type ShapeTable = Readonly<Record<string, Shape>>;

/**
 * `--strict`: the first place where `value` has a field `ref` does not declare or lacks a required one,
 * as a JSON path (`$.results[0][1].benchmark.colour`), or undefined when it conforms.
 */
export function strictMismatch(table: ShapeTable, ref: ShapeRef, value: unknown, path = '$'): string | undefined {
  if (ref === null || value === null || value === undefined) return undefined;
  if (ref.startsWith('[')) {
    if (!Array.isArray(value)) return `${path} is not an array`;
    const item = ref.slice(1, -1);
    for (let i = 0; i < value.length; i++) {
      const problem = strictMismatch(table, item, value[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  const shape = table[ref];
  if (!shape) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) return `${path} is not an object`;
  const record = value as Record<string, unknown>;
  for (const name of shape.required) {
    if (!(name in record)) return `${path}.${name} is missing`;
  }
  for (const [name, field] of Object.entries(record)) {
    if (!Object.hasOwn(shape.fields, name)) return `${path}.${name} is not a field of ${ref}`;
    const problem = strictMismatch(table, shape.fields[name] ?? null, field, `${path}.${name}`);
    if (problem) return problem;
  }
  return undefined;
}
