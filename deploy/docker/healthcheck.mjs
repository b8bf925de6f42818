// The image's HEALTHCHECK: healthy when every Atrium service listening in this container answers GET /healthz
// with 200 (a service not started here refuses the connection and is skipped) and at least one does.
const PORTS = { INFERENCE: 8000, PROVENANCE: 5000, BENCH: 6610 };

async function probe(port) {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(4000) });
    return response.ok ? 'up' : 'down';
  } catch (error) {
    return error?.cause?.code === 'ECONNREFUSED' ? 'absent' : 'down';
  }
}

const states = await Promise.all(
  Object.entries(PORTS).map(([service, port]) => probe(Number(process.env[`ATRIUM_${service}_PORT`] ?? port))),
);
process.exit(states.includes('down') || !states.includes('up') ? 1 : 0);
