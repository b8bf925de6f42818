/**
 * The API's answers as types, taken from the functions that build them, for the console client (which imports
 * them type-only): a field the API does not send is a type error in the console.
 */

import type { sessionFor } from '../http/auth-session.js';
import type { keyJson } from '../http/key-routes.js';
import type { ViewLoader } from '../views/loader.js';
import type { alertJson, reportJson } from '../views/report-view.js';
import type {
  jsonBranch,
  jsonDimension,
  jsonMeasure,
  jsonMember,
  jsonModel,
  jsonOrganization,
  jsonPlot,
  jsonProject,
  jsonTestbed,
  jsonUser,
} from './json.js';
import type { perfJson } from './perf-json.js';

export type { JsonChangePoint } from './change-point-json.js';

export type JsonOrganization = ReturnType<typeof jsonOrganization>;
export type JsonProject = ReturnType<typeof jsonProject>;
export type JsonUser = ReturnType<typeof jsonUser>;
export type JsonMember = ReturnType<typeof jsonMember>;
export type JsonDimension = ReturnType<typeof jsonDimension>;
export type JsonBranch = ReturnType<typeof jsonBranch>;
export type JsonTestbed = ReturnType<typeof jsonTestbed>;
export type JsonMeasure = ReturnType<typeof jsonMeasure>;
export type JsonModel = ReturnType<typeof jsonModel>;
export type JsonPlot = ReturnType<typeof jsonPlot>;
export type JsonThreshold = Awaited<ReturnType<ViewLoader['threshold']>>;
export type JsonAlert = Awaited<ReturnType<typeof alertJson>>;
export type JsonPerf = ReturnType<typeof perfJson>;
export type JsonPerfResult = JsonPerf['results'][number];
export type JsonPerfMetric = JsonPerfResult['metrics'][number];
export type JsonKey = ReturnType<typeof keyJson>;
/** Bencher's `JsonAuthUser`: what `POST /v0/auth/confirm` answers, kept by the console as its session. */
export type JsonAuthUser = ReturnType<typeof sessionFor>;

type AnyReport = Awaited<ReturnType<typeof reportJson>>;
/** `GET …/reports/{report}`: with results and alerts. */
export type JsonReport = Extract<AnyReport, { results: unknown }>;
/** An item of `GET …/reports`: counts, but neither results nor alerts. */
export type JsonReportSummary = Exclude<AnyReport, { results: unknown }>;
export type JsonReportResult = JsonReport['results'][number][number];
