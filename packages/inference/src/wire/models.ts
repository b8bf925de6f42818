import type { ModelConfig } from '../config.js';

/** An element of `GET /v1/models`, in vLLM's shape. */
export interface ModelObject {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  max_model_len: number;
}

export function toModelObject(model: ModelConfig, ownedBy: string): ModelObject {
  return {
    id: model.id,
    object: 'model',
    created: model.created,
    owned_by: ownedBy,
    max_model_len: model.contextLength,
  };
}
