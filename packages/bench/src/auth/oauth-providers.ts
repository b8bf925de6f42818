/**
 * The OAuth 2.0 providers Bench signs users in with: GitHub (its three OAuth endpoints: authorize, token,
 * `/user` + `/user/emails`) and Google (OpenID Connect, found through the issuer's discovery document; the
 * address comes from its userinfo endpoint). Each answers a verified email and a display name.
 */

export interface OAuthIdentity {
  email: string;
  name: string;
  /** A slug candidate (the GitHub login), when the provider has one. */
  handle?: string | undefined;
}

export interface OAuthProvider {
  authorizationUrl(state: string): Promise<string>;
  identity(code: string): Promise<OAuthIdentity>;
}

interface ClientConfig {
  clientId: string;
  clientSecret: string;
}

const TIMEOUT_MS = 10_000;

/** `path` under `base`, keeping a path prefix (GitHub Enterprise's `/api/v3`). */
const under = (base: string, path: string) => new URL(path, base.endsWith('/') ? base : `${base}/`).href;

async function getJson(url: string, init: RequestInit, what: string): Promise<unknown> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!response.ok) throw new Error(`${what} answered ${response.status}`);
  return response.json();
}

async function exchangeCode(
  tokenUrl: string,
  client: ClientConfig,
  code: string,
  redirectUri: string,
): Promise<string> {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
  const token = (await getJson(
    tokenUrl,
    {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    },
    'the token endpoint',
  )) as { access_token?: unknown; error?: unknown };
  if (typeof token.access_token !== 'string') {
    throw new Error(`the code was refused (${typeof token.error === 'string' ? token.error : 'no access token'})`);
  }
  return token.access_token;
}

export class GitHubOAuth implements OAuthProvider {
  constructor(
    private readonly config: ClientConfig & { url: string; apiUrl: string },
    private readonly redirectUri: string,
  ) {}

  async authorizationUrl(state: string): Promise<string> {
    const url = new URL(under(this.config.url, 'login/oauth/authorize'));
    url.search = new URLSearchParams({
      client_id: this.config.clientId,
      redirect_uri: this.redirectUri,
      scope: 'user:email',
      state,
    }).toString();
    return url.href;
  }

  async identity(code: string): Promise<OAuthIdentity> {
    const accessToken = await exchangeCode(
      under(this.config.url, 'login/oauth/access_token'),
      this.config,
      code,
      this.redirectUri,
    );
    const headers = {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${accessToken}`,
      'user-agent': 'atrium-bench',
    };
    const user = (await getJson(under(this.config.apiUrl, 'user'), { headers }, 'GitHub /user')) as {
      login?: unknown;
      name?: unknown;
    };
    const emails = await getJson(under(this.config.apiUrl, 'user/emails'), { headers }, 'GitHub /user/emails');
    const primary = (Array.isArray(emails) ? emails : []).find(
      (entry: { primary?: unknown; verified?: unknown; email?: unknown }) =>
        entry?.primary === true && entry.verified === true && typeof entry.email === 'string',
    ) as { email: string } | undefined;
    if (!primary) throw new Error('the GitHub account has no verified primary email');
    const login = typeof user.login === 'string' ? user.login : undefined;
    const name = typeof user.name === 'string' && user.name.length > 0 ? user.name : (login ?? primary.email);
    return { email: primary.email, name, handle: login };
  }
}

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
}

export class GoogleOAuth implements OAuthProvider {
  private discovery: Promise<Discovery> | undefined;

  constructor(
    private readonly config: ClientConfig & { issuer: string },
    private readonly redirectUri: string,
  ) {}

  /** The issuer's discovery document, fetched once (again after a failure). */
  private endpoints(): Promise<Discovery> {
    this.discovery ??= getJson(
      under(this.config.issuer, '.well-known/openid-configuration'),
      { headers: { accept: 'application/json' } },
      'the OpenID discovery document',
    ).then((document) => {
      const found = document as Partial<Discovery>;
      if (!found.authorization_endpoint || !found.token_endpoint || !found.userinfo_endpoint) {
        throw new Error('the OpenID discovery document lacks an endpoint');
      }
      return found as Discovery;
    });
    this.discovery.catch(() => {
      this.discovery = undefined;
    });
    return this.discovery;
  }

  async authorizationUrl(state: string): Promise<string> {
    const url = new URL((await this.endpoints()).authorization_endpoint);
    url.search = new URLSearchParams({
      client_id: this.config.clientId,
      redirect_uri: this.redirectUri,
      response_type: 'code',
      scope: 'openid email profile',
      state,
    }).toString();
    return url.href;
  }

  async identity(code: string): Promise<OAuthIdentity> {
    const endpoints = await this.endpoints();
    const accessToken = await exchangeCode(endpoints.token_endpoint, this.config, code, this.redirectUri);
    const info = (await getJson(
      endpoints.userinfo_endpoint,
      { headers: { accept: 'application/json', authorization: `Bearer ${accessToken}` } },
      'the userinfo endpoint',
    )) as { email?: unknown; email_verified?: unknown; name?: unknown };
    if (typeof info.email !== 'string' || info.email_verified !== true) {
      throw new Error('the Google account has no verified email');
    }
    const name = typeof info.name === 'string' && info.name.length > 0 ? info.name : info.email.split('@')[0];
    return { email: info.email, name: name as string };
  }
}
