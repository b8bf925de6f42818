// Sign-up, log-in by email, the confirm page (asks "Continue as …?" before it uses `?token=`) and log-out, against
// Bencher's /v0/auth API.
import { api, clearSession, failure, get, saveSession, session } from './api.js';
import { $, h, notify, params, show } from './dom.js';

const carried = () => {
  const p = params();
  const body = {};
  for (const name of ['invite', 'claim', 'plan']) if (p.get(name)) body[name] = p.get(name);
  return body;
};

/** The server's sign-in settings: `{ outbox, oauth }` (see routes.ts). */
const settings = async () => (await get('/console/settings.json')).data ?? { outbox: false, oauth: [] };

const outboxNote = (outbox) =>
  outbox
    ? h`<p class="notice" data-testid="outbox-note">This server has no mail server (SMTP) configured, so the email is not sent:
it waits in the bench service's outbox. Read it on the server with <code>npx atrium bench admin outbox</code> and open its link.</p>`
    : '';

const PROVIDERS = { github: 'GitHub', google: 'Google' };

/** OAuth buttons for the configured providers: the API answers the provider's URL to go to. */
async function oauthButtons(verb) {
  const { oauth } = await settings();
  if (!oauth.length) return;
  show(
    h`<section><h2>Or</h2>${oauth.map((name) => h`<button type="button" data-oauth="${name}">${verb} with ${PROVIDERS[name]}</button> `)}</section>`,
    $('#oauth'),
  );
  $('#oauth').onclick = async (event) => {
    const name = event.target.dataset?.oauth;
    if (!name) return;
    const query = new URLSearchParams(carried());
    query.delete('plan');
    const done = await get(`/v0/auth/${name}${query.size ? `?${query}` : ''}`);
    if (!done.ok) return notify(`Failed to reach ${PROVIDERS[name]}: ${failure(done)}`, 'error');
    location.href = done.data.url;
  };
}

/** The provider sends the browser back here with `code` and `state`. */
export async function oauthReturnPage(name) {
  show(h`<section><h2>Signing in with ${PROVIDERS[name] ?? name}…</h2></section>`);
  const p = params();
  const done = await api('POST', `/v0/auth/${name}`, { code: p.get('code'), state: p.get('state') });
  const user = done.data?.user?.token ? done.data.user : done.data;
  if (!done.ok || !user?.token) {
    return location.replace(
      `/auth/login?notify_kind=alert&notify_text=${encodeURIComponent(`Sign-in failed: ${failure(done)}`)}`,
    );
  }
  saveSession(user);
  location.replace(`/console?notify_text=${encodeURIComponent(`Welcome, ${user.user.name}!`)}`);
}

async function acceptInvite(invite) {
  const done = await api('POST', '/v0/auth/accept', { invite });
  location.href = `/console?notify_text=${encodeURIComponent(done.ok ? 'Invitation accepted!' : `Invalid invitation: ${failure(done)}`)}`;
}

export function signupPage() {
  if (session()) return params().get('invite') ? acceptInvite(params().get('invite')) : location.replace('/console');
  show(h`<section><h2>Sign up</h2><form id="signup"><label>Name <input name="name" required maxlength="64" autocomplete="name"></label>
<label>Email <input name="email" type="email" required autocomplete="email"></label>
<label><input type="checkbox" name="i_agree" required> I agree to the terms of use</label><button class="primary">Sign up</button></form>
<p>Already have an account? <a href="/auth/login">Log in</a></p></section><div id="oauth"></div>`);
  oauthButtons('Sign up');
  $('#signup').onsubmit = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const email = String(form.get('email'));
    const done = await api('POST', '/v0/auth/signup', { name: form.get('name'), email, i_agree: true, ...carried() });
    if (!done.ok) return notify(`Failed to sign up: ${failure(done)}`, 'error');
    location.href = `/auth/confirm?email=${encodeURIComponent(email)}`;
  };
}

export function loginPage() {
  if (session()) return params().get('invite') ? acceptInvite(params().get('invite')) : location.replace('/console');
  show(h`<section><h2>Log in</h2><form id="login"><label>Email <input name="email" type="email" required autocomplete="email"></label>
<button class="primary">Log in</button></form><p>No account yet? <a href="/auth/signup">Sign up</a></p></section><div id="oauth"></div>`);
  oauthButtons('Log in');
  $('#login').onsubmit = async (event) => {
    event.preventDefault();
    const email = String(new FormData(event.target).get('email'));
    const done = await api('POST', '/v0/auth/login', { email, ...carried() });
    if (!done.ok) return notify(`Failed to log in: ${failure(done)}`, 'error');
    location.href = `/auth/confirm?email=${encodeURIComponent(email)}`;
  };
}

async function confirm(token) {
  const done = await api('POST', '/v0/auth/confirm', { token });
  if (!done.ok || !done.data?.token) return notify('Failed to confirm the token. Please try again.', 'error');
  saveSession(done.data);
  location.replace(`/console?notify_text=${encodeURIComponent(`Welcome, ${done.data.user.name}!`)}`);
}

/** The email address a confirmation token is for (its `sub`), read unchecked: the server checks the token. */
function emailOf(token) {
  try {
    const payload = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(payload), (c) => c.charCodeAt(0));
    const { sub } = JSON.parse(new TextDecoder().decode(bytes));
    return typeof sub === 'string' ? sub : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A link signs this browser in only once its user says so: a link someone else sent (for their own account) must
 * not sign a browser in unnoticed.
 */
function askToContinue(token) {
  const email = emailOf(token);
  show(h`<section data-testid="continue-as"><h2>Continue as ${email ?? 'the account of this link'}?</h2>
<p>This link signs this browser in to that account. Continue only if you asked for it.</p>
<p><button type="button" class="primary" data-step="continue">Continue</button> <button type="button" data-step="cancel">Cancel</button></p></section>`);
  $('[data-testid="continue-as"]').onclick = (event) => {
    const step = event.target.dataset?.step;
    if (step === 'continue') confirm(token);
    if (step === 'cancel') location.replace('/auth/login');
  };
}

export async function confirmPage() {
  const token = params().get('token');
  if (token) return askToContinue(token);
  const email = params().get('email');
  const { outbox } = await settings();
  show(h`<section><h2>Check your inbox</h2><p>We've sent a one-time link to ${email ?? 'your email'}. Click it, or paste the token here.</p>
${outboxNote(outbox)}<form id="confirm"><label>Token <input name="token" required autocomplete="off"></label><button class="primary">Confirm</button></form></section>`);
  $('#confirm').onsubmit = (event) => {
    event.preventDefault();
    confirm(String(new FormData(event.target).get('token')).trim());
  };
}

export function logoutPage() {
  clearSession();
  location.replace(`/auth/login?notify_text=${encodeURIComponent('You are logged out.')}`);
}
