// Sign-up, log-in by email, the confirm page (asks "Continue as …?" before it uses `?token=`) and log-out, against
// Bencher's /v0/auth API.
import type { JsonAuthUser } from '../../wire/types.js';
import { api, clearSession, failure, get, saveSession, session } from './api.js';
import { $, h, notify, params, show, uri } from './dom.js';

/** What the sign-in pages carry from page to page and to the API: an invitation, a project claim, a plan. */
const carried = () => {
  const p = params();
  const body: Record<string, string> = {};
  for (const name of ['invite', 'claim', 'plan']) {
    const value = p.get(name);
    if (value) body[name] = value;
  }
  return body;
};

/** The other sign-in page, keeping the invitation (and claim, plan) and the email typed or given. */
const otherPage = (path: string, email?: string) => {
  const query = new URLSearchParams(carried());
  const address = email ?? params().get('email');
  if (address) query.set('email', address);
  return `${path}${query.size ? `?${query}` : ''}`;
};

interface SignInSettings {
  outbox: boolean;
  oauth: ('github' | 'google')[];
}

/** The server's sign-in settings (see routes.ts). */
const settings = async (): Promise<SignInSettings> => {
  const reply = await get<SignInSettings>('/console/settings.json');
  return reply.ok ? reply.data : { outbox: false, oauth: [] };
};

const outboxNote = (outbox: boolean) =>
  outbox
    ? h`<p class="notice" data-testid="outbox-note">This server has no mail server (SMTP) configured, so the email is not sent:
it waits in the bench service's outbox. Read it on the server with <code>npx atrium bench admin outbox</code> and open its link.</p>`
    : '';

const PROVIDERS = { github: 'GitHub', google: 'Google' };

/** OAuth buttons for the configured providers: the API answers the provider's URL to go to. */
async function oauthButtons(verb: string): Promise<void> {
  const { oauth } = await settings();
  if (!oauth.length) return;
  show(
    h`<section><h2>Or</h2>${oauth.map((name) => h`<button type="button" data-oauth="${name}">${verb} with ${PROVIDERS[name]}</button> `)}</section>`,
    $('#oauth'),
  );
  $('#oauth').onclick = async (event) => {
    const name = (event.target as HTMLElement).dataset.oauth as keyof typeof PROVIDERS | undefined;
    if (!name) return;
    const query = new URLSearchParams(carried());
    query.delete('plan');
    const done = await get<{ url: string }>(`/v0/auth/${name}${query.size ? `?${query}` : ''}`);
    if (!done.ok) return notify(`Failed to reach ${PROVIDERS[name]}: ${failure(done)}`, 'error');
    location.href = done.data.url;
  };
}

/** The provider sends the browser back here with `code` and `state`. */
export async function oauthReturnPage(name: keyof typeof PROVIDERS): Promise<void> {
  show(h`<section><h2>Signing in with ${PROVIDERS[name]}…</h2></section>`);
  const p = params();
  const done = await api<{ user: JsonAuthUser }>('POST', `/v0/auth/${name}`, {
    code: p.get('code'),
    state: p.get('state'),
  });
  const user = done.ok ? done.data.user : undefined;
  if (!user?.token) {
    return location.replace(
      `/auth/login?notify_kind=alert&notify_text=${encodeURIComponent(`Sign-in failed: ${failure(done)}`)}`,
    );
  }
  saveSession(user);
  location.replace(`/console?notify_text=${encodeURIComponent(`Welcome, ${user.user.name}!`)}`);
}

async function acceptInvite(invite: string): Promise<void> {
  const done = await api('POST', '/v0/auth/accept', { invite });
  location.href = `/console?notify_text=${encodeURIComponent(done.ok ? 'Invitation accepted!' : `Invalid invitation: ${failure(done)}`)}`;
}

/** The claims of a JWT, read unchecked (the server checks the token): what the page may say about it. */
function claimsOf(token: string): Record<string, unknown> | undefined {
  try {
    const payload = (token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(payload), (c) => c.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * "You are invited …" on the sign-in pages of an invitation link: its role and address (the invitation names
 * the organization by UUID only; its name is in the mail).
 */
function invitationNote() {
  const invite = params().get('invite');
  if (!invite) return '';
  const claims = claimsOf(invite);
  const org = claims?.org as { role?: unknown } | undefined;
  const role = typeof org?.role === 'string' ? org.role : 'member';
  const email = typeof claims?.sub === 'string' ? claims.sub : undefined;
  return h`<p class="notice" data-testid="invitation">You are invited to join an organization as a ${role}${email ? h` (the invitation is for ${email})` : ''}. Sign up or log in with that email, and you join it.</p>`;
}

export function signupPage() {
  const invite = params().get('invite');
  if (session()) return invite ? acceptInvite(invite) : location.replace('/console');
  show(h`<section><h2>Sign up</h2>${invitationNote()}<form id="signup"><label>Name <input name="name" required maxlength="64" autocomplete="name"></label>
<label>Email <input name="email" type="email" required autocomplete="email" value="${params().get('email') ?? ''}"></label>
<label><input type="checkbox" name="i_agree" required> I agree to the terms of use</label><button class="primary">Sign up</button></form>
<p>Already have an account? <a href="${otherPage('/auth/login')}" data-testid="login-link">Log in</a></p></section><div id="oauth"></div>`);
  oauthButtons('Sign up');
  $<HTMLFormElement>('#signup').onsubmit = async (event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const email = String(form.get('email'));
    const done = await api('POST', '/v0/auth/signup', { name: form.get('name'), email, i_agree: true, ...carried() });
    if (!done.ok) return notify(`Failed to sign up: ${failure(done)}`, 'error');
    location.href = uri`/auth/confirm?email=${email}`;
  };
}

export function loginPage() {
  const invite = params().get('invite');
  if (session()) return invite ? acceptInvite(invite) : location.replace('/console');
  show(h`<section><h2>Log in</h2>${invitationNote()}<form id="login"><label>Email <input name="email" type="email" required autocomplete="email" value="${params().get('email') ?? ''}"></label>
<button class="primary">Log in</button></form><p>No account yet? <a href="${otherPage('/auth/signup')}" data-testid="signup-link">Sign up</a></p></section><div id="oauth"></div>`);
  oauthButtons('Log in');
  const form = $<HTMLFormElement>('#login');
  // The sign-up link takes the address typed here along.
  form.oninput = () => {
    const email = String(new FormData(form).get('email')).trim();
    $<HTMLAnchorElement>('[data-testid="signup-link"]').href = otherPage('/auth/signup', email || undefined);
  };
  form.onsubmit = async (event) => {
    event.preventDefault();
    const email = String(new FormData(form).get('email'));
    const done = await api('POST', '/v0/auth/login', { email, ...carried() });
    if (!done.ok) {
      if (done.status === 404 && invite) location.href = otherPage('/auth/signup', email);
      return notify(`Failed to log in: ${failure(done)}`, 'error');
    }
    location.href = uri`/auth/confirm?email=${email}`;
  };
}

async function confirm(token: string): Promise<void> {
  const done = await api<JsonAuthUser>('POST', '/v0/auth/confirm', { token });
  if (!done.ok || !done.data?.token) return notify('Failed to confirm the token. Please try again.', 'error');
  saveSession(done.data);
  location.replace(uri`/console?notify_text=${`Welcome, ${done.data.user.name}!`}`);
}

/** The email address a confirmation token is for (its `sub`). */
function emailOf(token: string): string | undefined {
  const sub = claimsOf(token)?.sub;
  return typeof sub === 'string' ? sub : undefined;
}

/**
 * A link signs this browser in only once its user says so: a link someone else sent (for their own account) must
 * not sign a browser in unnoticed.
 */
function askToContinue(token: string): void {
  const email = emailOf(token);
  show(h`<section data-testid="continue-as"><h2>Continue as ${email ?? 'the account of this link'}?</h2>
<p>This link signs this browser in to that account. Continue only if you asked for it.</p>
<p><button type="button" class="primary" data-step="continue">Continue</button> <button type="button" data-step="cancel">Cancel</button></p></section>`);
  $('[data-testid="continue-as"]').onclick = (event) => {
    const step = (event.target as HTMLElement).dataset.step;
    if (step === 'continue') confirm(token);
    if (step === 'cancel') location.replace('/auth/login');
  };
}

export async function confirmPage(): Promise<void> {
  const token = params().get('token');
  // A link opened again while signed in (a second click in the mail, a restored tab) must not sign anyone out.
  const user = session();
  if (user) return location.replace(uri`/console?notify_text=${`You are already logged in as ${user.user.email}.`}`);
  if (token) return askToContinue(token);
  const email = params().get('email');
  const { outbox } = await settings();
  show(h`<section><h2>Check your inbox</h2><p>We've sent a one-time link to ${email ?? 'your email'}. Click it, or paste the token here.</p>
${outboxNote(outbox)}<form id="confirm"><label>Token <input name="token" required autocomplete="off"></label><button class="primary">Confirm</button></form></section>`);
  $('#confirm').onsubmit = (event) => {
    event.preventDefault();
    confirm(String(new FormData(event.target as HTMLFormElement).get('token')).trim());
  };
}

export function logoutPage() {
  clearSession();
  location.replace(`/auth/login?notify_text=${encodeURIComponent('You are logged out.')}`);
}
