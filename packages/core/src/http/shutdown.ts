import type { FastifyInstance } from 'fastify';

/**
 * Stops accepting, lets in-flight requests finish for up to `timeoutMs`, then cuts the remaining
 * connections; `onClose` hooks (database pools) run after the server has closed.
 */
export async function closeGracefully(app: FastifyInstance, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const closing = app.close().then(() => 'closed' as const);
  // Keep-alive connections of requests that finish during the drain become idle; close them as they do.
  const sweeper = setInterval(() => app.server.closeIdleConnections(), 50);
  const outcome = await Promise.race([closing, deadline]);
  clearTimeout(timer);
  clearInterval(sweeper);
  if (outcome === 'timeout') {
    app.log.warn({ timeoutMs }, 'shutdown deadline reached, closing open connections');
    app.server.closeAllConnections();
    await closing;
  }
}

/** Runs `onSignal` once on the first SIGTERM or SIGINT; a second signal exits at once. */
export function onShutdownSignal(onSignal: (signal: NodeJS.Signals) => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    onSignal(signal).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
