// Project and organization settings: name, slug (and a project's URL and visibility), delete after typing the slug;
// the user's own account.
import type { JsonAuthUser, JsonOrganization, JsonProject } from '../../wire/types.js';
import { allowed, api, failure, get, saveSession } from './api.js';
import { $, changedFields, date, h, notFound, notify, params, raw, show, uri } from './dom.js';

/** The delete section: the button stays disabled until the slug is typed. */
const deleteSection = (what: string, warning: string) =>
  h`<section><h2>Delete ${what}</h2><p>${warning}</p>
<label>Type the ${what}'s slug to confirm <input id="confirm-delete" autocomplete="off"></label><button type="button" id="delete" disabled>Delete ${what}</button></section>`;

/** Deletes `path` once the slug is typed and the button clicked; `deleted()` follows a success. */
function wireDeleteBySlug(slug: string, path: string, what: string, deleted: () => void): void {
  $('#confirm-delete').oninput = (event) => {
    $<HTMLButtonElement>('#delete').disabled = (event.target as HTMLInputElement).value !== slug;
  };
  $('#delete').onclick = async () => {
    const done = await api('DELETE', path);
    if (!done.ok) return notify(`Failed to delete ${what}: ${failure(done)}`, 'error');
    deleted();
  };
}

/** PATCHes the form's changed fields (`url` may be cleared) to `path`; `saved(data, body)` follows a success. */
function wireSave<T extends object>(
  form: string,
  path: string,
  current: T,
  what: string,
  saved: (data: T, body: Record<string, string | null>) => void,
): void {
  $(form).onsubmit = async (event) => {
    event.preventDefault();
    const body = changedFields(event.target as HTMLFormElement, current, ['url']);
    if (!Object.keys(body).length) return notify('Nothing changed.');
    const done = await api<T>('PATCH', path, body);
    if (!done.ok) return notify(`Failed to save ${what}: ${failure(done)}`, 'error');
    saved(done.data, body);
  };
}

const selected = (on: boolean) => raw(on ? 'selected' : '');

export async function projectSettingsPage(project: JsonProject): Promise<void> {
  const path = uri`/v0/projects/${project.slug}`;
  const [editable, deletable] = await Promise.all([allowed(`${path}/allowed/edit`), allowed(`${path}/allowed/delete`)]);
  show(
    h`<section><h2>Project settings</h2><form id="project-settings"><fieldset ${raw(editable ? '' : 'disabled')}>
<label>Name <input name="name" value="${project.name}" required maxlength="64"></label>
<label>Slug <input name="slug" value="${project.slug}" required maxlength="64"></label>
<label>URL <input name="url" type="url" value="${project.url ?? ''}" placeholder="https://github.com/owner/repo"></label>
<label>Visibility <select name="visibility"><option ${selected(project.visibility === 'public')}>public</option><option ${selected(project.visibility === 'private')}>private</option></select></label>
<button class="primary">Save</button></fieldset></form></section>${
      deletable
        ? deleteSection(
            'project',
            'All reports, metrics, thresholds, alerts and pinned plots of this project are deleted.',
          )
        : ''
    }`,
    $('#content'),
  );
  wireSave('#project-settings', path, project, 'the project', (saved) =>
    location.replace(uri`/console/projects/${saved.slug}/settings?notify_text=${'Project saved.'}`),
  );
  if (deletable)
    wireDeleteBySlug(project.slug, path, 'the project', () => {
      location.href = `/console?notify_text=${encodeURIComponent(`Project ${project.name} deleted.`)}`;
    });
}

export async function organizationSettingsPage(org: string): Promise<void> {
  const path = uri`/v0/organizations/${org}`;
  const reply = await get<JsonOrganization>(path);
  if (!reply.ok) return notFound('Organization');
  const organization = reply.data;
  const [editable, deletable] = await Promise.all([allowed(`${path}/allowed/edit`), allowed(`${path}/allowed/delete`)]);
  show(
    h`<section><h2>Organization settings</h2><table><tr><th>UUID</th><td>${organization.uuid}</td></tr></table>
<form id="organization-settings"><fieldset ${raw(editable ? '' : 'disabled')}><label>Name <input name="name" value="${organization.name}" required maxlength="64"></label>
<label>Slug <input name="slug" value="${organization.slug}" required maxlength="64"></label><button class="primary">Save</button></fieldset></form></section>${
      deletable
        ? deleteSection('organization', 'All projects of this organization and all their data are deleted.')
        : ''
    }`,
    $('#content'),
  );
  wireSave('#organization-settings', path, organization, 'the organization', (saved) => {
    localStorage.removeItem('BENCHER_ORGANIZATION');
    location.replace(uri`/console/organizations/${saved.slug}/settings?notify_text=${'Organization saved.'}`);
  });
  if (deletable)
    wireDeleteBySlug(organization.slug, path, 'the organization', () => {
      localStorage.removeItem('BENCHER_ORGANIZATION');
      location.href = `/console?notify_text=${encodeURIComponent(`Organization ${organization.name} deleted.`)}`;
    });
}

/**
 * The signed-in user's name, slug and email. A new email waits for the link mailed to it (`?confirm_email=` here):
 * confirming answers a new session, since a session names the address.
 */
export async function userSettingsPage(stored: JsonAuthUser): Promise<void> {
  const user = stored.user;
  const path = uri`/v0/users/${user.slug}`;
  const settingsPage = (slug: string, notice: string) => uri`/console/users/${slug}/settings?notify_text=${notice}`;
  show(
    h`<section><h2>Account</h2><form id="user-settings"><label>Name <input name="name" value="${user.name}" required maxlength="64"></label>
<label>Slug <input name="slug" value="${user.slug}" required maxlength="64"></label>
<label>Email <input name="email" type="email" value="${user.email}" required></label><small class="muted">A new email takes effect once you follow the link mailed to it; until then you log in with this one.</small>
<button class="primary">Save</button></form><div id="email-change"></div>
<p><a href="${uri`/console/users/${user.slug}/keys`}">API keys</a> · <a href="/auth/logout">Log out</a></p></section>`,
    $('#content'),
  );
  wireSave('#user-settings', path, user, 'your account', (saved, body) => {
    saveSession({ ...stored, user: { ...user, ...saved } });
    location.replace(
      settingsPage(
        saved.slug,
        body.email ? `Account saved. To change your email, follow the link mailed to ${body.email}.` : 'Account saved.',
      ),
    );
  });

  const token = params().get('confirm_email');
  const pending = await get<{ email: string; expiration: string }>(`${path}/email/pending`);
  if (token) {
    show(
      h`<section class="notice"><p>Confirm ${pending.ok ? pending.data.email : 'the new address'} as your email?</p><button type="button" class="primary" id="confirm-email">Confirm new email</button></section>`,
      $('#email-change'),
    );
    $('#confirm-email').onclick = async () => {
      const done = await api<JsonAuthUser>('POST', `${path}/email/confirm`, { token });
      if (!done.ok) return notify(`Failed to change your email: ${failure(done)}`, 'error');
      saveSession(done.data);
      location.replace(settingsPage(done.data.user.slug, `Your email is now ${done.data.user.email}.`));
    };
  } else if (pending.ok) {
    show(
      h`<p class="notice" data-testid="pending-email">A change to ${pending.data.email} waits for its confirmation: follow the link mailed to it by ${date(pending.data.expiration)} UTC.
<button type="button" id="cancel-email">Cancel the change</button></p>`,
      $('#email-change'),
    );
    $('#cancel-email').onclick = async () => {
      const done = await api('PATCH', path, { email: user.email });
      if (!done.ok) return notify(`Failed to cancel: ${failure(done)}`, 'error');
      location.replace(settingsPage(user.slug, 'Email change cancelled.'));
    };
  }
}
