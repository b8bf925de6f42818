import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import { STRICT_SHAPES } from './atrium-shapes.js';
import type { Backend } from './backend.js';
import { RESPONSES } from './shapes.js';
import { strictMismatch } from './strict.js';

/** The Bencher API version this client speaks. */
export const CLIENT_API_VERSION = '0.6.12';
const VERSION_PATH = '/v0/server/version';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface ApiRequest {
  method: Method;
  /** Path template as in the OpenAPI document: `/v0/projects/{project}/branches/{branch}`. */
  path: string;
  params?: Record<string, string>;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** The endpoint needs a user credential: fail before sending when none is configured. */
  auth?: boolean;
}

/** An answer from the server that is not a success: fails at once, never retried (unless 5xx). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Where the client reports retries and version mismatches (stderr in the CLI). */
export type Warn = (message: string) => void;

interface RawResponse {
  status: number;
  text: string;
}

const SYSTEM_CA_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/cert.pem',
];

function systemCertificates(): string[] {
  for (const file of SYSTEM_CA_BUNDLES) {
    try {
      return [...rootCertificates, readFileSync(file, 'utf8')];
    } catch {}
  }
  return [...rootCertificates];
}

/** A TLS certificate the client does not trust: permanent, so never retried (see `--insecure-host`). */
class CertificateError extends Error {}

const isCertificateProblem = (code: string | undefined) =>
  code !== undefined && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code);

/**
 * Server messages can span lines (a hint under the error); the CLI prints one line, each former line a sentence:
 * "Benchmark (x) not found. Benchmark may be private …".
 */
export const oneLine = (text: string) =>
  text
    .split(/\s*\n\s*/)
    .filter((line) => line !== '')
    .map((line, i, lines) => (i < lines.length - 1 && !/[.!?:;]$/.test(line) ? `${line}.` : line))
    .join(' ')
    .trim();

/** `404 <the server's message>` on one line (Bencher's error body is `{"message": …}`). */
function statusLine(response: RawResponse): string {
  let message = response.text;
  try {
    const parsed = JSON.parse(response.text) as { message?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message;
  } catch {}
  return `${response.status} ${oneLine(message).slice(0, 1000)}`;
}

export function expandPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

export function queryString(query: Record<string, QueryValue> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) search.set(name, value.join(','));
    } else search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * The HTTP client of every `atrium bench` subcommand: bearer credential, timeout, retries on connection
 * errors and 5xx only (fixed delay), the API version checked once before the first request, and
 * `--strict` response checking against the OpenAPI shapes.
 */
export class BenchClient {
  private versionChecked: Promise<void> | undefined;
  private versionMismatch = false;

  constructor(
    readonly backend: Backend,
    private readonly warn: Warn,
  ) {}

  requireCredential(): void {
    if (this.backend.credential === undefined) {
      throw new Error(
        'this command needs an API credential: set --key (ATRIUM_BENCH_KEY or BENCHER_API_KEY) or --token (BENCHER_API_TOKEN)',
      );
    }
  }

  /** Sends `request` (after the version check) and returns its parsed JSON body (undefined for 204). */
  async send<T = unknown>(request: ApiRequest): Promise<T> {
    if (request.auth) this.requireCredential();
    if (request.path !== VERSION_PATH) await this.checkVersion();
    return (await this.exchangeParsed(request)) as T;
  }

  /** `GET /v0/server/version` once per process; a mismatch only warns. */
  checkVersion(): Promise<void> {
    this.versionChecked ??= this.exchangeParsed({ method: 'GET', path: VERSION_PATH }).then((body) => {
      const version = (body as { version?: unknown } | undefined)?.version;
      if (version !== CLIENT_API_VERSION) {
        this.versionMismatch = true;
        this.warn(`warning: the server speaks API version ${String(version)}, this client ${CLIENT_API_VERSION}`);
      }
    });
    return this.versionChecked;
  }

  private async exchangeParsed(request: ApiRequest): Promise<unknown> {
    const path = expandPath(request.path, request.params) + queryString(request.query);
    const label = `${request.method} ${path}`;
    const response = await this.withRetries(label, () => this.exchange(request.method, path, request.body));
    if (response.status >= 400) throw this.apiError(label, response);
    return this.parse(label, response.text, `${request.method} ${request.path}`);
  }

  private parse(label: string, text: string, operation: string): unknown {
    if (text.length === 0) return undefined;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${label}: the server answered with invalid JSON`);
    }
    if (this.backend.strict) {
      const shape = RESPONSES[operation];
      const problem = shape === undefined ? undefined : strictMismatch(STRICT_SHAPES, shape, body);
      if (problem) throw new Error(`${label}: strict response check failed: ${problem}`);
    }
    return body;
  }

  private apiError(label: string, response: RawResponse): ApiError {
    const hint = this.versionMismatch ? ' (this may be due to a version mismatch)' : '';
    return new ApiError(response.status, `${label}: ${statusLine(response)}${hint}`);
  }

  private async withRetries(label: string, attempt: () => Promise<RawResponse>): Promise<RawResponse> {
    const { attempts, retryAfterMs } = this.backend;
    let last = '';
    for (let i = 1; i <= attempts; i++) {
      try {
        const response = await attempt();
        if (response.status < 500) return response;
        last = statusLine(response);
      } catch (error) {
        if (error instanceof CertificateError) throw new Error(`${label}: ${error.message}`);
        last = (error as Error).message;
      }
      if (i < attempts) {
        this.warn(`Send attempt #${i}/${attempts} (${label}): ${last}`);
        this.warn(`Will retry after ${retryAfterMs / 1000} second(s).`);
        await new Promise((resolve) => setTimeout(resolve, retryAfterMs));
      }
    }
    throw new Error(`${label}: failed to send after ${attempts} attempt(s): ${last}`);
  }

  private exchange(method: Method, path: string, body: unknown): Promise<RawResponse> {
    const { host, credential, timeoutMs, insecureHost, nativeTls } = this.backend;
    const url = new URL(path, host);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (credential) headers.authorization = `Bearer ${credential}`;
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    const secure = url.protocol === 'https:';
    const send = secure ? httpsRequest : httpRequest;
    const tls = secure ? { rejectUnauthorized: !insecureHost, ...(nativeTls ? { ca: systemCertificates() } : {}) } : {};
    return new Promise((resolve, reject) => {
      const req = send(url, { method, headers, timeout: timeoutMs, ...tls }, (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (isCertificateProblem(error.code))
          reject(new CertificateError(`${error.code} ${url.host}: ${error.message}`));
        else reject(new Error(error.code ? `${error.code} ${url.host}` : error.message));
      });
      req.end(payload);
    });
  }
}
