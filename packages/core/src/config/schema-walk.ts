import type { z } from 'zod';

export type LeafKind = 'string' | 'number' | 'boolean' | 'string-list' | 'other';

export interface ConfigLeaf {
  path: string[];
  kind: LeafKind;
}

interface ZodDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  element?: z.ZodType;
}

function defOf(schema: z.ZodType): ZodDef {
  return (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
}

/** Strips optional/default/nullable/pipe wrappers to reach the schema that describes the value. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.out) current = defOf(def.out).type === 'transform' && def.in ? def.in : def.out;
    else return current;
  }
}

function kindOf(schema: z.ZodType): LeafKind {
  const def = defOf(unwrap(schema));
  if (def.type === 'string' || def.type === 'enum' || def.type === 'literal') return 'string';
  if (def.type === 'number' || def.type === 'int') return 'number';
  if (def.type === 'boolean') return 'boolean';
  if (def.type === 'array' && def.element && kindOf(def.element) === 'string') return 'string-list';
  return 'other';
}

/** Every scalar leaf of a (nested) object schema, so that each can be given an environment variable. */
export function configLeaves(schema: z.ZodType, prefix: string[] = []): ConfigLeaf[] {
  const def = defOf(unwrap(schema));
  if (def.type !== 'object' || !def.shape) return [{ path: prefix, kind: kindOf(schema) }];
  return Object.entries(def.shape).flatMap(([key, child]) => configLeaves(child, [...prefix, key]));
}
