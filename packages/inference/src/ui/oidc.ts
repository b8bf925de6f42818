import { createHash, randomBytes } from 'node:crypto';
import { HttpError } from '@atrium/core';
import { createRemoteJWKSet, jwtVerify } from 'jose';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  name: string;
}

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  issuer: string;
  userinfo_endpoint?: string;
}

interface Claims {
  sub?: unknown;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
}

/** What the browser keeps (in an HTTP-only cookie) between the redirect to the provider and the callback. */
export interface PendingLogin {
  state: string;
  nonce: string;
  verifier: string;
}

export interface OidcIdentity {
  /** `issuer|subject`: stable across email changes. */
  subject: string;
  email: string | undefined;
  name: string | undefined;
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** A relying party for one generic OpenID Connect provider: discovery, PKCE, code exchange, ID token checks. */
export class OidcClient {
  private discovery: Promise<Discovery> | undefined;
  private jwks: ReturnType<typeof createRemoteJWKSet> | undefined;

  constructor(readonly settings: OidcSettings) {}

  private discover(): Promise<Discovery> {
    this.discovery ??= fetch(`${this.settings.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`)
      .then(async (response) => {
        if (!response.ok) throw new Error(`discovery answered ${response.status}`);
        return (await response.json()) as Discovery;
      })
      .catch((error: unknown) => {
        this.discovery = undefined;
        throw new HttpError(
          502,
          'oidc_unavailable',
          `the sign-in provider is unavailable (${(error as Error).message})`,
        );
      });
    return this.discovery;
  }

  /** The provider's authorization URL and what the callback must find again. */
  async start(redirectUri: string): Promise<{ url: string; pending: PendingLogin }> {
    const discovery = await this.discover();
    const pending = {
      state: base64url(randomBytes(16)),
      nonce: base64url(randomBytes(16)),
      verifier: base64url(randomBytes(32)),
    };
    const url = new URL(discovery.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.settings.clientId,
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: base64url(createHash('sha256').update(pending.verifier).digest()),
      code_challenge_method: 'S256',
    }).toString();
    return { url: url.toString(), pending };
  }

  /** Exchanges the code and verifies the ID token (signature, issuer, audience, expiry, nonce). */
  async finish(code: string, redirectUri: string, pending: PendingLogin): Promise<OidcIdentity> {
    const discovery = await this.discover();
    const credentials = Buffer.from(
      `${encodeURIComponent(this.settings.clientId)}:${encodeURIComponent(this.settings.clientSecret)}`,
    ).toString('base64');
    const response = await fetch(discovery.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${credentials}` },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: pending.verifier,
      }),
    });
    const tokens = (await response.json().catch(() => ({}))) as { id_token?: string; access_token?: string };
    if (!response.ok || !tokens.id_token)
      throw new HttpError(401, 'oidc_failed', 'the sign-in provider refused the login');
    this.jwks ??= createRemoteJWKSet(new URL(discovery.jwks_uri));
    const { payload } = await jwtVerify(tokens.id_token, this.jwks, {
      issuer: discovery.issuer,
      audience: this.settings.clientId,
    }).catch(() => {
      throw new HttpError(401, 'oidc_failed', 'the sign-in provider sent an invalid ID token');
    });
    if (payload.nonce !== pending.nonce || !payload.sub)
      throw new HttpError(401, 'oidc_failed', 'the ID token does not match this login');
    // Providers that conform strictly put scope claims only in the userinfo answer.
    let claims: Claims = payload;
    if (payload.email === undefined && discovery.userinfo_endpoint && tokens.access_token) {
      const userinfo = await fetch(discovery.userinfo_endpoint, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      const answer = (await userinfo.json().catch(() => ({}))) as Claims;
      if (userinfo.ok && answer.sub === payload.sub) claims = { ...payload, ...answer };
    }
    return {
      subject: `${discovery.issuer}|${payload.sub}`,
      email: typeof claims.email === 'string' && claims.email_verified !== false ? claims.email : undefined,
      name: typeof claims.name === 'string' ? claims.name : undefined,
    };
  }
}
