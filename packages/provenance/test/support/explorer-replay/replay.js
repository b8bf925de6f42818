// The REST calls aiida-explorer (v0.5.0) makes, in its order, with fetch from this page's own origin
// (../shared/reference/aiida-explorer-calls.md numbers them). `?api_url=` is the explorer's API base.
// Results are rendered and kept in window.replay; body[data-done] marks the end.

const base = new URL(location.href).searchParams.get('api_url');
const calls = [];
window.replay = { calls, rows: [] };

const PROJECT = ['id', 'uuid', 'node_type', 'label', 'ctime', 'mtime'];
const NODE_PATH = {
  entity_type: '',
  orm_base: 'node',
  tag: 'node',
  joining_keyword: null,
  joining_value: null,
  edge_tag: null,
  outerjoin: false,
};

/** GroupsViewer/utils.js buildQuery: the "Find node" table's QueryBuilder body. */
function buildQuery({ types = [], groups = [], offset = 0 } = {}) {
  const nodeFilter =
    types.length === 0
      ? {}
      : types.length === 1
        ? { node_type: { like: types[0] } }
        : { or: types.map((like) => ({ node_type: { like } })) };
  const query = {
    path: [NODE_PATH],
    filters: { node: nodeFilter },
    project: { node: PROJECT },
    project_map: {},
    order_by: [],
    limit: 5000,
    offset,
    distinct: true,
  };
  if (groups.length > 0) {
    query.path.push({
      entity_type: 'group.core',
      orm_base: 'group',
      tag: 'core_1',
      joining_keyword: 'with_node',
      joining_value: 'node',
      edge_tag: 'node--core_1',
      outerjoin: false,
    });
    query.filters.core_1 = { type_string: { like: '%' }, or: groups.map((label) => ({ label })) };
    query.filters['node--core_1'] = {};
    query.project.core_1 = [];
    query.project['node--core_1'] = [];
  }
  return query;
}

/** One call as the explorer sends it (no Accept, no credentials); the answer is kept, parsed when JSON. */
async function call(n, path, read, body) {
  const entry = { n, method: body ? 'POST' : 'GET', path, body: body && JSON.stringify(body), status: 0, ok: false };
  calls.push(entry);
  const init = body ? { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: entry.body } : undefined;
  try {
    const response = await fetch(`${base}${path}`, init);
    entry.status = response.status;
    entry.ok = response.ok;
    const text = await response.text();
    entry.contentType = response.headers.get('content-type');
    entry.data = entry.contentType?.startsWith('application/json') ? JSON.parse(text).data : text;
    entry.read = read(entry.data);
  } catch (error) {
    entry.error = String(error);
    entry.read = entry.error;
  }
  return entry;
}

const count = (list, what) => `${list?.length ?? 0} ${what}`;
const keys = (object) => `${Object.keys(object ?? {}).length} keys`;
const bytes = (text) => `${text.length} bytes`;
const rowsOf = (entry) => (entry.ok ? entry.data.node : []);

async function replay() {
  await call(1, '/users/', (d) => count(d.users, 'users'));
  const formats = await call(2, '/nodes/download_formats/', (d) => count(Object.keys(d), 'types with formats'));
  const groups = await call(3, '/groups', (d) => count(d.groups, 'groups'));

  const table = await call(4, '/querybuilder/', (d) => count(d.node, 'nodes'), buildQuery());
  const rows = rowsOf(table);
  window.replay.rows = rows;
  await call(
    4,
    '/querybuilder/',
    (d) => count(d.node, 'calcjobs'),
    buildQuery({ types: ['process.calculation.calcjob.%'] }),
  );
  await call(
    4,
    '/querybuilder/',
    (d) => count(d.node, 'processes or ints'),
    buildQuery({ types: ['process.%', 'data.core.int.%'] }),
  );
  await call(4, '/querybuilder/', (d) => count(d.node, 'nodes after 5000'), buildQuery({ offset: 5000 }));
  const label = groups.ok ? groups.data.groups[0]?.label : undefined;
  if (label)
    await call(4, '/querybuilder/', (d) => count(d.node, `nodes in ${label}`), buildQuery({ groups: [label] }));

  const root = rows.find((row) => row.node_type.startsWith('process.calculation.calcjob.'));
  if (root) {
    const { uuid } = root;
    await call(5, `/nodes/${uuid}`, (d) => d.nodes[0].node_type);
    await call(6, `/nodes/${uuid}/links/incoming`, (d) => count(d.incoming, 'incoming'));
    await call(6, `/nodes/${uuid}/links/outgoing`, (d) => count(d.outgoing, 'outgoing'));
    for (const part of ['attributes', 'comments', 'extras', 'derived_properties']) {
      await call(7, `/nodes/${uuid}/contents/${part}`, (d) => keys(d[part]));
    }
    const repo = await call(8, `/nodes/${uuid}/repo/list`, (d) => count(d.repo_list, 'entries'));
    const outgoing = await call(9, `/nodes/${uuid}/links/outgoing/`, (d) => count(d.outgoing, 'outgoing'));
    await call(9, `/calcjobs/${uuid}/input_files`, (d) => count(d, 'input files'));
    const output = await call(9, `/calcjobs/${uuid}/output_files`, (d) => count(d, 'output files'));
    const file = repo.ok ? repo.data.repo_list.find((entry) => entry.type === 'FILE') : undefined;
    if (file) await call(12, `/nodes/${uuid}/repo/contents?filename="${encodeURIComponent(file.name)}"`, bytes);
    const retrieved = outgoing.ok ? outgoing.data.outgoing.find((link) => link.link_label === 'retrieved') : undefined;
    const retrievedFile = output.ok ? output.data.find((entry) => entry.type === 'FILE') : undefined;
    if (retrieved && retrievedFile) {
      const name = encodeURIComponent(retrievedFile.name);
      await call(12, `/nodes/${retrieved.uuid}/repo/contents?filename="${name}"`, bytes);
    }
  }

  const offered = (row) => (formats.ok ? (formats.data[`${row.node_type}|`] ?? []) : []);
  const download = (n, row, format) => call(n, `/nodes/${row.uuid}/download?download_format=${format}`, bytes);
  const rich = rows.find((row) => /\.(structure\.StructureData|cif\.CifData)\.$/.test(row.node_type));
  if (rich && offered(rich).includes('cif')) await download(10, rich, 'cif');
  const plotted = rows.find((row) => /\.(array\.bands\.BandsData|upf\.UpfData)\.$/.test(row.node_type));
  if (plotted) await download(11, plotted, 'json');
  const exported = rows.find((row) => offered(row).length > 0);
  if (exported) await download(13, exported, offered(exported)[0]);
}

function cell(row, text) {
  const td = row.insertCell();
  td.textContent = String(text ?? '');
}

function render() {
  document.getElementById('page-origin').textContent = location.origin;
  document.getElementById('api-url').textContent = base;
  const rows = window.replay.rows;
  document.getElementById('node-count').textContent = `${rows.length} nodes loaded`;
  const nodes = document.querySelector('#nodes tbody');
  for (const node of rows) {
    const row = nodes.insertRow();
    for (const key of ['id', 'uuid', 'label', 'node_type', 'ctime']) cell(row, node[key]);
  }
  const list = document.querySelector('#calls tbody');
  for (const entry of calls) {
    const row = list.insertRow();
    if (!entry.ok) row.className = 'failed';
    for (const key of ['n', 'method', 'path', 'status', 'read']) cell(row, entry[key]);
  }
}

replay()
  .catch((error) => {
    window.replay.error = String(error);
  })
  .finally(() => {
    render();
    document.body.dataset.done = 'true';
  });
