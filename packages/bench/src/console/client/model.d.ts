// Served as `model.js`: the bench service's compiled `boundary/model.js` (see assets.ts).
export * from '../../boundary/model.js';
