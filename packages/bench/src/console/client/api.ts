// The `/v0` API of the same origin, with the session Bencher's console keeps in localStorage (`BENCHER_USER`).
import type { JsonAuthUser } from '../../wire/types.js';

const SESSION = 'BENCHER_USER';

export function session(): JsonAuthUser | null {
  try {
    const stored = JSON.parse(localStorage.getItem(SESSION) ?? 'null') as JsonAuthUser | null;
    if (!stored?.token || !stored.user?.slug) return null;
    return stored;
  } catch {
    return null;
  }
}

export const saveSession = (user: JsonAuthUser) => localStorage.setItem(SESSION, JSON.stringify(user));
export const clearSession = () => {
  localStorage.removeItem(SESSION);
  localStorage.removeItem('BENCHER_ORGANIZATION');
};

const expiresAt = (user: JsonAuthUser) => new Date(user.expiration).getTime();

/** Logs out with a message: the session expired or the server no longer accepts it. */
export function expire(): void {
  clearSession();
  location.replace(
    `/auth/login?notify_kind=alert&notify_text=${encodeURIComponent('Your session expired. Please log in again.')}`,
  );
}

/** Checks the stored session's expiry every second; once passed, logs out by itself. */
export function watchExpiry(): void {
  const check = () => {
    const user = session();
    if (user && Number.isFinite(expiresAt(user)) && expiresAt(user) <= Date.now()) expire();
  };
  check();
  setInterval(check, 1000);
}

/** The API's error body (`{ message }`), or whatever else a failed call answered. */
export interface ApiError {
  message?: string;
}

/** An answer: `data` is `T` when `ok`; `total` is `X-Total-Count` (NaN without it). */
export type Reply<T> =
  | { ok: true; status: number; data: T; total: number }
  | { ok: false; status: number; data: ApiError | null; total: number };

/** Calls the API; `T` is the answer's wire type. */
export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<Reply<T>> {
  const headers: Record<string, string> = {};
  const user = session();
  if (user) headers.authorization = `Bearer ${user.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { message: text };
  }
  const message = (data as ApiError | null)?.message ?? '';
  if (user && (response.status === 401 || /JSON Web Token/.test(message))) expire();
  const total = Number(response.headers.get('x-total-count') ?? Number.NaN);
  return { ok: response.ok, status: response.status, data, total } as Reply<T>;
}

export const get = <T>(path: string) => api<T>('GET', path);

/** Whether an `…/allowed/{permission}` path answers yes. */
export const allowed = async (path: string) => {
  const reply = await get<{ allowed: boolean }>(path);
  return reply.ok && reply.data.allowed === true;
};

/** The error text of a failed call. */
export const failure = (reply: Reply<unknown>) => (!reply.ok && reply.data?.message) || `HTTP ${reply.status}`;
