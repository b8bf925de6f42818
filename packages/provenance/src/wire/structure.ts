/** StructureData (attributes `cell`, `pbc1..3`, `kinds`, `sites`): formula, dimensionality and text exporters. */

type Vector = [number, number, number];

interface Kind {
  name: string;
  symbols: string[];
  weights?: number[];
}

interface Site {
  kind_name: string;
  position: Vector;
}

export interface Structure {
  cell: [Vector, Vector, Vector];
  pbc: [boolean, boolean, boolean];
  kinds: Kind[];
  sites: Site[];
}

const ELEMENTS =
  'H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og'.split(
    ' ',
  );

export function structureOf(attributes: Record<string, unknown>): Structure {
  return {
    cell: (attributes.cell as Structure['cell']) ?? [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
    pbc: [attributes.pbc1 !== false, attributes.pbc2 !== false, attributes.pbc3 !== false],
    kinds: (attributes.kinds as Kind[]) ?? [],
    sites: (attributes.sites as Site[]) ?? [],
  };
}

function symbolOf(structure: Structure, site: Site): string {
  const kind = structure.kinds.find((k) => k.name === site.kind_name);
  if (kind?.symbols.length !== 1) throw new Error('alloys and vacancies cannot be exported');
  return kind.symbols[0] ?? 'X';
}

/** Hill formula (C, H first when carbon is present, else alphabetical), as `StructureData.get_formula()`. */
export function hillFormula(structure: Structure): string {
  const counts = new Map<string, number>();
  for (const site of structure.sites) {
    const kind = structure.kinds.find((k) => k.name === site.kind_name);
    const symbol = kind && kind.symbols.length === 1 ? (kind.symbols[0] ?? '') : `{${kind?.symbols.join('') ?? ''}}`;
    counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
  }
  const symbols = [...counts.keys()].sort();
  const ordered = counts.has('C')
    ? ['C', ...(counts.has('H') ? ['H'] : []), ...symbols.filter((s) => s !== 'C' && s !== 'H')]
    : symbols;
  return ordered.map((s) => `${s}${counts.get(s) === 1 ? '' : counts.get(s)}`).join('');
}

const cross = (a: Vector, b: Vector): Vector => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const dot = (a: Vector, b: Vector) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const norm = (a: Vector) => Math.sqrt(dot(a, a));

export function dimensionality(structure: Structure): { dim: number; label: string; value: number } {
  const periodic = structure.cell.filter((_, i) => structure.pbc[i]);
  const [a, b] = periodic;
  switch (periodic.length) {
    case 3:
      return {
        dim: 3,
        label: 'volume',
        value: Math.abs(dot(structure.cell[0], cross(structure.cell[1], structure.cell[2]))),
      };
    case 2:
      return { dim: 2, label: 'surface', value: a && b ? norm(cross(a, b)) : 0 };
    case 1:
      return { dim: 1, label: 'length', value: a ? norm(a) : 0 };
    default:
      return { dim: 0, label: '', value: 0 };
  }
}

const f18 = (x: number) => x.toFixed(10).padStart(18);

/** Python's `str(float)`. */
export function pyFloat(x: number): string {
  if (Object.is(x, -0)) return '-0.0';
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return `${x}.0`;
  const abs = Math.abs(x);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e16)) {
    const [mantissa, exponent = '0'] = x.toExponential().split('e');
    const e = Number(exponent);
    return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  return String(x);
}

export function toXsf(structure: Structure): string {
  let out = 'CRYSTAL\nPRIMVEC 1\n';
  for (const vector of structure.cell) out += `${vector.map(f18).join(' ')}\n`;
  out += `PRIMCOORD 1\n${structure.sites.length} 1\n`;
  for (const site of structure.sites) {
    const z = ELEMENTS.indexOf(symbolOf(structure, site)) + 1;
    out += `${z} ${site.position.map(f18).join(' ')}\n`;
  }
  return out;
}

export function toXyz(structure: Structure): string {
  const lattice = structure.cell.flat().map(pyFloat).join(' ');
  const pbc = structure.pbc.map((p) => (p ? 'True' : 'False')).join(' ');
  const lines = [String(structure.sites.length), `Lattice="${lattice}" pbc="${pbc}"`];
  for (const site of structure.sites) {
    lines.push(`${symbolOf(structure, site).padEnd(6)} ${site.position.map(f18).join(' ')}`);
  }
  return lines.join('\n');
}

const CIF_BANNER = `
##########################################################################
#               Crystallographic Information Format file
#               Produced by PyCifRW module
#
#  This is a CIF file.  CIF has been adopted by the International
#  Union of Crystallography as the standard for data archiving and
#  transmission.
#
#  For information on this file format, follow the CIF links at
#  http://www.iucr.org
##########################################################################
`;

function reciprocalRows(m: [Vector, Vector, Vector]): [Vector, Vector, Vector] {
  const [a, b, c] = m;
  const det = dot(a, cross(b, c));
  // Rows are the reciprocal vectors over 2π: fractional coordinate i = position · row i.
  return [cross(b, c), cross(c, a), cross(a, b)].map((v) => v.map((x) => x / det)) as [Vector, Vector, Vector];
}

const angle = (u: Vector, v: Vector) => (Math.acos(dot(u, v) / (norm(u) * norm(v))) * 180) / Math.PI;
const cifItem = (key: string, value: string) => `${key.padEnd(40)}${value}\n`;

/** A P1 CIF of the structure in the layout ASE + PyCifRW produce (fractional coordinates, cell parameters). */
export function toCif(structure: Structure): string {
  const [a, b, c] = structure.cell;
  const reciprocal = reciprocalRows(structure.cell);
  const counts = new Map<string, number>();
  let out = `${CIF_BANNER}\ndata_0\n\nloop_\n  _atom_site_label\n  _atom_site_fract_x\n  _atom_site_fract_y\n  _atom_site_fract_z\n  _atom_site_type_symbol\n`;
  for (const site of structure.sites) {
    const symbol = symbolOf(structure, site);
    const n = (counts.get(symbol) ?? 0) + 1;
    counts.set(symbol, n);
    const fractional = reciprocal.map((r) => pyFloat(Math.round(dot(r, site.position) * 1e12) / 1e12 + 0));
    out += `  ${[`${symbol}${n}`, ...fractional].map((v) => v.padStart(10)).join('')}${symbol.padStart(9)} \n`;
  }
  out += cifItem('_cell_angle_alpha', pyFloat(angle(b, c)));
  out += cifItem('_cell_angle_beta', pyFloat(angle(a, c)));
  out += cifItem('_cell_angle_gamma', pyFloat(angle(a, b)));
  out += cifItem('_cell_length_a', pyFloat(norm(a)));
  out += cifItem('_cell_length_b', pyFloat(norm(b)));
  out += cifItem('_cell_length_c', pyFloat(norm(c)));
  out += "loop_\n  _symmetry_equiv_pos_as_xyz\n         'x, y, z' \n";
  out += cifItem('_symmetry_int_tables_number', '1');
  out += cifItem('_symmetry_space_group_name_H-M', "'P 1'");
  return out;
}

/** `StructureData._prepare_chemdoodle` (supercell 1×1×1): `json.dumps` of the unit cell and the atoms. */
export function toChemdoodle(structure: Structure): string {
  const [a, b, c] = structure.cell;
  const vector = (v: number[]) => `[${v.map(pyFloat).join(', ')}]`;
  const sum = (...vs: Vector[]) => [0, 1, 2].map((i) => vs.reduce((s, v) => s + (v[i] ?? 0), 0));
  // aiida-core 2.9 centres the cell on the origin: corners and atoms are shifted by half the cell diagonal.
  const centre = sum(a, b, c).map((x) => x / 2);
  const shifted = (v: number[]) => [0, 1, 2].map((i) => (v[i] ?? 0) - (centre[i] ?? 0));
  const atoms = structure.sites.map((site) => {
    const kind = structure.kinds.find((k) => k.name === site.kind_name);
    const symbols = kind?.symbols.join('') ?? site.kind_name;
    const [x, y, z] = shifted(site.position).map(pyFloat);
    return `{"l": ${JSON.stringify(symbols)}, "x": ${x}, "y": ${y}, "z": ${z}, "atomic_elements_html": ${JSON.stringify(symbols)}}`;
  });
  const cell = [
    `"t": "UnitCell"`,
    `"i": "s0"`,
    `"o": ${vector(shifted([0, 0, 0]))}`,
    `"x": ${vector(shifted(a))}`,
    `"y": ${vector(shifted(b))}`,
    `"z": ${vector(shifted(c))}`,
    `"xy": ${vector(shifted(sum(a, b)))}`,
    `"xz": ${vector(shifted(sum(a, c)))}`,
    `"yz": ${vector(shifted(sum(b, c)))}`,
    `"xyz": ${vector(shifted(sum(a, b, c)))}`,
  ];
  return `{"s": [{${cell.join(', ')}}], "m": [{"a": [${atoms.join(', ')}]}], "units": "&Aring;"}`;
}
