/** The web UI spoken over plain HTTP: cookies and CSRF tokens handled as a browser would. */
export class UiClient {
  private readonly cookies = new Map<string, string>();

  constructor(readonly base: string) {}

  private remember(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }

  private get cookie(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async get(path: string): Promise<{ status: number; text: string }> {
    const response = await fetch(`${this.base}${path}`, { headers: { cookie: this.cookie }, redirect: 'manual' });
    this.remember(response);
    return { status: response.status, text: await response.text() };
  }

  /** Posts a form with the CSRF token of the page at `from` (the sign-in page's, or the session's). */
  async post(path: string, fields: Record<string, string>, from = '/ui/'): Promise<Response> {
    const csrf = /name="csrf" value="([^"]+)"/.exec((await this.get(from)).text)?.[1] ?? '';
    const response = await fetch(`${this.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: this.cookie },
      body: new URLSearchParams({ ...fields, csrf }).toString(),
      redirect: 'manual',
    });
    this.remember(response);
    return response;
  }

  signIn(email: string, password: string): Promise<Response> {
    return this.post('/ui/signin/password', { email, password });
  }
}
