// Starts one service for the fuzz run and prepares what its corpus needs (keys, a project, a node).

import { atrium, type Dialect, type Running, type Service, startService } from '../bench/lib/atrium-serve.js';
import type { Secrets } from './case.js';
import { ECHO, SMALL_BUDGET, TINY } from './corpus/inference.js';

export interface Target {
  running: Running;
  secrets: Secrets;
  /** Strings that must never appear in the logs after start-up, by what they are. */
  markers: Map<string, string>;
}

const random = () => Math.random().toString(36).slice(2, 12);

function inferenceConfig(upstream: string): string {
  return `[[inference.models]]
id = "${TINY}"
contextLength = 8192
capabilities = { tools = false, embeddings = true }
backend = { type = "embedded", threads = 1, sequences = 4 }

[[inference.models]]
id = "${ECHO}"
contextLength = 8192
backend = { type = "upstream", replicas = ["${upstream}"] }
`;
}

export async function startTarget(service: Service, dialect: Dialect, upstream: string): Promise<Target> {
  const secrets: Secrets = { demoKey: `sk-fuzz-demo-${random()}`, smallKey: '', benchToken: '', nodeUuid: '' };
  const markers = new Map<string, string>();
  if (service === 'inference') {
    const running = await startService('inference', dialect, {
      config: inferenceConfig(upstream),
      env: { ATRIUM_DEMO_KEY: secrets.demoKey },
    });
    const created = await atrium(
      [
        'inference',
        'create-key',
        '--project',
        'demo',
        '--alias',
        'fuzz-small',
        '--budget',
        String(SMALL_BUDGET),
      ].concat([
        '--models',
        `${ECHO},${TINY}`,
        '--json',
        '--config',
        running.configFile,
        '--data-dir',
        running.dataDir,
      ]),
      running.env,
    );
    secrets.smallKey = (JSON.parse(created) as { secret: string }).secret;
    const password = /password: (\S+)/.exec(running.startup)?.[1];
    if (password) markers.set('demo password', password);
    markers.set('demo API key', secrets.demoKey);
    markers.set('small-budget API key', secrets.smallKey);
    return { running, secrets, markers };
  }
  if (service === 'bench') {
    const running = await startService('bench', dialect, {
      before: async (cli) => {
        await cli(['bench', 'admin', 'user', 'create', '--name', 'Fuzz Runner', '--email', 'fuzz@fuzz.local']);
        secrets.benchToken = (await cli(['bench', 'admin', 'token', '--email', 'fuzz@fuzz.local', '--jwt'])).trim();
      },
    });
    const created = await fetch(`${running.origin}/v0/organizations/fuzz-runner/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secrets.benchToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Fuzz', slug: 'fuzz' }),
    });
    if (created.status !== 201) throw new Error(`bench project: ${created.status} ${await created.text()}`);
    markers.set('bench JWT', secrets.benchToken);
    return { running, secrets, markers };
  }
  // A statement deadline short enough for the C1 join chains to answer within the corpus's 2 s (default 5 s).
  const running = await startService('provenance', dialect, { env: { ATRIUM_PROVENANCE_QUERY_TIMEOUT_MS: '1000' } });
  const listed = (await (await fetch(`${running.origin}/api/v4/nodes?limit=1`)).json()) as {
    data: { nodes: { uuid: string }[] };
  };
  secrets.nodeUuid = listed.data.nodes[0]?.uuid ?? '';
  return { running, secrets, markers };
}
