import type { Logger } from '@atrium/core';

/**
 * Waiting for an upstream connection, over every replica of a process: how many requests wait now, how
 * many have waited and how many gave up, for `/metrics`; one log line when an episode of waiting starts
 * at a replica (not one per request).
 */
export class ConnectionWaits {
  waiting = 0;
  waits = 0;
  timeouts = 0;

  constructor(private readonly logger: Logger) {}

  /** A replica's first waiting request after none were waiting. */
  episode(origin: string, connections: number): void {
    this.logger.warn(
      { origin, connections },
      'requests are waiting for a connection to a model server: all its connections are busy (routing.connectionsPerReplica)',
    );
  }

  render(): string {
    return [
      '# HELP atrium_inference_upstream_waiting Requests waiting now for a connection to a model server.',
      '# TYPE atrium_inference_upstream_waiting gauge',
      `atrium_inference_upstream_waiting ${this.waiting}`,
      '# HELP atrium_inference_upstream_waits_total Requests that had to wait for a connection to a model server.',
      '# TYPE atrium_inference_upstream_waits_total counter',
      `atrium_inference_upstream_waits_total ${this.waits}`,
      '# HELP atrium_inference_upstream_wait_timeouts_total Requests refused (503) after waiting routing.connectionWaitMs.',
      '# TYPE atrium_inference_upstream_wait_timeouts_total counter',
      `atrium_inference_upstream_wait_timeouts_total ${this.timeouts}`,
      '',
    ].join('\n');
  }
}
