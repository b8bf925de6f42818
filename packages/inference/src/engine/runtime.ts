import {
  type ChatHistoryItem,
  type ChatWrapper,
  type GbnfJsonSchema,
  getLlama,
  type Llama,
  LlamaChat,
  type LlamaContextSequence,
  type LlamaEmbeddingContext,
  type LlamaGrammar,
  LlamaLogLevel,
  type LlamaModel,
  resolveChatWrapper,
  type Token,
} from 'node-llama-cpp';
import type { EngineOptions } from './options.js';
import { ResourcePool } from './sequence-pool.js';

export interface GenerateParams {
  history: ChatHistoryItem[];
  maxTokens: number;
  temperature: number;
  topP?: number | undefined;
  seed?: number | undefined;
  stop?: string[] | undefined;
  grammar?: LlamaGrammar | undefined;
  signal: AbortSignal;
}

export interface GenerateResult {
  finishReason: 'stop' | 'length';
  /** The stop string that ended generation, as vLLM reports it. */
  stopReason: string | null;
  completionTokens: number;
}

/**
 * A loaded GGUF model: one context with N sequences (node-llama-cpp batches the tokens of all busy sequences
 * into one decode) plus an embedding context. Each request takes a sequence and gives it back; token counts
 * come from the rendered prompt and the generated chunks.
 */
export class LlamaRuntime {
  private embeddingQueue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly llama: Llama,
    readonly model: LlamaModel,
    readonly contextSize: number,
    private readonly sequences: ResourcePool<LlamaContextSequence>,
    private readonly chatWrapper: ChatWrapper,
    private readonly embedding: LlamaEmbeddingContext,
  ) {}

  static async load(options: EngineOptions): Promise<LlamaRuntime> {
    const llama = await getLlama({
      gpu: false,
      build: 'never',
      maxThreads: options.threads,
      logLevel: LlamaLogLevel.error,
      // llama.cpp's own messages never carry prompt text at this level, but keep them off stdout.
      logger: (level, message) => process.stderr.write(`[llama ${level}] ${message}\n`),
    });
    const model = await llama.loadModel({ modelPath: options.modelPath });
    const context = await model.createContext({
      sequences: options.sequences,
      contextSize: options.contextSize,
      threads: options.threads,
    });
    const sequences = Array.from({ length: options.sequences }, () => context.getSequence());
    const embedding = await model.createEmbeddingContext({
      contextSize: options.contextSize,
      threads: options.threads,
    });
    const chatWrapper = resolveChatWrapper(model);
    return new LlamaRuntime(llama, model, context.contextSize, new ResourcePool(sequences), chatWrapper, embedding);
  }

  /** Token ids at or above this are invalid (llama.cpp aborts on them, so inputs are checked first). */
  get vocabularySize(): number {
    return this.model.fileInfo.metadata.tokenizer.ggml.tokens.length;
  }

  /** Prompt tokens of a history as the chat template renders it. */
  countPromptTokens(history: ChatHistoryItem[]): number {
    return this.chatWrapper.generateContextState({ chatHistory: history }).contextText.tokenize(this.model.tokenizer)
      .length;
  }

  async generate(
    params: GenerateParams,
    onText: (text: string, completionTokens: number) => void,
  ): Promise<GenerateResult> {
    const sequence = await this.sequences.acquire(params.signal);
    const chat = new LlamaChat({
      contextSequence: sequence,
      chatWrapper: this.chatWrapper,
      autoDisposeSequence: false,
    });
    let completionTokens = 0;
    try {
      const result = await chat.generateResponse(params.history, {
        maxTokens: params.maxTokens,
        temperature: params.temperature,
        ...(params.topP !== undefined ? { topP: params.topP } : {}),
        ...(params.seed !== undefined ? { seed: params.seed } : {}),
        ...(params.stop?.length ? { customStopTriggers: params.stop } : {}),
        ...(params.grammar ? { grammar: params.grammar } : {}),
        signal: params.signal,
        stopOnAbortSignal: true,
        onResponseChunk: (chunk) => {
          if (chunk.type !== undefined) return;
          completionTokens += chunk.tokens.length;
          if (chunk.text) onText(chunk.text, completionTokens);
        },
      });
      const meta = result.metadata;
      if (meta.stopReason === 'maxTokens') return { finishReason: 'length', stopReason: null, completionTokens };
      const stopReason =
        meta.stopReason === 'customStopTrigger'
          ? meta.customStopTrigger.filter((t) => typeof t === 'string').join('')
          : null;
      return { finishReason: 'stop', stopReason, completionTokens };
    } finally {
      // The sequence keeps its evaluated tokens: the next request on it re-evaluates only what differs from
      // them (a shared system prompt or the earlier turns of a conversation). Usage does not depend on this.
      chat.dispose({ disposeSequence: false });
      this.sequences.release(sequence);
    }
  }

  /** Embeds items one after another (the embedding context evaluates one input at a time). */
  embed(
    items: ReadonlyArray<string | number[]>,
  ): Promise<{ vectors: ReadonlyArray<readonly number[]>; promptTokens: number }> {
    const run = async () => {
      const vectors: Array<readonly number[]> = [];
      let promptTokens = 0;
      for (const item of items) {
        const tokens = typeof item === 'string' ? this.model.tokenize(item) : (item as Token[]);
        promptTokens += tokens.length;
        vectors.push((await this.embedding.getEmbeddingFor(tokens)).vector);
      }
      return { vectors, promptTokens };
    };
    const next = this.embeddingQueue.then(run, run);
    this.embeddingQueue = next.catch(() => undefined);
    return next;
  }

  /** A grammar forcing JSON output: any JSON object, or one matching `schema`. */
  createJsonGrammar(schema: GbnfJsonSchema | undefined): Promise<LlamaGrammar> {
    return schema === undefined
      ? this.llama.getGrammarFor('json')
      : this.llama.createGrammarForJsonSchema<GbnfJsonSchema>(schema);
  }

  async dispose(): Promise<void> {
    await this.llama.dispose();
  }
}
