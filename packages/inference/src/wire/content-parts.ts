import type { Modality } from '../config.js';
import type { ContentPart } from './chat.js';

export interface ClassifiedPart {
  modality: Modality;
  /** A URL the upstream would fetch (or a `data:` URL), when the part carries one. */
  url?: string;
}

const urlOf = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { url?: unknown }).url === 'string') {
    return (value as { url: string }).url;
  }
  return undefined;
};

/** Media part types (OpenAI, vLLM and llama.cpp spellings) and the key that holds their payload. */
const MEDIA_PARTS: Record<string, { modality: Modality; key: string }> = {
  image_url: { modality: 'image', key: 'image_url' },
  input_audio: { modality: 'audio', key: 'input_audio' },
  audio_url: { modality: 'audio', key: 'audio_url' },
  video_url: { modality: 'video', key: 'video_url' },
  input_video: { modality: 'video', key: 'input_video' },
};

const TEXT_PARTS = new Set(['text', 'refusal', 'thinking']);

const typeOf = (part: ContentPart) => part.type ?? Object.keys(MEDIA_PARTS).find((key) => key in part);

/**
 * What a content part carries, or a reason it is refused. vLLM's untyped shorthand (`{"image_url": "…"}`) is
 * recognised; precomputed embeddings and unknown types are refused.
 */
export function classifyPart(part: ContentPart): ClassifiedPart | { refused: string } {
  const type = typeOf(part);
  if (type === undefined) return { refused: 'a content part needs a type' };
  if (TEXT_PARTS.has(type)) return { modality: 'text' };
  const media = MEDIA_PARTS[type];
  if (!media) return { refused: `content part type '${type}' is not supported` };
  const url = urlOf(part[media.key]);
  return url === undefined ? { modality: media.modality } : { modality: media.modality, url };
}

/** Puts `url` where `classifyPart` found the media part's URL. */
export function replacePartUrl(part: ContentPart, url: string): void {
  const key = MEDIA_PARTS[typeOf(part) ?? '']?.key;
  if (key === undefined) return;
  const value = part[key];
  if (typeof value === 'string') part[key] = url;
  else if (value && typeof value === 'object') (value as { url: string }).url = url;
}

const NOT_ALLOWED = 'only data: URLs, or http(s) URLs on the configured allowlist, are accepted';
/** Parsers differ on these: WHATWG reads `\` as `/` and drops tabs and newlines, others do not. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const AMBIGUOUS = /[\\\u0000-\u001f\u007f]/;

/**
 * The media URL to forward, or why it is refused: a `data:` URL as it is; an http(s) URL to an allowlisted host
 * (no server-side fetch on a user's behalf) as the WHATWG parser normalised it, so the model server reads the
 * host this check read. User info and characters that parsers read differently are refused outright.
 */
export function mediaUrlOf(url: string, allowedHosts: ReadonlySet<string>): { url: string } | { refused: string } {
  if (url.startsWith('data:')) return { url };
  if (AMBIGUOUS.test(url)) return { refused: 'a media URL must not contain backslashes or control characters' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { refused: NOT_ALLOWED };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { refused: NOT_ALLOWED };
  if (parsed.username !== '' || parsed.password !== '')
    return { refused: 'a media URL must not carry a user name or password (user:password@host)' };
  if (!allowedHosts.has(parsed.hostname)) return { refused: NOT_ALLOWED };
  return { url: parsed.href };
}
