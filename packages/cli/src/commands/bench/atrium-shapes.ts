// Atrium's documented extension fields, accepted by `--strict` on top of Bencher's shapes (an Atrium server
// adds them only where Bencher's own answer has nothing to say: a Bencher server never sends them).
import { SHAPES } from './shapes.js';
import type { Shape, ShapeTable } from './strict.js';

const EXTENSIONS: Readonly<Record<string, Readonly<Record<string, null>>>> = {
  /** An alert of a `change_point` threshold: the change it found. */
  JsonAlert: { change_point: null },
  /** A perf series with change points. */
  JsonPerfMetrics: { change_points: null },
  /** A report's measures that no threshold guards on its branch and testbed. */
  JsonReport: { no_threshold: null },
};

export const STRICT_SHAPES: ShapeTable = Object.fromEntries(
  Object.entries(SHAPES).map(([name, shape]): [string, Shape] => [
    name,
    EXTENSIONS[name] ? { ...shape, fields: { ...shape.fields, ...EXTENSIONS[name] } } : shape,
  ]),
);
