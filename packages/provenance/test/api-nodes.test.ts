import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { getJson, type RunningApi, SIMPLE, serveArchive } from './support/fixtures.js';

const CALC = '3b429fd4-601c-4473-add5-7cbb76cf38cb';
const STRUCTURE = '4ff5a907-78a6-4b40-99b4-c69b51f0c3b0';
const KPOINTS = 'c03f49a0-f1b4-4792-bf7b-7a5330074dc1';
const FOLDER = 'f75aaf40-f952-488c-be84-488a183a03d4';
const PARAMETERS = 'e5098e78-8430-4e2d-a494-357686eb63dc';
const ARRAY = '9d73cf46-b8df-4fbb-af66-ac797194c24f';

describeEachDialect('nodes endpoints over HTTP on export_main_0001_simple.aiida', ({ dialect, url }) => {
  let api: RunningApi;
  beforeEach(async () => {
    api = await serveArchive(SIMPLE, dialect, url());
  });
  afterEach(() => api.stop());
  const get = (path: string, init?: RequestInit) => getJson(`${api.base}/api/v4${path}`, init);

  it('lists nodes with the envelope, X-Total-Count, default id order and the 400 default limit', async () => {
    const { status, body, response } = await get('/nodes?limit=2&offset=8&orderby=-id');
    expect(status).toBe(200);
    expect(response.headers.get('x-total-count')).toBe('10');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('access-control-expose-headers')).toBe('X-Total-Count');
    expect(body.data.nodes.map((n: { id: number }) => n.id)).toEqual([28262, 837]);
    expect(body).toMatchObject({
      id: null,
      method: 'GET',
      path: '/api/v4/nodes',
      query_string: 'limit=2&offset=8&orderby=-id',
      resource_type: 'nodes',
      url: `${api.base}/api/v4/nodes?limit=2&offset=8&orderby=-id`,
      url_root: `${api.base}/`,
    });
    expect(Object.keys(body.data.nodes[0])).toEqual([
      'ctime',
      'full_type',
      'id',
      'label',
      'mtime',
      'node_type',
      'process_type',
      'user_id',
      'uuid',
    ]);
    const all = await get('/nodes/');
    expect(all.body.data.nodes.map((n: { id: number }) => n.id)).toEqual([
      837, 28262, 28263, 28264, 28265, 28266, 28267, 28268, 28269, 28270,
    ]);
  });

  it('pages with perpage, Link and page-range errors', async () => {
    const { body, response } = await get('/nodes/page/2?perpage=3&orderby=id');
    expect(body.data.nodes.map((n: { id: number }) => n.id)).toEqual([28264, 28265, 28266]);
    expect(response.headers.get('access-control-expose-headers')).toBe('X-Total-Count,Link');
    const host = api.base.replace('http://', 'http:/');
    expect(response.headers.get('link')).toBe(
      `<${host}/api/v4/nodes/page/1?perpage=3&orderby=id>; rel=prev, <${host}/api/v4/nodes/page/3?perpage=3&orderby=id>; rel=next, <${host}/api/v4/nodes/page/1?perpage=3&orderby=id>; rel=first, <${host}/api/v4/nodes/page/4?perpage=3&orderby=id>; rel=last, `,
    );
    expect((await get('/nodes/page')).body.data.nodes).toHaveLength(10);
    const beyond = await get('/nodes/page/5?perpage=3');
    expect([beyond.status, beyond.body]).toEqual([
      404,
      { message: 'Non existent page requested. The page range is [1 : 4]' },
    ]);
    const notInt = await get('/nodes/page/abc');
    expect(notInt.status).toBe(404);
    expect(notInt.body.available_endpoints).toHaveLength(46);
  });

  it('filters with operators, full_type, dates and pk alias; orders by several columns', async () => {
    const ids = async (query: string) => {
      const { body, status } = await get(`/nodes?${query}`);
      expect(status, JSON.stringify(body)).toBe(200);
      return body.data.nodes.map((n: { id: number }) => n.id);
    };
    expect(await ids('id>=28264&id<28267')).toEqual([28264, 28265, 28266]);
    expect(await ids('pk=837')).toEqual([837]);
    expect(await ids('node_type="data.core.dict.Dict."&orderby=-id')).toEqual([28269, 28263, 28262]);
    expect(await ids('node_type=like="data.core.array%"')).toEqual([28270]);
    expect(await ids('node_type=like="DATA.core.array%"')).toEqual([]);
    expect(await ids('node_type=ilike="DATA.core.array%"')).toEqual([28270]);
    expect(await ids('id=in=837,28270')).toEqual([837, 28270]);
    expect(await ids('id=notin=837,28270&node_type=like="data.core.d%"')).toEqual([28262, 28263, 28269]);
    expect(await ids('label!=""')).toEqual([837, 28266]);
    expect(await ids('full_type="process.%|%"')).toEqual([28266]);
    expect(await ids('full_type="data.core.dict.Dict.|"')).toEqual([28262, 28263, 28269]);
    expect(await ids('ctime=2014-11-03')).toEqual([837]);
    expect(await ids('ctime>2015-06-04T10:59&orderby=-ctime,id')).toEqual([28268, 28269, 28270]);
    expect(await ids('ctime>=2015-06-04T10:59&orderby=-ctime,id')).toEqual([28268, 28269, 28270, 28267]);
    expect(await ids('mtime<=2015-01-01T00:00:00+01:00')).toEqual([]);
    expect(await ids('uuid=like="3b42%"')).toEqual([28266]);
    expect(await ids('user_id=1&limit=1')).toEqual([837]);
  });

  it('adds attributes and extras on request', async () => {
    const one = await get(`/nodes/${KPOINTS}?attributes=true`);
    expect(one.body.data.nodes[0].attributes).toEqual({ mesh: [2, 2, 2], offset: [0, 0, 0] });
    expect(one.body.id).toBe(KPOINTS);
    const filtered = await get('/nodes/page/1?perpage=10&attributes=true&attributes_filter=mesh,remote_path');
    for (const node of filtered.body.data.nodes) expect(Object.keys(node.attributes)).toEqual(['mesh', 'remote_path']);
    const kp = filtered.body.data.nodes.find((n: { uuid: string }) => n.uuid === KPOINTS);
    expect(kp.attributes).toEqual({ mesh: [2, 2, 2], remote_path: null });
    const extras = await get(`/nodes/${CALC}?extras=true&extras_filter=missing`);
    expect(extras.body.data.nodes[0].extras).toEqual({ missing: null });
  });

  it('finds nodes by uuid prefix and reports unknown or ambiguous prefixes', async () => {
    expect((await get('/nodes/3b429fd4')).body.data.nodes[0].uuid).toBe(CALC);
    expect((await get('/nodes/3b429fd4-601c')).body.data.nodes[0].uuid).toBe(CALC);
    expect((await get('/nodes/ffff')).body).toEqual({
      message:
        "either no object's id starts with 'ffff' or the corresponding object is not of type aiida.orm.node.Node",
    });
    expect((await get('/nodes/xyz')).body).toEqual({ message: 'The requested URL is not found on the server.' });
    expect((await get('/nodes/3b429fd4601c4473add57cbb76cf38cb')).status).toBe(404);
    expect((await get(`/nodes/${CALC}?label="x"`)).body).toEqual({
      message: 'selecting a specific id does not allow to specify filters',
    });
  });

  it('serves contents, links, tree, repository and downloads', async () => {
    const attributes = await get(`/nodes/${PARAMETERS}/contents/attributes?attributes_filter=CONTROL`);
    expect(Object.keys(attributes.body.data.attributes)).toEqual(['CONTROL']);
    expect(attributes.response.headers.get('x-total-count')).toBe('1');
    expect((await get(`/nodes/${CALC}/contents/extras`)).body.data).toEqual({ extras: {} });
    expect((await get(`/nodes/${CALC}/contents/comments`)).body.data).toEqual({ comments: [] });
    const derived = await get(`/nodes/${STRUCTURE}/contents/derived_properties`);
    expect(derived.body.data.derived_properties).toEqual({
      dimensionality: { dim: 3, label: 'volume', value: 64 },
      formula: 'BaO3Ti',
    });

    const incoming = await get(`/nodes/${CALC}/links/incoming?orderby=id`);
    expect(incoming.body.data.incoming.map((n: { link_label: string }) => n.link_label)).toEqual([
      'code',
      'parameters',
      'kpoints',
      'structure',
    ]);
    expect(incoming.body.data.incoming[0].link_type).toBe('input_calc');
    const dicts = await get(`/nodes/${CALC}/links/outgoing?node_type="data.core.dict.Dict."`);
    expect(dicts.body.data.outgoing.map((n: { link_label: string }) => n.link_label)).toEqual(['output_parameters']);
    const paged = await get(`/nodes/${CALC}/links/outgoing/page/2?perpage=3`);
    expect(paged.response.headers.get('x-total-count')).toBe('4');
    expect(paged.body.data.outgoing).toHaveLength(1);

    const tree = await get(`/nodes/${CALC}/links/tree?in_limit=1&out_limit=2`);
    expect(tree.body.data.metadata).toEqual([
      { sent_no_of_incomings: 1, sent_no_of_outgoings: 2, total_no_of_incomings: 4, total_no_of_outgoings: 4 },
    ]);
    expect(tree.body.data.nodes[0]).toMatchObject({ id: 28266, node_label: 'Test QE pw.x' });
    expect(tree.body.data.nodes[0].incoming[0]).toMatchObject({ description: 'pw.x@bellatrix', link_label: 'code' });
    expect(tree.response.headers.get('x-total-count')).toBe('0');
    const kpTree = await get(`/nodes/${KPOINTS}/links/tree`);
    expect(kpTree.body.data.nodes[0].description).toBe('Kpoints mesh: 2x2x2 (+0.0,0.0,0.0)');

    const list = await get(`/nodes/${FOLDER}/repo/list?filename="K00001"`);
    expect(list.body.data.repo_list).toEqual([{ name: 'eigenval.xml', type: 'FILE' }]);
    const file = await fetch(`${api.base}/api/v4/nodes/${FOLDER}/repo/contents?filename="K00001/eigenval.xml"`);
    expect(file.headers.get('content-type')).toBe('application/octet-stream');
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="K00001/eigenval.xml"');
    expect(await file.text()).toContain('<?xml');
    expect((await get(`/nodes/${FOLDER}/repo/contents?filename="nope.txt"`)).body).toEqual({
      message: 'No such file is present',
    });
    expect((await get(`/nodes/${FOLDER}/repo/contents`)).status).toBe(400);
    expect((await get(`/nodes/${FOLDER}/repo/list?filename="nope"`)).body).toEqual({
      message: 'object with path `nope` does not exist.',
    });
    expect((await get(`/nodes/${FOLDER}/repo/list?filename="_scheduler-stderr.txt"`)).body).toEqual({
      message: '_scheduler-stderr.txt is not a directory in this repository',
    });

    const xsf = await fetch(`${api.base}/api/v4/nodes/${STRUCTURE}/download?download_format=xsf`);
    expect(xsf.headers.get('content-disposition')).toBe(`attachment; filename="${STRUCTURE}.xsf"`);
    expect(await xsf.text()).toMatch(/^CRYSTAL\nPRIMVEC 1\n/);
    const asJson = await get(`/nodes/${STRUCTURE}/download?download_format=xyz&download=False`);
    expect(asJson.body.data.download).toMatchObject({ filename: `${STRUCTURE}.xyz`, status: 200 });
    expect(asJson.body.data.download.data).toMatch(/^5\nLattice="4.0 0.0 0.0/);
    expect((await get(`/nodes/${STRUCTURE}/download`)).body.message).toMatch(/^Please specify the download format/);
    expect((await get(`/nodes/${STRUCTURE}/download?download_format=pdf`)).body.message).toMatch(
      /^The format pdf is not supported\./,
    );
    expect((await get(`/nodes/${CALC}/download?download_format=xsf`)).status).toBe(501);
    // this archive kept the pre-2.0 node type `data.array.kpoints.KpointsData.`: load_node_class still loads
    // KpointsData through the deprecated entry point name `array.kpoints`, so its `json` export is offered
    expect((await get(`/nodes/${KPOINTS}/download?download_format=json`)).status).toBe(200);
    expect((await get(`/nodes/${PARAMETERS}/download?download_format=json`)).body.message).toMatch(
      /^The format json is not supported\./,
    );
    const doodle = await get(`/nodes/${STRUCTURE}/download?download_format=chemdoodle&download=false`);
    expect(JSON.parse(doodle.body.data.download.data).m[0].a).toHaveLength(5);
    const cif = await get(`/nodes/${STRUCTURE}/download?download_format=cif&download=false`);
    expect(cif.body.data.download.data).toContain('_cell_length_a                          4.0\n');
    expect(cif.body.data.download.data).toContain('         Ti1       0.5       0.5       0.5       Ti \n');
    const array = await get(`/nodes/${ARRAY}/download?download_format=json&download=false`);
    const exported = JSON.parse(array.body.data.download.data);
    // arrays come in attribute order (JSONB reorders keys on PostgreSQL, as for AiiDA itself)
    expect(Object.keys(exported).slice(0, 3).sort()).toEqual(['energy', 'energy_accuracy', 'forces']);
    expect(Object.keys(exported).slice(3)).toEqual(['original_uuid', 'comments']);
    expect([exported.forces[0].length, exported.forces[0][0].length, exported.energy.length]).toEqual([5, 3, 16]);
    expect(exported.original_uuid).toBe(ARRAY);
    expect(exported.comments).toMatch(/^This file has been created with AiiDA v\. 2\.7\.1\n/);
  });

  it('answers statistics, full_types, full_types_count and download_formats', async () => {
    const stats = await get('/nodes/statistics');
    expect(stats.body.data).toEqual({
      ctime_by_day: { '2014-11-03': 1, '2015-06-04': 9 },
      total: 10,
      types: {
        'data.array.kpoints.KpointsData.': 1,
        'data.core.array.ArrayData.': 1,
        'data.core.code.Code.': 1,
        'data.core.dict.Dict.': 3,
        'data.core.folder.FolderData.': 1,
        'data.core.remote.RemoteData.': 1,
        'data.core.structure.StructureData.': 1,
        'process.calculation.calcjob.CalcJobNode.': 1,
      },
    });
    expect((await get('/nodes/statistics?user=2')).body.data).toEqual({ ctime_by_day: {}, total: 0, types: {} });
    expect((await get('/nodes/statistics?label="x"')).body).toEqual({ message: "'user'" });
    const counted = await get('/nodes/full_types_count');
    expect(counted.body.data).toMatchObject({ counter: 10, full_type: 'node.%|', path: 'node' });
    const plain = await get('/nodes/full_types');
    expect(plain.body.data.counter).toBeUndefined();
    expect(plain.body.data.subspaces.map((s: { label: string }) => s.label)).toEqual(['Data', 'Process']);
    const formats = await get('/nodes/download_formats');
    expect(formats.body.data['data.core.structure.StructureData.|']).toEqual(['chemdoodle', 'cif', 'xsf', 'xyz']);
    expect((await get('/nodes/download_formats?full_type="data.core.int.Int.|"')).body.data).toEqual({
      'data.core.int.Int.|': [],
    });
    expect((await get('/nodes/download_formats?full_type="xyz"')).body).toEqual({
      message: 'The full type xyz is invalid.',
    });
  });

  it('answers processes and calcjobs', async () => {
    const report = await get(`/processes/${CALC}/report`);
    expect(report.body).toMatchObject({ data: { logs: [] }, id: CALC, resource_type: 'processes' });
    expect((await get(`/processes/${STRUCTURE}/report`)).body).toEqual({
      message: `node ${STRUCTURE} is not of the required type <class 'aiida.orm.nodes.process.process.ProcessNode'>`,
    });
    expect((await get('/processes/00000000/report')).body).toEqual({
      message: 'no Node found with ID<0>: No result was found',
    });
    const inputs = await get(`/calcjobs/${CALC}/input_files`);
    expect(inputs.body.data.map((e: { name: string }) => e.name)).toEqual([
      '.aiida',
      '.gitignore',
      '_aiidasubmit.sh',
      'aiida.in',
      'out',
      'pseudo',
    ]);
    const outputs = await get(`/calcjobs/${CALC}/output_files?filename=K00002`);
    expect(outputs.body.data).toEqual([{ name: 'eigenval.xml', type: 'FILE' }]);
    expect((await get(`/calcjobs/${STRUCTURE}/input_files`)).status).toBe(404);
  });
});
