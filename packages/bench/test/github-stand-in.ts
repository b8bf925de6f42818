import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GitHubAccount {
  login: string;
  name: string | null;
  emails: { email: string; primary: boolean; verified: boolean }[];
}

/**
 * GitHub's three OAuth endpoints on loopback, under GitHub Enterprise's paths: the authorize page redirects at once
 * with a code for `next` account, the token endpoint checks the client secret, `/api/v3/user` and `/user/emails`
 * answer for the access token.
 */
export async function startGitHub() {
  const state = { next: undefined as GitHubAccount | undefined, codes: new Map<string, GitHubAccount>() };
  const tokens = new Map<string, GitHubAccount>();
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://github.test');
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (url.pathname === '/login/oauth/authorize') {
      const code = `code-${state.codes.size}`;
      state.codes.set(code, state.next as GitHubAccount);
      const back = new URL(url.searchParams.get('redirect_uri') as string);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') as string);
      response.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/login/oauth/access_token' && request.method === 'POST') {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const form = new URLSearchParams(body);
        const account = state.codes.get(form.get('code') ?? '');
        if (form.get('client_secret') !== 'gh-secret' || !account) return json(200, { error: 'bad_verification_code' });
        state.codes.delete(form.get('code') as string);
        const token = `gho_${tokens.size}`;
        tokens.set(token, account);
        json(200, { access_token: token, token_type: 'bearer', scope: 'user:email' });
      });
      return;
    }
    const account = tokens.get((request.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!account) return json(401, { message: 'Bad credentials' });
    if (url.pathname === '/api/v3/user') return json(200, { login: account.login, name: account.name });
    if (url.pathname === '/api/v3/user/emails') return json(200, account.emails);
    json(404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { state, base, close: () => server.close() };
}
