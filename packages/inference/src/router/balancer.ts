/** What the balancer needs to know about a replica. */
export interface ReplicaLoad {
  /** Unset while the replica has no address (an embedded engine that is (re)starting). */
  readonly origin: string | undefined;
  readonly outstanding: number;
  /** Unix ms until which the replica is skipped after failures; 0 when healthy. */
  readonly ejectedUntil: number;
}

/**
 * Least outstanding requests among the replicas not yet tried; ties go to the first one at or after `cursor`
 * (the caller rotates it) so equal replicas share the load. Ejected replicas are used only when nothing else
 * is left, the one whose ejection ends first, so a model is never without a replica to try.
 */
export function pickReplica<R extends ReplicaLoad>(
  replicas: readonly R[],
  now: number,
  tried: ReadonlySet<R>,
  cursor: number,
): R | undefined {
  let best: R | undefined;
  let fallback: R | undefined;
  for (let i = 0; i < replicas.length; i++) {
    const replica = replicas[(cursor + i) % replicas.length] as R;
    if (replica.origin === undefined || tried.has(replica)) continue;
    if (replica.ejectedUntil > now) {
      if (!fallback || replica.ejectedUntil < fallback.ejectedUntil) fallback = replica;
    } else if (!best || replica.outstanding < best.outstanding) {
      best = replica;
    }
  }
  return best ?? fallback;
}
