import type { NpyArray } from './npy.js';
import { pyFloat } from './structure.js';

/** The header AiiDA writes into exported files. */
export function exportHeader(aiidaVersion: string): string {
  return `This file has been created with AiiDA v. ${aiidaVersion}\nIf you use AiiDA for publication purposes, please cite:\nS. P. Huber et al., "AiiDA 1.0, a scalable computational infrastructure for automated reproducible workflows and data provenance", Scientific Data 7, 300 (2020); https://doi.org/10.1038/s41597-020-00638-4`;
}

function nested(array: NpyArray, depth: number, offset: number): string {
  const length = array.shape[depth];
  if (length === undefined) {
    const value = array.values[offset];
    if (value === null || value === undefined) return 'null';
    if (typeof value === 'boolean') return value ? 'true' : 'false';
    return array.isFloat ? pyFloat(value) : String(value);
  }
  const stride = array.shape.slice(depth + 1).reduce((a, b) => a * b, 1);
  const items: string[] = [];
  for (let i = 0; i < length; i++) items.push(nested(array, depth + 1, offset + i * stride));
  return `[${items.join(', ')}]`;
}

/** ASCII JSON string literal, as Python's `json.dumps`. */
export const pyString = (text: string) =>
  JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * `ArrayData._prepare_json`: `json.dumps({<name>: nested lists (NaN/inf → null), …, "original_uuid", "comments"})`
 * with Python's default separators and float formatting.
 */
export function arrayDataJson(arrays: [name: string, array: NpyArray][], uuid: string, aiidaVersion: string): string {
  const members = arrays.map(([name, array]) => `${pyString(name)}: ${nested(array, 0, 0)}`);
  members.push(`"original_uuid": ${pyString(uuid)}`, `"comments": ${pyString(exportHeader(aiidaVersion))}`);
  return `{${members.join(', ')}}`;
}
