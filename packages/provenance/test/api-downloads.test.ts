import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { describeEachDialect } from '@atrium/core/testing';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import REFERENCE from './fixtures/python-reference.json' with { type: 'json' };
import { BANDS, INSTALLED_CODE_UUID, LEGACY_CODE_UUID, makeBandsArchive } from './support/bands-archive.js';
import { getJson, type RunningApi, serveArchive } from './support/fixtures.js';

let archive: string;
beforeAll(async () => {
  archive = await makeBandsArchive();
});
afterAll(() => rmSync(dirname(archive), { recursive: true, force: true }));

describeEachDialect('GET /nodes/<id>/download for BandsData and codes', ({ dialect, url }) => {
  let api: RunningApi;
  beforeEach(async () => {
    api = await serveArchive(archive, dialect, url());
  });
  afterEach(() => api.stop());
  const download = (uuid: string, format: string, asFile = false) =>
    getJson(`${api.base}/api/v4/nodes/${uuid}/download?download_format=${format}${asFile ? '' : '&download=false'}`);

  it.each(['agr_batch', 'dat_blocks', 'dat_multicolumn', 'gnuplot', 'json'])(
    'BandsData %s is the reference export, as JSON envelope and as a file',
    async (format) => {
      for (const name of ['A', 'B'] as const) {
        const { body } = await download(BANDS[name].uuid, format);
        expect(body.data.download).toEqual({
          data: REFERENCE.bands[name][format as 'json'],
          filename: `${BANDS[name].uuid}.${format}`,
          status: 200,
        });
      }
      const file = await download(BANDS.A.uuid, format, true);
      expect(file.response.headers.get('content-disposition')).toBe(`attachment; filename="${BANDS.A.uuid}.${format}"`);
      expect(file.text).toBe(REFERENCE.bands.A[format as 'json']);
    },
  );

  it('answers 400 naming why for the matplotlib and xmgrace formats, 404 for unlisted ones', async () => {
    const png = await download(BANDS.A.uuid, 'mpl_png');
    expect([png.status, png.body.message]).toEqual([
      400,
      'The format mpl_png is not implemented by this server for data.core.array.bands.BandsData.| because it is an image rendered by matplotlib, which this server does not run; implemented formats: agr_batch, dat_blocks, dat_multicolumn, gnuplot, json.',
    ]);
    expect((await download(BANDS.A.uuid, 'agr')).body.message).toContain("because it is AiiDA's xmgrace project");
    expect((await download(BANDS.A.uuid, 'mpl_singlefile')).body.message).toContain('matplotlib plotting script');
    expect((await download(BANDS.A.uuid, 'xsf')).status).toBe(404);
  });

  it('exports codes as PyYAML dumps of their model fields (yaml and yml)', async () => {
    const installed = await download(INSTALLED_CODE_UUID, 'yaml');
    expect(installed.body.data.download.data).toBe(
      "label: pw-7.2\ndescription: Quantum ESPRESSO pw.x 7.2\nuse_double_quotes: false\nwith_mpi: true\nwrap_cmdline_params: false\nprepend_text: 'module load qe/7.2\n\n  export OMP_NUM_THREADS=1'\nappend_text: ''\ndefault_calc_job_plugin: quantumespresso.pw\ncomputer: daint\nfilepath_executable: /opt/qe/bin/pw.x\n",
    );
    const legacy = await download(LEGACY_CODE_UUID, 'yml', true);
    expect(legacy.text).toBe(
      "label: pw.x\ndescription: ''\nuse_double_quotes: false\nwrap_cmdline_params: false\nprepend_text: module load quantum-espresso/5.1.1/intel-15.0.0\nappend_text: ''\ndefault_calc_job_plugin: quantumespresso.pw\n",
    );
    expect(legacy.response.headers.get('content-disposition')).toBe(`attachment; filename="${LEGACY_CODE_UUID}.yml"`);
  });
});
