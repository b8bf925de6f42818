import { HttpError } from '@atrium/core';
import { type Model, modelProblem, parseModelTest } from '../boundary/model.js';
import type { ModelInput } from './new-report.js';

/** A validated model, or a 400 naming what is wrong. */
export function toModel(input: ModelInput): Model {
  const test = parseModelTest(input.test);
  if (!test) throw new HttpError(400, 'invalid_model', `unknown threshold test '${String(input.test).slice(0, 32)}'`);
  const model: Model = {
    test,
    min_sample_size: input.min_sample_size ?? null,
    max_sample_size: input.max_sample_size ?? null,
    window: input.window ?? null,
    lower_boundary: input.lower_boundary ?? null,
    upper_boundary: input.upper_boundary ?? null,
  };
  const problem = modelProblem(model);
  if (problem) throw new HttpError(400, 'invalid_model', problem);
  return model;
}
