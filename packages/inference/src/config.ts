import { httpFields, type SmtpConfig, smtpSchema } from '@atrium/core';
import { z } from 'zod';
import { announceSchema } from './announce/channel-config.js';

const startedAt = Math.floor(Date.now() / 1000);

export const MODALITIES = ['text', 'image', 'audio', 'video'] as const;
export type Modality = (typeof MODALITIES)[number];

const embeddedBackend = z.strictObject({
  type: z.literal('embedded'),
  /** A GGUF file; default: the generated tiny test model under `<dataDir>/models/`. */
  path: z.string().min(1).optional(),
  /** llama.cpp threads; more threads than free cores is ~100x slower, so 1 unless measured otherwise. */
  threads: z.number().int().positive().default(1),
  /** Sequences evaluated together in one batch (concurrent requests per engine). */
  sequences: z.number().int().min(1).max(64).default(4),
});

const upstreamBackend = z.strictObject({
  type: z.literal('upstream'),
  /** Base URLs (without `/v1`) of OpenAI-compatible servers serving this model, e.g. vLLM replicas. */
  replicas: z
    .array(z.string().regex(/^https?:\/\/[^/?#]+$/, 'must be http(s)://host[:port] without a path'))
    .min(1, 'needs at least one replica'),
  /** Sent upstream as `Authorization: Bearer <apiKey>`. */
  apiKey: z.string().min(1).optional(),
  /** The model name the upstream serves (vLLM's --served-model-name); default: the public id. */
  model: z.string().min(1).optional(),
});

export const modelSchema = z.strictObject({
  /** `<vendor>/<model_name>`, the value clients pass as `model`. */
  id: z.string().regex(/^[\w.-]+\/[\w.:-]+$/, 'must look like <vendor>/<model_name>'),
  /** Unix seconds; defaults to the gateway's start time. */
  created: z.number().int().nonnegative().default(startedAt),
  contextLength: z.number().int().positive(),
  /** Input modalities; text is always included. */
  modalities: z
    .array(z.enum(MODALITIES))
    .default(['text'])
    .transform((list) => [...new Set<Modality>(['text', ...list])]),
  capabilities: z
    .strictObject({
      /** Off for models served without auto tool choice (the `-thinking` variants). */
      tools: z.boolean().default(true),
      embeddings: z.boolean().default(false),
      reasoning: z.boolean().default(false),
    })
    .prefault({}),
  backend: z.discriminatedUnion('type', [embeddedBackend, upstreamBackend]),
  /** Credits charged per million tokens; cached and uncached input tokens cost the same. */
  pricing: z
    .strictObject({
      inputPerMillion: z.number().nonnegative().default(1),
      outputPerMillion: z.number().nonnegative().default(1),
    })
    .prefault({}),
});

export const routingSchema = z
  .strictObject({
    connectTimeoutMs: z.number().int().positive().default(5_000),
    /** Until the upstream's response headers arrive (prompt processing included). */
    firstByteTimeoutMs: z.number().int().positive().default(120_000),
    /** Longest silence between two chunks of a response body. */
    idleTimeoutMs: z.number().int().positive().default(60_000),
    /** A stream silent this long gets a keep-alive (an SSE comment, Anthropic's `ping`), so proxies keep it open. */
    streamKeepaliveMs: z.number().int().positive().default(15_000),
    healthIntervalMs: z.number().int().positive().default(5_000),
    /** How long a replica is skipped after it failed. */
    ejectMs: z.number().int().positive().default(10_000),
    /** Consecutive 5xx answers that eject a replica (a refused connection ejects at once). */
    failureThreshold: z.number().int().positive().default(3),
    /**
     * Concurrent requests (connections) per replica; more wait for one. A vLLM replica runs hundreds of
     * sequences at once, so the default is not what limits a replica.
     */
    connectionsPerReplica: z.number().int().positive().default(1024),
    /** How long a request waits for a free connection before it is answered 503 (overloaded). */
    connectionWaitMs: z.number().int().positive().default(10_000),
  })
  .prefault({});

export const inferenceConfigSchema = z
  .strictObject({
    ...httpFields(8000),
    /**
     * Chat requests carry base64 images and audio: 32 MiB on the `/v1` routes, like vLLM's and Anthropic's limits;
     * every other route takes at most 256 KiB (the `/ui` forms 64 KiB).
     */
    bodyLimit: z
      .number()
      .int()
      .positive()
      .default(32 * 1024 * 1024),
    /** `owned_by` of every model: the gateway's name. */
    ownedBy: z.string().min(1).default('atrium'),
    /** The catalogue; when empty, the embedded engine serves the generated tiny test model. */
    models: z
      .array(modelSchema)
      .default([])
      .check((ctx) => {
        const seen = new Set<string>();
        for (const [i, model] of ctx.value.entries()) {
          if (seen.has(model.id))
            ctx.issues.push({
              code: 'custom',
              message: `duplicate model id '${model.id}'`,
              input: model.id,
              path: [i, 'id'],
            });
          seen.add(model.id);
        }
      }),
    auth: z
      .strictObject({
        /** First start on an empty database creates demo data (account, project, key); `ATRIUM_DEMO=0` skips it. */
        demo: z.boolean().default(() => process.env.ATRIUM_DEMO !== '0'),
        /** The demo key's secret (else `ATRIUM_DEMO_KEY`, else a random one printed once in the start banner). */
        demoKey: z.string().min(8).optional(),
      })
      .prefault({}),
    /** Web UI sign-in through an external OpenID Connect provider (authorization code flow with PKCE). */
    oidc: z
      .strictObject({
        issuer: z.url(),
        clientId: z.string().min(1),
        clientSecret: z.string().min(1),
        /** The button text on the sign-in page. */
        name: z.string().min(1).default('single sign-on'),
      })
      .optional(),
    /** Announcement emails go out through this server; without it they stay in the outbox the operator reads. */
    smtp: smtpSchema.optional(),
    /** Chat channels announcements are posted to besides email and the status page. */
    announce: announceSchema,
    tenancy: z
      .strictObject({
        /** Projects of this organisation create their inference resource themselves (path a). */
        designatedOrganisation: z.string().min(1).default('atrium'),
        /**
         * When a request's prompt bound (its UTF-8 bytes) and output do not fit what is left of a budget or limit,
         * count the prompt with the model's tokenizer (the model server's `/tokenize`) before capping the output.
         */
        exactPromptCounting: z.boolean().default(true),
        /** How long that count may take before the byte bound is used instead. */
        tokenizeTimeoutMs: z.number().int().positive().default(1_000),
      })
      .prefault({}),
    media: z
      .strictObject({
        /** Hosts whose http(s) media URLs may be forwarded; `data:` URLs are always allowed. */
        allowedHosts: z.array(z.string().min(1)).default([]),
      })
      .prefault({}),
    routing: routingSchema,
  })
  .prefault({});

export type InferenceConfig = z.infer<typeof inferenceConfigSchema>;
export type ModelConfig = z.infer<typeof modelSchema>;
export type EmbeddedBackend = z.infer<typeof embeddedBackend>;
export type UpstreamBackend = z.infer<typeof upstreamBackend>;
export type RoutingConfig = z.infer<typeof routingSchema>;
export type { SmtpConfig };
