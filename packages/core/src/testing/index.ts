export { type BrowserSuite, browserSuite } from './browser-suite.js';
export { chromiumAvailable, launchChromium } from './chromium.js';
export { type ContrastProblem, measureContrast } from './contrast.js';
export {
  type CrossOriginPage,
  fetchFromPage,
  type PageAnswer,
  type PageFile,
  serveCrossOriginPage,
} from './cross-origin-page.js';
export { type DialectContext, describeEachDialect } from './dual-dialect.js';
export { expectRidesOutOutage } from './outage-expectations.js';
export * from './support.js';
