/** Validation of names Bencher constrains (a problem message, or undefined when valid). */

export const MAX_BRANCH_NAME = 256;

export function resourceNameProblem(name: string, field = 'name', max = 64): string | undefined {
  if (name.length === 0 || name.length > max) return `${field} must be 1 to ${max} characters`;
  if (name.trim() !== name) return `${field} must not start or end with whitespace`;
  return undefined;
}

/** A branch name must be a valid partial git ref (`git check-ref-format --branch`). */
export function branchNameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > MAX_BRANCH_NAME)
    return `branch name must be 1 to ${MAX_BRANCH_NAME} characters`;
  const invalid =
    // biome-ignore lint/suspicious/noControlCharactersInRegex: git forbids control characters in refs
    /[\x00-\x20\x7f~^:?*[\\]/.test(name) ||
    name.startsWith('-') ||
    name.startsWith('/') ||
    name.endsWith('/') ||
    name.endsWith('.') ||
    name.endsWith('.lock') ||
    name.includes('..') ||
    name.includes('//') ||
    name.includes('@{') ||
    name === '@' ||
    name.split('/').some((part) => part.startsWith('.') || part.endsWith('.lock'));
  return invalid ? `branch name '${name.slice(0, 64)}' is not a valid git ref` : undefined;
}

export const gitHashProblem = (hash: string): string | undefined =>
  /^[0-9a-f]{7,64}$/i.test(hash) ? undefined : 'hash must be a hexadecimal git object id';
