import { HttpError } from '@atrium/core';
import { type Model, modelProblem, parseModelTest } from '../boundary/model.js';
import type { ModelInput } from './new-report.js';
import { withDefaultBoundary } from './project-defaults.js';

/** A validated model, or a 400 naming what is wrong; without any boundary, the default one for the measure. */
export function toModel(input: ModelInput, measure?: string): Model {
  const test = parseModelTest(input.test);
  if (!test) throw new HttpError(400, 'invalid_model', `unknown threshold test '${String(input.test).slice(0, 32)}'`);
  const model = withDefaultBoundary(
    {
      test,
      min_sample_size: input.min_sample_size ?? null,
      max_sample_size: input.max_sample_size ?? null,
      window: input.window ?? null,
      lower_boundary: input.lower_boundary ?? null,
      upper_boundary: input.upper_boundary ?? null,
    },
    measure,
  );
  const problem = modelProblem(model);
  if (problem) throw new HttpError(400, 'invalid_model', problem);
  return model;
}
