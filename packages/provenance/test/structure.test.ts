import { describe, expect, it } from 'vitest';
import { derivedProperties, meshPoints, treeDescription } from '../src/wire/node-types.js';
import {
  dimensionality,
  hillFormula,
  pyFloat,
  structureOf,
  toChemdoodle,
  toCif,
  toXsf,
  toXyz,
} from '../src/wire/structure.js';

const barium = {
  cell: [
    [2, 0, 0],
    [0, 2, 0],
    [0, 0, 2],
  ],
  pbc1: true,
  pbc2: true,
  pbc3: true,
  kinds: [{ name: 'Ba', symbols: ['Ba'], weights: [1] }],
  sites: [{ kind_name: 'Ba', position: [0, 0, 0] }],
};

describe('StructureData exporters and derived properties', () => {
  it('writes the reference XSF byte for byte', () => {
    expect(toXsf(structureOf(barium))).toBe(
      'CRYSTAL\nPRIMVEC 1\n      2.0000000000       0.0000000000       0.0000000000\n      0.0000000000       2.0000000000       0.0000000000\n      0.0000000000       0.0000000000       2.0000000000\nPRIMCOORD 1\n1 1\n56       0.0000000000       0.0000000000       0.0000000000\n',
    );
  });

  it('writes the reference XYZ byte for byte', () => {
    expect(toXyz(structureOf(barium))).toBe(
      '1\nLattice="2.0 0.0 0.0 0.0 2.0 0.0 0.0 0.0 2.0" pbc="True True True"\nBa           0.0000000000       0.0000000000       0.0000000000',
    );
  });

  it('writes the CIF the reference produces for it', () => {
    expect(toCif(structureOf(barium))).toBe(
      "\n##########################################################################\n#               Crystallographic Information Format file\n#               Produced by PyCifRW module\n#\n#  This is a CIF file.  CIF has been adopted by the International\n#  Union of Crystallography as the standard for data archiving and\n#  transmission.\n#\n#  For information on this file format, follow the CIF links at\n#  http://www.iucr.org\n##########################################################################\n\ndata_0\n\nloop_\n  _atom_site_label\n  _atom_site_fract_x\n  _atom_site_fract_y\n  _atom_site_fract_z\n  _atom_site_type_symbol\n         Ba1       0.0       0.0       0.0       Ba \n_cell_angle_alpha                       90.0\n_cell_angle_beta                        90.0\n_cell_angle_gamma                       90.0\n_cell_length_a                          2.0\n_cell_length_b                          2.0\n_cell_length_c                          2.0\nloop_\n  _symmetry_equiv_pos_as_xyz\n         'x, y, z' \n_symmetry_int_tables_number             1\n_symmetry_space_group_name_H-M          'P 1'\n",
    );
  });

  it('writes the ChemDoodle JSON of the unit cell, centred on the origin (aiida-core 2.9)', () => {
    const text = toChemdoodle(structureOf(barium));
    expect(text).toBe(
      '{"s": [{"t": "UnitCell", "i": "s0", "o": [-1.0, -1.0, -1.0], "x": [1.0, -1.0, -1.0], "y": [-1.0, 1.0, -1.0], "z": [-1.0, -1.0, 1.0], "xy": [1.0, 1.0, -1.0], "xz": [1.0, -1.0, 1.0], "yz": [-1.0, 1.0, 1.0], "xyz": [1.0, 1.0, 1.0]}], "m": [{"a": [{"l": "Ba", "x": -1.0, "y": -1.0, "z": -1.0, "atomic_elements_html": "Ba"}]}], "units": "&Aring;"}',
    );
    expect(JSON.parse(text).m[0].a).toHaveLength(1);
  });

  it('derives formula and dimensionality', () => {
    expect(derivedProperties('data.core.structure.StructureData.', barium)).toEqual({
      dimensionality: { dim: 3, label: 'volume', value: 8 },
      formula: 'Ba',
    });
    const ethanol = {
      ...barium,
      pbc3: false,
      kinds: [
        { name: 'C', symbols: ['C'] },
        { name: 'H', symbols: ['H'] },
        { name: 'O', symbols: ['O'] },
      ],
      sites: ['C', 'C', 'H', 'H', 'H', 'H', 'H', 'H', 'O'].map((k) => ({ kind_name: k, position: [0, 0, 0] })),
    };
    expect(hillFormula(structureOf(ethanol))).toBe('C2H6O');
    expect(dimensionality(structureOf(ethanol))).toEqual({ dim: 2, label: 'surface', value: 4 });
  });

  it.each([
    [2, '2.0'],
    [0.5, '0.5'],
    [1e-5, '1e-05'],
    [-3.25, '-3.25'],
  ])('pyFloat(%s) = %s', (x, text) => {
    expect(pyFloat(x)).toBe(text);
  });
});

describe('KpointsData', () => {
  it('lists mesh points z fastest', () => {
    expect(meshPoints([1, 1, 4], [0, 0, 0]).slice(0, 2)).toEqual([
      [0, 0, 0],
      [0, 0, 0.25],
    ]);
  });

  it('describes a mesh as the reference', () => {
    expect(treeDescription('data.core.array.kpoints.KpointsData.', { mesh: [4, 4, 4], offset: [0, 0, 0] }, '')).toBe(
      'Kpoints mesh: 4x4x4 (+0.0,0.0,0.0)',
    );
  });

  it('answers {} for classes without derived properties', () => {
    expect(derivedProperties('data.core.dict.Dict.', { a: 1 })).toEqual({});
  });
});
