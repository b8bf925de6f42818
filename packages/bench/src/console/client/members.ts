// Organization members: search, change role, remove (a second click confirms), and invitations by email with a role;
// those who may invite see the pending invitations and revoke them.
import type { JsonMember } from '../../wire/types.js';
import { allowed, api, failure, get } from './api.js';
import { $, date, h, notify, raw, show, uri } from './dom.js';
import { listPage } from './list.js';

const ROLES = ['leader', 'member'];

/** An item of `GET …/invitations` (built in http/invitation-routes.ts). */
interface Invitation {
  uuid: string;
  email: string;
  role: string;
  inviter: { uuid: string; name: string; slug: string };
  expiration: string;
}

/** The pending invitations (each lasts days, so there are few: the first 255 are shown), with Revoke buttons. */
async function pendingInvitations(path: string): Promise<void> {
  const reply = await get<Invitation[]>(`${path}/invitations?per_page=255`);
  if (!reply.ok)
    return show(h`<p class="error" role="alert">Failed to fetch invitations: ${failure(reply)}</p>`, $('#invitations'));
  show(
    h`<h2>Pending invitations</h2>${
      reply.data.length
        ? h`<table data-testid="invitations"><tr><th>Email</th><th>Role</th><th>Invited by</th><th>Expires (UTC)</th><th></th></tr>${reply.data.map(
            (i) =>
              h`<tr><td>${i.email}</td><td>${i.role}</td><td>${i.inviter.name}</td><td>${date(i.expiration)}</td><td><button type="button" data-revoke="${i.uuid}" data-email="${i.email}">Revoke</button></td></tr>`,
          )}</table>`
        : h`<p class="muted">No pending invitations.</p>`
    }`,
    $('#invitations'),
  );
}

const roleSelect = (member: JsonMember) =>
  h`<select data-member="${member.slug}" aria-label="Role of ${member.name}">${ROLES.map((role) => h`<option ${raw(role === member.role ? 'selected' : '')}>${role}</option>`)}</select>`;

export async function membersPage(org: string): Promise<void> {
  const path = uri`/v0/organizations/${org}`;
  const permission = (name: string) => allowed(`${path}/allowed/${name}`);
  const [invite, editRole, removeRole] = await Promise.all(['create_role', 'edit_role', 'delete_role'].map(permission));
  show(
    h`<div id="members"></div>${
      invite
        ? h`<section><h2>Invite a member</h2><p class="muted">The invitation is mailed with a link to accept it; the invitee joins with the role chosen here.</p>
<form id="invite" class="row"><label>Email <input name="email" type="email" required></label><label>Name (optional) <input name="name" maxlength="64"></label>
<label>Role <select name="role">${ROLES.map((role) => h`<option>${role}</option>`)}</select></label><button class="primary">Invite</button></form></section>
<section id="invitations"></section>`
        : ''
    }`,
    $('#content'),
  );
  const list = () =>
    listPage<JsonMember>(
      'Members',
      `${path}/members`,
      ['Name', 'Email', 'Role', ''],
      (m) =>
        h`<td>${m.name}</td><td>${m.email}</td><td>${editRole ? roleSelect(m) : m.role}</td><td>${
          removeRole ? h`<button type="button" data-remove="${m.slug}">Remove</button>` : ''
        }</td>`,
      { search: true, root: '#members' },
    );
  await list();
  const members = $('#members');
  members.addEventListener('change', async (event) => {
    const select = event.target as HTMLSelectElement;
    const slug = select.dataset.member;
    if (!slug) return;
    const done = await api<JsonMember>('PATCH', path + uri`/members/${slug}`, { role: select.value });
    if (!done.ok) {
      notify(`Failed to change the role: ${failure(done)}`, 'error');
      return list();
    }
    notify(`${done.data.name} is now a ${done.data.role}.`);
    if (invite) pendingInvitations(path); // a role change voids invitations to the member's address
  });
  members.addEventListener('click', async (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-remove]');
    if (!button) return;
    if (!button.dataset.armed) {
      button.dataset.armed = 'true';
      button.textContent = 'Click again to remove';
      return;
    }
    const done = await api('DELETE', path + uri`/members/${button.dataset.remove}`);
    if (!done.ok) return notify(`Failed to remove the member: ${failure(done)}`, 'error');
    notify('Member removed.');
    list();
    if (invite) pendingInvitations(path);
  });
  $('#invite')?.addEventListener('submit', async (event) => {
    event.preventDefault();
    const target = event.target as HTMLFormElement;
    const form = new FormData(target);
    const body: Record<string, string> = { email: String(form.get('email')).trim(), role: String(form.get('role')) };
    if (String(form.get('name')).trim()) body.name = String(form.get('name')).trim();
    const done = await api('POST', `${path}/members`, body);
    if (!done.ok) return notify(`Failed to invite: ${failure(done)}`, 'error');
    notify(`Invitation sent to ${body.email} as ${body.role}.`);
    target.reset();
    pendingInvitations(path);
  });
  if (!invite) return;
  await pendingInvitations(path);
  $('#invitations').addEventListener('click', async (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-revoke]');
    if (!button) return;
    const done = await api('DELETE', path + uri`/invitations/${button.dataset.revoke}`);
    if (!done.ok) notify(`Failed to revoke the invitation: ${failure(done)}`, 'error');
    else notify(`Invitation to ${button.dataset.email} revoked.`);
    pendingInvitations(path);
  });
}
