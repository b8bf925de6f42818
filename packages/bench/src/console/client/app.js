// The console's router: every page is a full page load; the path picks the page, the query string holds its state.
import { allowed, api, failure, get, session, watchExpiry } from './api.js';
import { confirmPage, loginPage, logoutPage, oauthReturnPage, signupPage } from './auth.js';
import { $, h, notify, params, show, uri } from './dom.js';
import {
  alertPage,
  alertsPage,
  DIMENSIONS,
  dashboardPage,
  keysPage,
  notFoundPage,
  projectNav,
  reportPage,
  reportsPage,
} from './pages.js';
import { perfPage } from './perf.js';

function sessionNav() {
  const user = session();
  show(
    user
      ? h`<a href="/console">Console</a><a href="${uri`/console/users/${user.user.slug}/settings`}">${user.user.name}</a><a href="/auth/logout">Log out</a>`
      : h`<a href="/auth/login">Log in</a><a href="/auth/signup">Sign up</a>`,
    $('#session'),
  );
}

async function projectsPage(list, title) {
  const search = params().get('search') ?? '';
  const reply = await get(`${list}?per_page=50${search ? `&search=${encodeURIComponent(search)}` : ''}`);
  const base = list.startsWith('/v0/organizations') ? '/console/projects' : '/perf';
  show(
    h`<section><h2>${title}</h2><form class="row"><label>Search <input type="search" name="search" value="${search}"></label><button>Search</button></form>${
      reply.ok && reply.data.length
        ? h`<ul data-testid="projects">${reply.data.map((p) => h`<li><a href="${base}${uri`/${p.slug}`}${base === '/perf' ? '' : '/plots'}">${p.name}</a> <span class="muted">${p.visibility}</span></li>`)}</ul>`
        : h`<p class="muted">No projects found.</p>`
    }</section>`,
  );
}

const organizationNav = (org) =>
  h`<nav class="row" aria-label="Organization"><strong>${org}</strong>${['projects', 'members', 'settings'].map(
    (page) => h`<a href="${uri`/console/organizations/${org}/${page}`}">${page[0].toUpperCase() + page.slice(1)}</a>`,
  )}</nav>`;

async function orgProjectsPage(org) {
  await projectsPage(uri`/v0/organizations/${org}/projects`, 'Projects');
  $('#app').insertAdjacentHTML('afterbegin', organizationNav(org).markup);
  $('#app').insertAdjacentHTML(
    'beforeend',
    h`<section><h2>New project</h2><form id="new-project"><label>Name <input name="name" required maxlength="64"></label>
<label>Visibility <select name="visibility"><option>public</option><option>private</option></select></label><button class="primary">Create project</button></form></section>`
      .markup,
  );
  $('#new-project').onsubmit = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const done = await api('POST', uri`/v0/organizations/${org}/projects`, {
      name: form.get('name'),
      visibility: form.get('visibility'),
    });
    if (!done.ok) return notify(`Failed to create the project: ${failure(done)}`, 'error');
    location.href = uri`/console/projects/${done.data.slug}/plots?notify_text=${`Project created. Send it results: npx atrium bench run --project ${done.data.slug} …`}`;
  };
}

async function consoleHome() {
  const orgs = await get('/v0/organizations?per_page=50');
  const list = orgs.ok ? orgs.data : [];
  show(
    h`<section><h2>Organizations</h2><ul>${list.map(
      (o) =>
        h`<li><a href="${uri`/console/organizations/${o.slug}/projects`}">${o.name}</a> · <a href="${uri`/console/organizations/${o.slug}/members`}">Members</a> · <a href="${uri`/console/organizations/${o.slug}/settings`}">Settings</a></li>`,
    )}</ul><p><a href="${uri`/console/users/${session().user.slug}/keys`}">Your API keys</a></p></section><div id="projects"></div>`,
  );
  if (list.length === 1) {
    const reply = await get(uri`/v0/organizations/${list[0].slug}/projects?per_page=50`);
    show(
      h`<section><h2>Projects</h2><ul data-testid="projects">${(reply.data ?? []).map((p) => h`<li><a href="${uri`/console/projects/${p.slug}/plots`}">${p.name}</a></li>`)}</ul></section>`,
      $('#projects'),
    );
  }
}

/** Pages of one project, public (`/perf/{p}/…`) or in the console (`/console/projects/{p}/…`). */
async function projectPages(slug, rest, console) {
  const reply = await get(uri`/v0/projects/${slug}`);
  if (!reply.ok) return notFoundPage();
  const project = reply.data;
  document.title = `📈 ${project.name} · Atrium bench`;
  const base = console ? uri`/console/projects/${project.slug}` : uri`/perf/${project.slug}`;
  const [kind, id, action] = rest;
  if (console && kind === undefined) return location.replace(`${base}/plots`);
  // The perf page asks for its data first and checks its own permission.
  if ((!console && kind === undefined) || kind === 'perf') return perfPage(project, base);
  const editable = Boolean(session()) && (await allowed(uri`/v0/projects/${project.slug}/allowed/edit`));
  show(h`${projectNav(project, base, console)}<div id="content"></div>`);
  if (kind === 'plots') return dashboardPage(project, base, editable);
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
  if (kind in DIMENSIONS) {
    const { dimensionPage, dimensionsPage } = await import('./dimensions.js');
    return id ? dimensionPage(project, base, kind, id, console && editable) : dimensionsPage(project, base, kind);
  }
  if (console && kind === 'keys') return keysPage(uri`/v0/projects/${project.slug}/keys`, 'Project keys');
  if (console && kind === 'settings') return (await import('./settings.js')).projectSettingsPage(project);
  notFoundPage();
}

async function route() {
  const parts = location.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const [top, second, third, ...rest] = parts;
  if (top === 'auth') {
    const pages = { signup: signupPage, login: loginPage, confirm: confirmPage, logout: logoutPage };
    if (second === 'github' || second === 'google') return oauthReturnPage(second);
    return (pages[second] ?? loginPage)();
  }
  if (top === undefined) return location.replace(session() ? '/console' : '/perf');
  if (top === 'perf')
    return second ? projectPages(second, [third, ...rest], false) : projectsPage('/v0/projects', 'Public projects');
  if (top !== 'console') return notFoundPage();
  if (!session()) {
    if (second === 'projects' && third) return location.replace(`${uri`/perf/${third}`}${location.search}`);
    return location.replace('/auth/login');
  }
  if (second === undefined) return consoleHome();
  if (second === 'projects' && third) return projectPages(third, rest, true);
  if (second === 'organizations' && third && ['members', 'settings'].includes(rest[0])) {
    show(h`${organizationNav(third)}<div id="content"></div>`);
    if (rest[0] === 'members') return (await import('./members.js')).membersPage(third);
    return (await import('./settings.js')).organizationSettingsPage(third);
  }
  show(h`<div id="content"></div>`);
  if (second === 'organizations' && third) return orgProjectsPage(third);
  if (second === 'users' && rest[0] === 'keys') return keysPage(uri`/v0/users/${third}/keys`, 'API keys');
  if (second === 'users') return (await import('./settings.js')).userSettingsPage();
  notFoundPage();
}

watchExpiry();
sessionNav();
if (params().get('notify_text'))
  notify(params().get('notify_text'), params().get('notify_kind') === 'alert' ? 'error' : 'ok');
route().catch((error) => notify(`Something went wrong: ${error.message}`, 'error'));
