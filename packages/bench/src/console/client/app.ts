// The console's router: every page is a full page load; the path picks the page, the query string holds its state.
import type { JsonAuthUser, JsonKey, JsonOrganization, JsonProject } from '../../wire/types.js';
import { allowed, api, failure, get, session, watchExpiry } from './api.js';
import { confirmPage, loginPage, logoutPage, oauthReturnPage, signupPage } from './auth.js';
import { $, h, notify, params, show, uri } from './dom.js';
import {
  alertBadge,
  alertPage,
  alertsPage,
  copy,
  copyButton,
  DIMENSIONS,
  keysPage,
  notFoundPage,
  projectNav,
  reportPage,
  reportsPage,
  tokensPage,
} from './pages.js';
import { embedPage, perfPage } from './perf.js';

function sessionNav() {
  const user = session();
  show(
    user
      ? h`<a href="/console">Console</a><a href="${uri`/console/users/${user.user.slug}/settings`}">${user.user.name}</a><a href="/auth/logout">Log out</a>`
      : h`<a href="/auth/login">Log in</a><a href="/auth/signup">Sign up</a>`,
    $('#session'),
  );
}

async function projectsPage(list: string, title: string) {
  const search = params().get('search') ?? '';
  const reply = await get<JsonProject[]>(`${list}?per_page=50${search ? `&search=${encodeURIComponent(search)}` : ''}`);
  const base = list.startsWith('/v0/organizations') ? '/console/projects' : '/perf';
  show(
    h`<section><h2>${title}</h2><form class="row"><label>Search <input type="search" name="search" value="${search}"></label><button>Search</button></form>${
      reply.ok && reply.data.length
        ? h`<ul data-testid="projects">${reply.data.map((p) => h`<li><a href="${base}${uri`/${p.slug}`}${base === '/perf' ? '' : '/plots'}">${p.name}</a> <span class="muted">${p.visibility}</span></li>`)}</ul>`
        : h`<p class="muted">No projects found.</p>`
    }</section>`,
  );
}

const organizationNav = (org: string) =>
  h`<nav class="row" aria-label="Organization"><strong>${org}</strong>${['projects', 'members', 'settings'].map(
    (page) =>
      h`<a href="${uri`/console/organizations/${org}/${page}`}">${page.charAt(0).toUpperCase() + page.slice(1)}</a>`,
  )}</nav>`;

const newProjectForm = () =>
  h`<form id="new-project" class="row"><label>Name <input name="name" required maxlength="64"></label>
<label>Visibility <select name="visibility"><option>public</option><option>private</option></select></label><button class="primary">Create project</button></form>`;

/** Creates a project in `org` from the `#new-project` form, then opens it. */
function wireNewProject(org: string) {
  $<HTMLFormElement>('#new-project').onsubmit = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const done = await api<JsonProject>('POST', uri`/v0/organizations/${org}/projects`, {
      name: form.get('name'),
      visibility: form.get('visibility'),
    });
    if (!done.ok) return notify(`Failed to create the project: ${failure(done)}`, 'error');
    location.href = uri`/console/projects/${done.data.slug}/plots?notify_text=${`Project created. Send it results: npx atrium bench run --project ${done.data.slug} …`}`;
  };
}

async function orgProjectsPage(org: string) {
  await projectsPage(uri`/v0/organizations/${org}/projects`, 'Projects');
  $('#app').insertAdjacentHTML('afterbegin', organizationNav(org).markup);
  $('#app').insertAdjacentHTML('beforeend', h`<section><h2>New project</h2>${newProjectForm()}</section>`.markup);
  wireNewProject(org);
}

/** The command that sends a project results from a machine, with this server as host. */
const runCommand = (key: string, project = 'my-project') =>
  `npx atrium bench run --host ${location.origin} --key ${key} --project ${project} "your benchmark command"`;

/**
 * What a new user does next: create a project here, or send results with `atrium bench run` (which creates the
 * project on the fly) — with a key made here for the command, shown once.
 */
function firstSteps(org: JsonOrganization, user: JsonAuthUser) {
  show(
    h`<section data-testid="first-steps"><h2>Get started</h2><p>${org.name} has no projects yet. Either create one here:</p>${newProjectForm()}
<p>or send results from your machine or CI: <code>atrium bench run</code> creates the project on the fly. It needs an API key:</p>
<p><button type="button" class="primary" id="command-key">Create a key for the command</button></p>
<pre data-testid="run-command">${runCommand('<your key>')}</pre><div id="command"></div></section>`,
    $('#projects'),
  );
  wireNewProject(org.slug);
  $('#command-key').onclick = async () => {
    const done = await api<JsonKey & { key: string }>('POST', uri`/v0/users/${user.user.slug}/keys`, {
      name: 'atrium bench run',
    });
    if (!done.ok) return notify(`Failed to create the key: ${failure(done)}`, 'error');
    const command = runCommand(done.data.key);
    show(
      h`<p class="notice" role="status">Your key is in this command; it is shown only this once (your keys: <a href="${uri`/console/users/${user.user.slug}/keys`}">API keys</a>).</p><pre data-testid="run-command-key">${command}</pre>${copyButton(command, 'Copy the command')}`,
      $('#command'),
    );
  };
  $('#projects').addEventListener('click', copy);
}

async function consoleHome(user: JsonAuthUser) {
  const orgs = await get<JsonOrganization[]>('/v0/organizations?per_page=50');
  const list = orgs.ok ? orgs.data : [];
  show(
    h`<section><h2>Organizations</h2><ul data-testid="organizations">${list.map(
      (o) =>
        h`<li><a href="${uri`/console/organizations/${o.slug}/projects`}">${o.name}</a> · <a href="${uri`/console/organizations/${o.slug}/members`}">Members</a> · <a href="${uri`/console/organizations/${o.slug}/settings`}">Settings</a></li>`,
    )}</ul><p><a href="${uri`/console/users/${user.user.slug}/keys`}">Your API keys</a></p></section><div id="projects"></div>`,
  );
  const [only] = list;
  if (list.length !== 1 || !only) return;
  const reply = await get<JsonProject[]>(uri`/v0/organizations/${only.slug}/projects?per_page=50`);
  const projects = reply.ok ? reply.data : [];
  if (!projects.length) return firstSteps(only, user);
  show(
    h`<section><h2>Projects</h2><ul data-testid="projects">${projects.map((p) => h`<li><a href="${uri`/console/projects/${p.slug}/plots`}">${p.name}</a></li>`)}</ul></section>`,
    $('#projects'),
  );
}

/** `/console/organizations`: the user's organizations. */
async function organizationsPage() {
  const orgs = await get<JsonOrganization[]>('/v0/organizations?per_page=255');
  show(
    h`<section><h2>Organizations</h2>${
      orgs.ok && orgs.data.length
        ? h`<ul data-testid="organizations">${orgs.data.map((o) => h`<li><a href="${uri`/console/organizations/${o.slug}/projects`}">${o.name}</a></li>`)}</ul>`
        : h`<p class="muted">You belong to no organization.</p>`
    }</section>`,
  );
}

/** Pages of one project, public (`/perf/{p}/…`) or in the console (`/console/projects/{p}/…`). */
async function projectPages(slug: string, rest: (string | undefined)[], console: boolean) {
  const reply = await get<JsonProject>(uri`/v0/projects/${slug}`);
  if (!reply.ok) return notFoundPage();
  const project = reply.data;
  document.title = `📈 ${project.name} · Atrium bench`;
  const base = console ? uri`/console/projects/${project.slug}` : uri`/perf/${project.slug}`;
  const [kind, id, action] = rest;
  if (console && kind === undefined) return location.replace(`${base}/plots`);
  // The perf page asks for its data first and checks its own permission.
  if ((!console && kind === undefined) || kind === 'perf') return perfPage(project, base, console);
  if (!console && kind === 'embed') return embedPage(project);
  const editable = Boolean(session()) && (await allowed(uri`/v0/projects/${project.slug}/allowed/edit`));
  show(h`${projectNav(project, base, console)}<div id="content"></div>`);
  alertBadge(project);
  if (kind === 'plots') return (await import('./dashboard.js')).dashboardPage(project, base, editable, id);
  if (kind === 'reports') return id ? reportPage(project, base, id) : reportsPage(project, base);
  if (kind === 'alerts') return id ? alertPage(project, base, id, editable) : alertsPage(project, base, editable);
  // The management pages load their modules on demand, so the perf page does not.
  if (kind === 'thresholds') {
    const manage = console && editable;
    if (manage && (id === 'add' || action === 'edit'))
      return (await import('./threshold-form.js')).thresholdFormPage(project, base, id === 'add' ? undefined : id);
    const { thresholdPage, thresholdsPage } = await import('./thresholds.js');
    return id ? thresholdPage(project, base, id, manage) : thresholdsPage(project, base, manage);
  }
  if (kind !== undefined && kind in DIMENSIONS) {
    const dimension = kind as keyof typeof DIMENSIONS;
    const { dimensionPage, dimensionsPage } = await import('./dimensions.js');
    return id
      ? dimensionPage(project, base, dimension, id, console && editable)
      : dimensionsPage(project, base, dimension);
  }
  if (console && kind === 'keys') return keysPage(uri`/v0/projects/${project.slug}/keys`, 'Project keys');
  if (console && kind === 'settings') return (await import('./settings.js')).projectSettingsPage(project);
  notFoundPage('Page');
}

const AUTH_PAGES: Record<string, () => unknown> = {
  signup: signupPage,
  login: loginPage,
  confirm: confirmPage,
  logout: logoutPage,
};

async function route() {
  const parts = location.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const [top, second, third, ...rest] = parts;
  if (top === 'auth') {
    if (second === 'github' || second === 'google') return oauthReturnPage(second);
    return (AUTH_PAGES[second ?? ''] ?? loginPage)();
  }
  if (top === undefined) return location.replace(session() ? '/console' : '/perf');
  if (top === 'perf')
    return second ? projectPages(second, [third, ...rest], false) : projectsPage('/v0/projects', 'Public projects');
  if (top !== 'console') return notFoundPage('Page');
  const user = session();
  if (!user) {
    if (second === 'projects' && third) return location.replace(`${uri`/perf/${third}`}${location.search}`);
    return location.replace('/auth/login');
  }
  if (second === undefined) return consoleHome(user);
  if (second === 'projects' && third) return projectPages(third, rest, true);
  if (second === 'organizations' && third === undefined) return organizationsPage();
  if (second === 'organizations' && third && ['members', 'settings'].includes(rest[0] ?? '')) {
    show(h`${organizationNav(third)}<div id="content"></div>`);
    if (rest[0] === 'members') return (await import('./members.js')).membersPage(third);
    return (await import('./settings.js')).organizationSettingsPage(third);
  }
  show(h`<div id="content"></div>`);
  if (second === 'organizations' && third && (rest[0] === undefined || rest[0] === 'projects'))
    return orgProjectsPage(third);
  if (second === 'users' && third && rest[0] === 'keys') return keysPage(uri`/v0/users/${third}/keys`, 'API keys');
  if (second === 'users' && third && rest[0] === 'tokens') return tokensPage(third);
  if (second === 'users' && (rest[0] === undefined || rest[0] === 'settings'))
    return (await import('./settings.js')).userSettingsPage(user);
  notFoundPage('Page');
}

watchExpiry();
sessionNav();
const notice = params().get('notify_text');
if (notice) notify(notice, params().get('notify_kind') === 'alert' ? 'error' : 'ok');
route().catch((error: Error) => notify(`Something went wrong: ${error.message}`, 'error'));
