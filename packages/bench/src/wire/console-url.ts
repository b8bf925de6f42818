/** Where the console is: `consoleUrl` when configured, else this service's own address and port. */
export function consoleUrlOf(
  config: { consoleUrl?: string | undefined; bind: string; tls?: unknown },
  listeningPort: number,
): string {
  if (config.consoleUrl) return config.consoleUrl.replace(/\/+$/, '');
  // A wildcard bind listens on every interface; links name the machine itself.
  const host = config.bind === '0.0.0.0' || config.bind === '::' ? 'localhost' : config.bind;
  const named = host.includes(':') ? `[${host}]` : host;
  return `${config.tls ? 'https' : 'http'}://${named}:${listeningPort}`;
}
