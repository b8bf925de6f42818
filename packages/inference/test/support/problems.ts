import { HttpError } from '@atrium/core';

/** The `HttpError` that `run` throws, as plain fields; undefined when it throws none. */
export function thrownProblem(run: () => void) {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError)
      return { status: error.status, code: error.code, param: error.param, message: error.message };
    throw error;
  }
  return undefined;
}
