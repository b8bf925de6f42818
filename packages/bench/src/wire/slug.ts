/** Bencher's slugs: ASCII, lowercase, runs of anything else become one `-`, at most 64 characters. */

export const MAX_SLUG_LENGTH = 64;

export function slugify(text: string): string {
  const ascii = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  const slug = ascii
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.length <= MAX_SLUG_LENGTH ? slug : slug.slice(0, MAX_SLUG_LENGTH).replace(/-+$/g, '');
}

export const isSlug = (text: string): boolean =>
  text.length > 0 && text.length <= MAX_SLUG_LENGTH && slugify(text) === text;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (text: string): boolean => UUID.test(text);

/** A slug made unique by a suffix: `-` then 8 base36 characters, the whole at most 64 long. */
export function suffixedSlug(slug: string, random: () => number = Math.random): string {
  let suffix = Math.floor(Date.now() / 1000).toString(36);
  while (suffix.length < 8) suffix += Math.floor(random() * 36).toString(36);
  const base = slug.slice(0, MAX_SLUG_LENGTH - 9).replace(/-+$/g, '');
  return `${base}-${suffix.slice(0, 8)}`;
}

/** How a body names a dimension: by UUID, slug or name, and only that column is searched. */
export type NameId = { column: 'uuid' | 'slug' | 'name'; value: string };

export function parseNameId(text: string): NameId {
  if (isUuid(text)) return { column: 'uuid', value: text.toLowerCase() };
  if (isSlug(text)) return { column: 'slug', value: text };
  return { column: 'name', value: text };
}

/** How a path names a resource: UUID or slug. */
export const parseResourceId = (text: string): NameId =>
  isUuid(text) ? { column: 'uuid', value: text.toLowerCase() } : { column: 'slug', value: text };
