import { type Field, field, required } from './fields.js';
import type { Action, Group } from './resource-command.js';

/** Every resource subcommand of `atrium bench`, as data: method, path, positionals and option → field. */

const P = '/v0/projects/{project}';
const name = field('name');
const slug = field('slug');
const search = field('search');
const archived = field('archived', 'flag');
const hard = [field('hard', 'flag')];
const archive = field('archive', 'archive');

const item = (path: string, args: readonly string[], extra: Partial<Action> = {}): Action => ({
  method: 'GET',
  path,
  args,
  ...extra,
});

/** list / create / view / update / delete of a collection and its items. */
function crud(
  collection: string,
  param: string,
  parentArgs: readonly string[],
  spec: {
    list?: readonly Field[];
    create?: readonly Field[];
    update?: readonly Field[];
    view?: readonly Field[];
    createNested?: Action['nested'];
    updateNested?: Action['nested'];
    auth?: { create?: boolean; update?: boolean };
  },
): Group {
  const itemPath = `${collection}/{${param}}`;
  const itemArgs = [...parentArgs, param];
  return {
    list: item(collection, parentArgs, { query: spec.list ?? [name, search], list: true }),
    create: {
      method: 'POST',
      path: collection,
      args: parentArgs,
      body: spec.create ?? [required('name'), slug],
      ...(spec.createNested ? { nested: spec.createNested } : {}),
      auth: spec.auth?.create ?? false,
    },
    view: item(itemPath, itemArgs, { query: spec.view ?? [] }),
    update: {
      method: 'PATCH',
      path: itemPath,
      args: itemArgs,
      body: spec.update ?? [name, slug, archive],
      ...(spec.updateNested ? { nested: spec.updateNested } : {}),
      auth: spec.auth?.update ?? false,
    },
    delete: { method: 'DELETE', path: itemPath, args: itemArgs, auth: true },
  };
}

const startPoint = [
  field('start-point-branch', 'string', { name: 'branch' }),
  field('start-point-hash', 'string', { name: 'hash' }),
  field('start-point-max-versions', 'integer', { name: 'max_versions' }),
  field('start-point-clone-thresholds', 'flag', { name: 'clone_thresholds' }),
];

const model = [
  field('min-sample-size', 'elided-number'),
  field('max-sample-size', 'elided-number'),
  field('window', 'elided-number'),
  field('lower-boundary', 'elided-number'),
  field('upper-boundary', 'elided-number'),
];

const keys = (parent: string, param: string): Group => ({
  list: item(`${parent}/keys`, [param], { query: [name, search, field('revoked', 'flag')], list: true, auth: true }),
  create: {
    method: 'POST',
    path: `${parent}/keys`,
    args: [param],
    body: [required('name'), field('ttl', 'integer')],
    auth: true,
  },
  view: item(`${parent}/keys/{key}`, [param, 'key'], { auth: true }),
  update: { method: 'PATCH', path: `${parent}/keys/{key}`, args: [param, 'key'], body: [name], auth: true },
  revoke: { method: 'DELETE', path: `${parent}/keys/{key}`, args: [param, 'key'], auth: true },
});

const allowed = (path: string, param: string): Action =>
  item(`${path}/allowed/{permission}`, [param], { optionParams: { permission: 'perm' }, auth: true });

const ORG = '/v0/organizations/{organization}';

export const RESOURCES: Group = {
  organization: {
    list: item('/v0/organizations', [], { query: [name, search], list: true, auth: true }),
    create: { method: 'POST', path: '/v0/organizations', args: [], body: [required('name'), slug], auth: true },
    view: item(ORG, ['organization'], { auth: true }),
    delete: { method: 'DELETE', path: ORG, args: ['organization'], query: hard, auth: true },
    update: {
      method: 'PATCH',
      path: ORG,
      args: ['organization'],
      body: [name, slug, field('license', 'elided')],
      auth: true,
    },
    claim: { method: 'POST', path: `${ORG}/claim`, args: ['organization'], body: [], auth: true },
    allowed: allowed(ORG, 'organization'),
    usage: item(`${ORG}/usage`, ['organization'], { auth: true }),
  },
  member: {
    list: item(`${ORG}/members`, ['organization'], { query: [name, search], list: true, auth: true }),
    invite: {
      method: 'POST',
      path: `${ORG}/members`,
      args: ['organization'],
      body: [name, required('email'), required('role')],
      auth: true,
    },
    view: item(`${ORG}/members/{user}`, ['organization', 'user'], { auth: true }),
    update: {
      method: 'PATCH',
      path: `${ORG}/members/{user}`,
      args: ['organization', 'user'],
      body: [field('role')],
      auth: true,
    },
    remove: { method: 'DELETE', path: `${ORG}/members/{user}`, args: ['organization', 'user'], auth: true },
  },
  auth: {
    accept: { method: 'POST', path: '/v0/auth/accept', args: ['invite'], bodyArgs: ['invite'], auth: true },
  },
  project: {
    list: [
      item('/v0/projects', [], { query: [name, search], list: true }),
      item(`${ORG}/projects`, ['organization'], { query: [name, search], list: true }),
    ],
    create: {
      method: 'POST',
      path: `${ORG}/projects`,
      args: ['organization'],
      body: [required('name'), slug, field('url'), field('visibility')],
      auth: true,
    },
    view: item(P, ['project']),
    update: {
      method: 'PATCH',
      path: P,
      args: ['project'],
      body: [name, slug, field('url', 'elided'), field('visibility')],
      auth: true,
    },
    delete: { method: 'DELETE', path: P, args: ['project'], query: hard, auth: true },
    allowed: allowed(P, 'project'),
    key: keys(P, 'project'),
  },
  branch: crud(`${P}/branches`, 'branch', ['project'], {
    list: [name, search, archived],
    view: [field('head')],
    createNested: { start_point: startPoint },
    updateNested: { start_point: [...startPoint, field('start-point-reset', 'flag', { name: 'reset' })] },
  }),
  testbed: crud(`${P}/testbeds`, 'testbed', ['project'], {
    list: [name, search, archived],
    create: [required('name'), slug, field('spec')],
    update: [name, slug, field('spec', 'elided'), archive],
    view: [field('spec')],
  }),
  benchmark: crud(`${P}/benchmarks`, 'benchmark', ['project'], { list: [name, search, archived] }),
  measure: crud(`${P}/measures`, 'measure', ['project'], {
    list: [name, search, archived],
    create: [required('name'), slug, required('units')],
    update: [name, slug, field('units'), archive],
  }),
  metric: { view: item(`${P}/metrics/{metric}`, ['project', 'metric']) },
  threshold: {
    list: item(`${P}/thresholds`, ['project'], {
      query: [field('branch'), field('testbed'), field('measure'), archived],
      list: true,
    }),
    create: {
      method: 'POST',
      path: `${P}/thresholds`,
      args: ['project'],
      projectOption: true,
      body: [required('branch'), required('testbed'), required('measure'), required('test'), ...model],
    },
    view: item(`${P}/thresholds/{threshold}`, ['project', 'threshold'], { query: [field('model')] }),
    update: {
      method: 'PUT',
      path: `${P}/thresholds/{threshold}`,
      args: ['project', 'threshold'],
      body: [field('test'), ...model, field('remove-model', 'flag')],
      finish: (body) => (body.remove_model ? { test: null } : body),
    },
    delete: { method: 'DELETE', path: `${P}/thresholds/{threshold}`, args: ['project', 'threshold'], auth: true },
  },
  alert: {
    list: item(`${P}/alerts`, ['project'], { query: [field('status'), archived], list: true }),
    view: item(`${P}/alerts/{alert}`, ['project', 'alert']),
    update: { method: 'PATCH', path: `${P}/alerts/{alert}`, args: ['project', 'alert'], body: [field('status')] },
  },
  report: {
    list: item(`${P}/reports`, ['project'], {
      query: [
        field('branch'),
        field('testbed'),
        field('start-time', 'integer', { scale: 1000 }),
        field('end-time', 'integer', { scale: 1000 }),
        archived,
        field('expand', 'flag'),
      ],
      list: true,
    }),
    create: {
      method: 'POST',
      path: `${P}/reports`,
      args: ['project'],
      body: [
        required('branch'),
        field('hash'),
        required('testbed'),
        required('start-time'),
        required('end-time'),
        required('results', 'list'),
      ],
      nested: {
        settings: [field('adapter'), field('average'), field('fold')],
        start_point: [...startPoint, field('start-point-reset', 'flag', { name: 'reset' })],
      },
    },
    view: item(`${P}/reports/{report}`, ['project', 'report']),
    delete: { method: 'DELETE', path: `${P}/reports/{report}`, args: ['project', 'report'], auth: true },
  },
  plot: crud(`${P}/plots`, 'plot', ['project'], {
    list: [field('title'), search],
    create: [
      field('index', 'integer'),
      field('title'),
      field('lower-value', 'boolean'),
      field('upper-value', 'boolean'),
      field('lower-boundary', 'boolean'),
      field('upper-boundary', 'boolean'),
      required('x-axis'),
      field('y-axis'),
      required('window', 'integer'),
      required('branches', 'list'),
      required('testbeds', 'list'),
      required('benchmarks', 'list'),
      required('measures', 'list'),
    ],
    update: [field('index', 'integer'), field('title', 'elided'), field('window', 'integer')],
    auth: { create: true, update: true },
  }),
  user: {
    list: item('/v0/users', [], { query: [name, search], list: true, auth: true }),
    view: item('/v0/users/{user}', ['user'], { auth: true }),
    update: {
      method: 'PATCH',
      path: '/v0/users/{user}',
      args: ['user'],
      body: [name, slug, field('email'), field('admin', 'boolean'), field('locked', 'boolean')],
      auth: true,
    },
    key: keys('/v0/users/{user}', 'user'),
  },
  token: {
    list: item('/v0/users/{user}/tokens', ['user'], {
      query: [name, search, field('revoked', 'flag')],
      list: true,
      auth: true,
    }),
    create: {
      method: 'POST',
      path: '/v0/users/{user}/tokens',
      args: ['user'],
      body: [required('name'), field('ttl', 'integer')],
      auth: true,
    },
    view: item('/v0/users/{user}/tokens/{token}', ['user', 'token'], { auth: true }),
    update: {
      method: 'PATCH',
      path: '/v0/users/{user}/tokens/{token}',
      args: ['user', 'token'],
      body: [name],
      auth: true,
    },
    revoke: { method: 'DELETE', path: '/v0/users/{user}/tokens/{token}', args: ['user', 'token'], auth: true },
  },
  server: {
    version: item('/v0/server/version', []),
    spec: item('/v0/server/spec', []),
    config: {
      view: item('/v0/server/config', [], { auth: true }),
      console: item('/v0/server/config/console', []),
    },
    backup: {
      method: 'POST',
      path: '/v0/server/backup',
      args: [],
      body: [field('compress', 'flag'), field('data-store'), field('remove', 'flag')],
      auth: true,
    },
  },
};
