// The `/v0` API of the same origin, with the session Bencher's console keeps in localStorage (`BENCHER_USER`).
const SESSION = 'BENCHER_USER';

export function session() {
  try {
    const stored = JSON.parse(localStorage.getItem(SESSION) ?? 'null');
    if (!stored?.token || !stored.user?.slug) return null;
    return stored;
  } catch {
    return null;
  }
}

export const saveSession = (user) => localStorage.setItem(SESSION, JSON.stringify(user));
export const clearSession = () => {
  localStorage.removeItem(SESSION);
  localStorage.removeItem('BENCHER_ORGANIZATION');
};

const expiresAt = (user) => new Date(user.expiration).getTime();

/** Logs out with a message: the session expired or the server no longer accepts it. */
export function expire() {
  clearSession();
  location.replace(
    `/auth/login?notify_kind=alert&notify_text=${encodeURIComponent('Your session expired. Please log in again.')}`,
  );
}

/** Checks the stored session's expiry every second; once passed, logs out by itself. */
export function watchExpiry() {
  const check = () => {
    const user = session();
    if (user && Number.isFinite(expiresAt(user)) && expiresAt(user) <= Date.now()) expire();
  };
  check();
  setInterval(check, 1000);
}

/** Calls the API: `{ ok, status, data, total }` (total from `X-Total-Count`). */
export async function api(method, path, body) {
  const headers = {};
  const user = session();
  if (user) headers.authorization = `Bearer ${user.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (user && (response.status === 401 || /JSON Web Token/.test(data?.message ?? ''))) expire();
  const total = Number(response.headers.get('x-total-count') ?? Number.NaN);
  return { ok: response.ok, status: response.status, data, total };
}

export const get = (path) => api('GET', path);

/** Whether an `…/allowed/{permission}` path answers yes. */
export const allowed = async (path) => (await get(path)).data?.allowed === true;

/** The error text of a failed call. */
export const failure = (reply) => reply.data?.message ?? `HTTP ${reply.status}`;
