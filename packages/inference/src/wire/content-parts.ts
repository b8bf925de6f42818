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

/**
 * What a content part carries, or a reason it is refused. vLLM's untyped shorthand (`{"image_url": "…"}`) is
 * recognised; precomputed embeddings and unknown types are refused.
 */
export function classifyPart(part: ContentPart): ClassifiedPart | { refused: string } {
  const type = part.type ?? Object.keys(MEDIA_PARTS).find((key) => key in part);
  if (type === undefined) return { refused: 'a content part needs a type' };
  if (TEXT_PARTS.has(type)) return { modality: 'text' };
  const media = MEDIA_PARTS[type];
  if (!media) return { refused: `content part type '${type}' is not supported` };
  const url = urlOf(part[media.key]);
  return url === undefined ? { modality: media.modality } : { modality: media.modality, url };
}

/** `data:` URLs always pass; http(s) URLs only to allowlisted hosts (no server-side fetch on a user's behalf). */
export function isMediaUrlAllowed(url: string, allowedHosts: ReadonlySet<string>): boolean {
  if (url.startsWith('data:')) return true;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && allowedHosts.has(parsed.hostname);
}
