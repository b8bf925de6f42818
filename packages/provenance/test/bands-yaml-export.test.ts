import { describe, expect, it } from 'vitest';
import { npy } from '../src/archive/npy-writer.js';
import {
  type BandsInput,
  bandsAgrBatch,
  bandsDatBlocks,
  bandsDatMulticolumn,
  bandsGnuplot,
  bandsJson,
} from '../src/wire/bands-export.js';
import { parseNpy } from '../src/wire/npy.js';
import { dumpYaml } from '../src/wire/pyyaml.js';
/** Outputs of AiiDA's exporters and of PyYAML, computed with NumPy 2.4 / PyYAML 6 for these inputs. */
import REFERENCE from './fixtures/python-reference.json' with { type: 'json' };
import { BANDS } from './support/bands-archive.js';

const input = (name: 'A' | 'B'): BandsInput => {
  const b = BANDS[name];
  return {
    uuid: b.uuid,
    label: b.label,
    units: 'eV',
    bands: parseNpy(npy('<f8', b.bands.shape, b.bands.values)),
    kpoints: parseNpy(npy('<f8', b.kpoints.shape, b.kpoints.values)),
    ...(b.cell ? { cell: b.cell } : {}),
    labels: b.labels,
    aiidaVersion: '2.7.1',
  };
};

const EXPORTERS = {
  dat_multicolumn: bandsDatMulticolumn,
  dat_blocks: bandsDatBlocks,
  agr_batch: bandsAgrBatch,
  gnuplot: bandsGnuplot,
  json: bandsJson,
};

describe('BandsData exports', () => {
  it.each((['A', 'B'] as const).flatMap((name) => Object.keys(EXPORTERS).map((format) => [name, format] as const)))(
    'bands %s as %s is byte-identical to the reference',
    (name, format) => {
      expect(EXPORTERS[format as keyof typeof EXPORTERS](input(name))).toBe(
        REFERENCE.bands[name][format as keyof typeof REFERENCE.bands.A],
      );
    },
  );
});

describe("PyYAML's yaml.dump of a string value", () => {
  it.each(REFERENCE.yaml as [string, string][])('%j', (value, expected) => {
    expect(dumpYaml([['key', value]])).toBe(expected);
  });
});
