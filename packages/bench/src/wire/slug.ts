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

/** A slug is what `slugify` leaves unchanged: runs of `a-z0-9` joined by single hyphens (JSON-schema pattern). */
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
/** Bencher's `ResourceId`: a UUID or a slug. */
export const RESOURCE_ID_PATTERN = `${UUID_PATTERN}|${SLUG_PATTERN}`;

const SLUG = new RegExp(SLUG_PATTERN);
const UUID = new RegExp(UUID_PATTERN);

/** Bencher's `is_valid_slug`: 1 to 64 characters that `slugify` leaves unchanged. */
export const isSlug = (text: string): boolean => text.length <= MAX_SLUG_LENGTH && SLUG.test(text);

export const isUuid = (text: string): boolean => UUID.test(text);

export const isResourceId = (text: string): boolean => isUuid(text) || isSlug(text);

/** Bencher's `rand_suffix`: the time in seconds in base36, padded with random base36 characters to 8. */
function randomSuffix(random: () => number): string {
  let suffix = Math.floor(Date.now() / 1000).toString(36);
  while (suffix.length < 8) suffix += Math.floor(random() * 36).toString(36);
  return suffix.slice(0, 8);
}

/** The slug of a new resource given only its name (Bencher's `Slug::unwrap_or_new`). */
export const slugForName = (name: string, random: () => number = Math.random): string =>
  slugify(name) || randomSuffix(random);

/** A slug made unique by a suffix: `-` then 8 base36 characters, the whole at most 64 long. */
export function suffixedSlug(slug: string, random: () => number = Math.random): string {
  const base = slug.slice(0, MAX_SLUG_LENGTH - 9).replace(/-+$/g, '');
  return `${base}-${randomSuffix(random)}`;
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
