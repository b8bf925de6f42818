// The embedded engine process: loads one GGUF model and serves it over OpenAI-compatible HTTP on loopback.
// The gateway forks it, so a model file that aborts llama.cpp takes down only this process.
import type { AddressInfo } from 'node:net';
import type { EngineMessage, EngineOptions } from './options.js';
import { LlamaRuntime } from './runtime.js';
import { createEngineServer } from './server.js';

const tell = (message: EngineMessage) => process.send?.(message);

// When the gateway goes away, so does its engine.
process.on('disconnect', () => process.exit(0));

try {
  const options = JSON.parse(process.argv[2] ?? '{}') as EngineOptions;
  const runtime = await LlamaRuntime.load(options);
  const server = createEngineServer(runtime, options.modelName);
  server.keepAliveTimeout = 65_000;
  server.listen(options.port, options.host, () => {
    const { port } = server.address() as AddressInfo;
    tell({ type: 'ready', port });
  });
  // The gateway drains its own clients before it stops an engine; nothing here needs saving.
  process.on('SIGTERM', () => process.exit(0));
} catch (error) {
  tell({ type: 'failed', message: (error as Error).message });
  process.exitCode = 1;
  process.disconnect?.();
}
