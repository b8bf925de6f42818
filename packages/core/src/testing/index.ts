export { type DialectContext, describeEachDialect } from './dual-dialect.js';
export * from './support.js';
