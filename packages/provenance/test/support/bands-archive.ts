import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipArchive } from '../../src/archive/make-archive.js';
import { npy } from '../../src/archive/npy-writer.js';
import { AiidaSqliteWriter, type NodeRow } from '../../src/archive/sqlite-writer.js';

/** Two BandsData nodes (one with a cell and labels, one spin-polarised without either) and two codes. */
export const BANDS = {
  A: {
    id: 1,
    uuid: 'a1b2c3d4-0000-4000-8000-000000000001',
    label: 'bands',
    bands: {
      shape: [6, 3],
      values: [-1.5, 0.25, 3, -1.25, 0.5, 2.875, -1, 0.75, 2.5, -0.5, 1, 2.25, -0.3, 1.2, 2.1, -0.125, 1.5, 2],
    },
    kpoints: { shape: [6, 3], values: [0, 0, 0, 0.25, 0, 0, 0.5, 0, 0, 0.5, 0.5, 0, 0.5, 0.25, 0.25, 0.5, 0.5, 0.5] },
    cell: [
      [2, 0, 0],
      [0, 3, 0],
      [0.5, 0, 4],
    ],
    labels: [
      [0, 'GAMMA'],
      [2, 'X'],
      [3, 'Y'],
      [5, 'SIGMA_1'],
    ] as [number, string][],
  },
  B: {
    id: 2,
    uuid: 'a1b2c3d4-0000-4000-8000-000000000002',
    label: 'spin',
    bands: { shape: [2, 2, 2], values: [1, 2, 1.5, 2.5, 1.1, 2.1, 1.6, 2.6] },
    kpoints: { shape: [2, 3], values: [0, 0, 0, 0.1, 0.2, 0.3] },
    cell: undefined,
    labels: [] as [number, string][],
  },
};

export const INSTALLED_CODE_UUID = 'c0de0000-0000-4000-8000-000000000003';
export const LEGACY_CODE_UUID = 'c0de0000-0000-4000-8000-000000000004';
const NOW = '2026-01-01 00:00:00.000000';

function node(id: number, uuid: string, nodeType: string, label: string, attributes: Record<string, unknown>) {
  return {
    id,
    uuid,
    node_type: nodeType,
    process_type: null,
    label,
    description: '',
    ctime: NOW,
    mtime: NOW,
    attributes,
    extras: {},
    repository_metadata: {},
    dbcomputer_id: null,
    user_id: 1,
  } satisfies NodeRow;
}

/** Writes the archive (`main_0001`) into a fresh temporary directory and returns its path. */
export async function makeBandsArchive(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-bands-'));
  const dbPath = join(dir, 'db.sqlite3');
  const objects = new Map<string, Buffer>();
  const store = (content: Buffer) => {
    const key = createHash('sha256').update(content).digest('hex');
    objects.set(key, content);
    return { k: key };
  };
  const writer = await AiidaSqliteWriter.create(dbPath);
  writer.transaction(() => {
    writer.user({ id: 1, email: 'aiida@localhost', first_name: 'AiiDA', last_name: 'Daemon', institution: '' });
    writer.computer({
      id: 1,
      uuid: 'c0c0c0c0-0000-4000-8000-000000000001',
      label: 'daint',
      hostname: 'daint.cscs.ch',
      description: '',
      scheduler_type: 'core.slurm',
      transport_type: 'core.ssh',
      metadata: {},
    });
    for (const b of Object.values(BANDS)) {
      const attributes: Record<string, unknown> = {
        'array|bands': b.bands.shape,
        'array|kpoints': b.kpoints.shape,
        units: 'eV',
        ...(b.cell ? { cell: b.cell, pbc1: true, pbc2: true, pbc3: true } : {}),
        ...(b.labels.length ? { label_numbers: b.labels.map(([i]) => i), labels: b.labels.map(([, l]) => l) } : {}),
      };
      const row = node(b.id, b.uuid, 'data.core.array.bands.BandsData.', b.label, attributes);
      row.repository_metadata = {
        o: {
          'bands.npy': store(npy('<f8', b.bands.shape, b.bands.values)),
          'kpoints.npy': store(npy('<f8', b.kpoints.shape, b.kpoints.values)),
        },
      };
      writer.node(row);
    }
    const code = node(3, INSTALLED_CODE_UUID, 'data.core.code.installed.InstalledCode.', 'pw-7.2', {
      filepath_executable: '/opt/qe/bin/pw.x',
      input_plugin: 'quantumespresso.pw',
      prepend_text: 'module load qe/7.2\nexport OMP_NUM_THREADS=1',
      append_text: '',
      use_double_quotes: false,
      with_mpi: true,
    });
    writer.node({ ...code, description: 'Quantum ESPRESSO pw.x 7.2', dbcomputer_id: 1 });
    const legacy = node(4, LEGACY_CODE_UUID, 'data.core.code.Code.', 'pw.x', {
      is_local: false,
      input_plugin: 'quantumespresso.pw',
      remote_exec_path: '/ssoft/quantum-espresso/bin/pw.x',
      prepend_text: 'module load quantum-espresso/5.1.1/intel-15.0.0',
      append_text: '',
    });
    writer.node({ ...legacy, dbcomputer_id: 1 });
  });
  writer.close();
  const path = join(dir, 'bands.aiida');
  await zipArchive(path, dbPath, objects);
  return path;
}
