// Served as `units.js`: the bench service's compiled `plot/units.js` (see assets.ts).
export * from '../../plot/units.js';
