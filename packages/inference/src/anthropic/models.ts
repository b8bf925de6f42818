import type { ModelConfig } from '../config.js';

/** A `ModelInfo` of Anthropic's `GET /v1/models`. */
export interface AnthropicModel {
  type: 'model';
  id: string;
  display_name: string;
  created_at: string;
  max_input_tokens: number;
  max_tokens: number;
  capabilities: null;
}

export interface ModelPageQuery {
  limit?: number;
  after_id?: string;
  before_id?: string;
}

export const DEFAULT_PAGE_SIZE = 20;

export function toAnthropicModel(model: ModelConfig): AnthropicModel {
  return {
    type: 'model',
    id: model.id,
    display_name: model.id.slice(model.id.indexOf('/') + 1),
    created_at: new Date(model.created * 1000).toISOString().replace('.000Z', 'Z'),
    max_input_tokens: model.contextLength,
    max_tokens: model.contextLength,
    capabilities: null,
  };
}

/** One page of the list, in catalogue order, with Anthropic's `after_id` / `before_id` cursors. */
export function anthropicModelPage(models: readonly AnthropicModel[], query: ModelPageQuery) {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const position = (id: string | undefined) => (id === undefined ? -1 : models.findIndex((m) => m.id === id));
  let from = 0;
  let to = models.length;
  if (query.after_id !== undefined) from = position(query.after_id) + 1;
  if (query.before_id !== undefined) to = Math.max(position(query.before_id), 0);
  const slice =
    query.before_id !== undefined && query.after_id === undefined
      ? models.slice(Math.max(to - limit, 0), to)
      : models.slice(from, Math.min(from + limit, to));
  const start = models.indexOf(slice[0] as AnthropicModel);
  return {
    data: slice,
    has_more: query.before_id !== undefined && query.after_id === undefined ? start > 0 : from + slice.length < to,
    first_id: slice[0]?.id ?? null,
    last_id: slice.at(-1)?.id ?? null,
  };
}

/** Anthropic's SDK always sends `anthropic-version`; OpenAI's never does. */
export const wantsAnthropicShape = (headers: Record<string, unknown>) => headers['anthropic-version'] !== undefined;
