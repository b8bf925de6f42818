import { internalError } from './errors.js';
import { pyTruthy, pyTypeName } from './python-values.js';
import type { FieldValue } from './query-string.js';
import type { ColumnFilter } from './request-params.js';

/** A boolean combination of column conditions, compiled to SQL by the storage layer. */
export type Condition = ColumnFilter | { and: Condition[] } | { or: Condition[] };

const CONCATENATOR = '|';
const LIKE = '%';

export function fullTypeOf(nodeType: string | null, processType: string | null): string {
  return `${nodeType ?? ''}${CONCATENATOR}${processType ?? ''}`;
}

/** Escapes LIKE wildcards with `\`, the escape character our SQL declares. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function checkComponent(component: string): void {
  const count = component.split(LIKE).length - 1;
  if (count > 1)
    throw internalError(`full type component \`${component}\` contained more than one like-operator character`);
  if (count === 1 && !component.endsWith(LIKE)) {
    throw internalError(`like-operator character in full type component \`${component}\` is not at the end`);
  }
}

/** `identifiers.get_full_type_filters`: the node_type/process_type conditions a full type selects. */
export function fullTypeCondition(fullType: string): Condition {
  const parts = fullType.split(CONCATENATOR);
  if (parts.length < 2) {
    throw internalError(
      `full type \`${fullType}\` does not include the required concatenator symbol \`${CONCATENATOR}\`.`,
    );
  }
  if (parts.length > 2) {
    throw internalError(
      `full type \`${fullType}\` includes the concatenator symbol \`${CONCATENATOR}\` more than once.`,
    );
  }
  const [nodeType = '', processType = ''] = parts;
  checkComponent(nodeType);
  checkComponent(processType);
  const conditions: Condition[] = [
    nodeType.endsWith(LIKE)
      ? { column: 'node_type', op: 'like', value: `${escapeLike(nodeType.slice(0, -1))}%` }
      : { column: 'node_type', op: '==', value: nodeType },
  ];
  if (processType === '') {
    conditions.push({
      or: [
        { column: 'process_type', op: '==', value: '' },
        { column: 'process_type', op: '==', value: null },
      ],
    });
  } else if (processType.endsWith(LIKE)) {
    if (processType !== LIKE) {
      conditions.push({ column: 'process_type', op: 'like', value: `${escapeLike(processType.slice(0, -1))}%` });
    }
  } else {
    conditions.push({ column: 'process_type', op: '==', value: processType });
  }
  return { and: conditions };
}

/**
 * The `full_type` query key as `NodeTranslator.set_query` applies it: only when truthy, and `validate_full_type`'s
 * `type_check(full_type, str)` raises `TypeError` (HTTP 500) for numbers, booleans and lists.
 */
export function fullTypeFilter(value: FieldValue | undefined): Condition | undefined {
  if (value === undefined || !pyTruthy(value)) return undefined;
  if (typeof value !== 'string') {
    throw internalError(`Got object of type '<class '${pyTypeName(value)}'>', expecting '<class 'str'>'`);
  }
  return fullTypeCondition(value);
}
