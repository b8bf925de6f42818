/** What the engine process needs to serve one GGUF model; passed as JSON in its first argument. */
export interface EngineOptions {
  modelPath: string;
  /** The name the engine serves (the `model` it accepts and reports). */
  modelName: string;
  threads: number;
  sequences: number;
  /** Tokens per sequence. */
  contextSize: number;
  host: string;
  /** 0 picks a free port. */
  port: number;
}

/** Messages the engine sends its parent over the IPC channel. */
export type EngineMessage = { type: 'ready'; port: number } | { type: 'failed'; message: string };
