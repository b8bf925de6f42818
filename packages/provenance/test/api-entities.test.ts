import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { getJson, type RunningApi, SIMPLE, serveArchive } from './support/fixtures.js';

const COMPUTER = '4f33c6fd-b624-47df-9ffb-a58f05d323af';

describeEachDialect('computers, groups, users and protocol behaviour over HTTP', ({ dialect, url }) => {
  let api: RunningApi;
  beforeEach(async () => {
    api = await serveArchive(SIMPLE, dialect, url());
  });
  afterEach(() => api.stop());
  const get = (path: string, init?: RequestInit) => getJson(`${api.base}/api/v4${path}`, init);

  it('lists and selects computers, groups and users', async () => {
    const computers = await get('/computers?orderby=+id');
    expect(computers.body.data.computers).toEqual([
      {
        description: 'Bellatrix Cluster',
        hostname: 'bellatrix.epfl.ch',
        id: 1,
        label: 'bellatrix',
        metadata: {
          append_text: '',
          default_mpiprocs_per_machine: 16,
          mpirun_command: ['mpirun', '-np', '{tot_num_mpiprocs}'],
          prepend_text: 'module load intelmpi/4.1.3',
          workdir: '/scratch/{username}/aiida_run/',
        },
        scheduler_type: 'core.slurm',
        transport_type: 'ssh',
        uuid: COMPUTER,
      },
    ]);
    expect((await get(`/computers/${COMPUTER}`)).body.id).toBe(COMPUTER);
    expect((await get('/computers/1')).body).toEqual({
      message: "either no object's id starts with '1' or the corresponding object is not of type aiida.orm.Computer",
    });
    expect((await get('/computers?hostname=like="%epfl.ch"')).body.data.computers).toHaveLength(1);
    expect((await get('/computers?name="x"')).body).toEqual({
      message:
        'name is not a column of aliased(DbComputer)\nValid columns are:\npk (alias for id)\nuuid\nlabel\nhostname\ndescription\nscheduler_type\ntransport_type\n_metadata',
    });

    const groups = await get('/groups?orderby=-label');
    expect(groups.body.data.groups.map((g: { label: string }) => g.label)).toEqual([
      'testing4',
      'testing3',
      'testing2',
      'testing1',
    ]);
    expect(groups.body.data.groups[3]).toEqual({
      description: '',
      extras: {},
      id: 50,
      label: 'testing1',
      time: 'Sat, 04 Apr 2020 21:43:47 GMT',
      type_string: 'core',
      user_id: 1,
      uuid: 'bde385c0-c1d5-4c6e-95db-b1b26026c7fc',
    });
    const paged = await get('/groups/page/2?perpage=3');
    expect(paged.body.data.groups.map((g: { id: number }) => g.id)).toEqual([53]);
    expect((await get('/groups?type_string=like="core.%"')).response.headers.get('x-total-count')).toBe('3');

    const users = await get('/users');
    expect(users.body.data.users).toEqual([{ first_name: 'AiiDA', id: 1, institution: '', last_name: 'Daemon' }]);
    const single = await get('/users/1');
    expect([single.body.id, single.body.data.users.length]).toEqual([1, 1]);
    expect((await get('/users?email="aiida@localhost"')).body.data.users).toHaveLength(1);
    expect((await get('/users/abc')).body).toEqual({ message: 'The requested URL is not found on the server.' });
  });

  it('answers projectable_properties and refuses query strings there', async () => {
    for (const resource of ['nodes', 'processes', 'computers', 'users', 'groups']) {
      const { body, response } = await get(`/${resource}/projectable_properties`);
      expect(response.headers.get('x-total-count')).toBe('1');
      for (const field of Object.values(body.data.fields) as Record<string, unknown>[]) {
        expect(Object.keys(field)).toEqual(
          expect.arrayContaining(['display_name', 'help_text', 'is_display', 'is_foreign_key', 'type']),
        );
      }
      for (const name of body.data.ordering) expect(body.data.fields).toHaveProperty([name]);
    }
    expect((await get('/nodes/projectable_properties?limit=1')).body).toEqual({
      message: 'projectable_properties requests do not allow specifying a query string',
    });
  });

  it('implements the pagination and parameter error catalogue', async () => {
    const cases: [string, number, string][] = [
      ['/computers?offset=2&limit=1&perpage=2', 400, 'perpage key is incompatible with limit and offset'],
      ['/computers/page/2?offset=2&limit=1', 400, 'requesting a specific page is incompatible with limit and offset'],
      ['/computers/page/2?offset=2&limit=1&perpage=2', 400, 'perpage key is incompatible with limit and offset'],
      [
        '/computers?perpage=2',
        400,
        'perpage key requires that a page is requested (i.e. the path must contain /page/)',
      ],
      ['/nodes?limit=401', 400, 'Limit and perpage cannot be bigger than 400'],
      ['/nodes?limit="a"', 500, 'Limit value must be an integer'],
      ['/nodes?limit=1&limit=2', 404, 'You cannot specify limit more than once'],
      ['/nodes?orderby>id', 404, "only assignment operator '=' is permitted after 'orderby'"],
      ['/nodes?attributes=yes', 400, 'The attributes filter is false by default and can only be set to true.'],
      ['/nodes?full_type="xyz"', 500, 'full type `xyz` does not include the required concatenator symbol `|`.'],
      [
        '/nodes?ctime=2019-13-45',
        404,
        'time value has wrong format. The right format is <date>T<time><offset>, where <date> is expressed as [YYYY]-[MM]-[DD], <time> is expressed as [HH]:[MM]:[SS], <offset> is expressed as +/-[HH]:[MM] given with respect to UTC',
      ],
      [
        '/nodes?node_type=data.core.dict.Dict.',
        404,
        'The query string format is invalid. Parser returned this massage: "Expected end of text, found \'.\'  (at char 14), (line:1, col:15)." Please notice that the column number is counted from the first character of the query string.',
      ],
      [
        '/nodes?foo=1',
        500,
        'foo is not a column of aliased(DbNode)\nValid columns are:\npk (alias for id)\nuuid\nnode_type\nprocess_type\nlabel\ndescription\nctime\nmtime\nattributes\nextras\nrepository_metadata\ncomputer (alias for dbcomputer_id)\nuser (alias for user_id)',
      ],
      ['/nodes?orderby=-bar', 500, 'bar is not a column of aliased(DbNode)'],
    ];
    for (const [path, status, message] of cases) {
      const { status: actual, body, response } = await get(path);
      expect([path, actual]).toEqual([path, status]);
      expect(body.message.startsWith(message), `${path}: ${body.message}`).toBe(true);
      expect(response.headers.get('x-total-count')).toBeNull();
    }
    const hostile = await get(`/nodes?label="${encodeURIComponent("'; drop table db_dbnode; --")}"`);
    expect([hostile.status, hostile.body.data.nodes]).toEqual([200, []]);
    expect((await get('/nodes')).response.headers.get('x-total-count')).toBe('10');
  });

  it('answers the root, /server/endpoints, HEAD, OPTIONS, CORS, other methods and upper-case reasons', async () => {
    const root = await get('/');
    const endpoints = await get('/server/endpoints');
    expect(root.body.data).toEqual(endpoints.body.data);
    expect(root.body.data.available_endpoints).toHaveLength(46);
    expect(root.body.data.available_endpoints).toContain('querybuilder    POST,GET,OPTIONS,HEAD /api/v4/querybuilder/');
    expect(root.body.resource_type).toBe('Info');

    const head = await fetch(`${api.base}/api/v4/nodes`, { method: 'HEAD' });
    const full = await fetch(`${api.base}/api/v4/nodes`);
    expect(head.status).toBe(200);
    expect(head.headers.get('x-total-count')).toBe('10');
    expect(head.headers.get('content-length')).toBe(String((await full.text()).length));
    expect(await head.text()).toBe('');

    const options = await fetch(`${api.base}/api/v4/nodes/statistics`, { method: 'OPTIONS' });
    expect([options.status, options.headers.get('content-type'), await options.text()]).toEqual([
      200,
      'text/html; charset=utf-8',
      '',
    ]);
    const preflight = await fetch(`${api.base}/api/v4/nodes`, {
      method: 'OPTIONS',
      headers: { origin: 'http://example.com', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://example.com');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT');
    const origin = await fetch(`${api.base}/api/v4/server`, { headers: { origin: 'http://example.com' } });
    expect(origin.headers.get('access-control-allow-origin')).toBe('http://example.com');
    expect(origin.headers.get('vary')).toContain('Origin');
    expect((await fetch(`${api.base}/api/v4/server`)).headers.get('access-control-allow-origin')).toBe('*');

    for (const method of ['POST', 'PUT', 'DELETE']) {
      const other = await get('/nodes', { method });
      expect([method, other.status, other.body.message]).toEqual([
        method,
        404,
        'The requested URL is not found on the server.',
      ]);
    }
    const raw = await rawStatusLine(`${api.base}/api/v4/nodes/ffff`);
    expect(raw).toBe('HTTP/1.1 404 NOT FOUND');
  });

  it('answers the query builder GET with 405 and its envelope', async () => {
    const { status, body, response } = await get('/querybuilder');
    expect(status).toBe(405);
    expect(response.statusText).toBe('METHOD NOT ALLOWED');
    expect(body).toMatchObject({ method: 'GET', resource_type: 'QueryBuilder', path: '/api/v4/querybuilder' });
    expect(body.data.message).toMatch(/^Method Not Allowed\. Use HTTP POST requests/);
  });

  it('honours profile= and per-source prefixes', async () => {
    expect((await getJson(`${api.base}/default/api/v4/nodes/statistics`)).body.data.total).toBe(10);
    expect((await get('/nodes?profile=default')).status).toBe(200);
    const unknown = await get('/computers?profile=elsewhere');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      data: { message: 'specifying an explicit profile is not enabled for this REST API.' },
      resource_type: 'Computer',
    });
  });
});

async function rawStatusLine(url: string): Promise<string> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      resolve(`HTTP/${res.httpVersion} ${res.statusCode} ${res.statusMessage}`);
      res.resume();
    });
    req.on('error', reject);
    req.end();
  });
}
