import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EngineMessage, EngineOptions } from './options.js';

/** The engine entry: compiled JS next to this module, or (tests run the sources) the TS file through tsx. */
function engineEntry(): { file: string; execArgv: string[] } {
  const js = fileURLToPath(new URL('./main.js', import.meta.url));
  if (existsSync(js)) return { file: js, execArgv: [] };
  return { file: fileURLToPath(new URL('./main.ts', import.meta.url)), execArgv: ['--import', 'tsx'] };
}

const MAX_LINE = 500;

export interface EngineProcess {
  child: ChildProcess;
  /** `http://host:port` of the engine's OpenAI-compatible server. */
  origin: string;
  /** Resolves with the exit code (or signal) when the process ends. */
  exited: Promise<number | string>;
  stop(): Promise<void>;
}

/**
 * Forks an engine process and waits until its server listens. stderr lines (llama.cpp errors; never request
 * content) go to `onStderr`.
 */
export function spawnEngine(
  options: EngineOptions,
  onStderr: (line: string) => void = () => {},
  readyTimeoutMs = 60_000,
): Promise<EngineProcess> {
  const entry = engineEntry();
  const child = fork(entry.file, [JSON.stringify(options)], {
    execArgv: entry.execArgv,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let buffered = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    buffered += text;
    const lines = buffered.split('\n');
    buffered = (lines.pop() ?? '').slice(-MAX_LINE);
    for (const line of lines) if (line.trim()) onStderr(line.slice(0, MAX_LINE));
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`engine for ${options.modelName} did not start within ${readyTimeoutMs} ms`));
    }, readyTimeoutMs);
    child.on('message', (message: EngineMessage) => {
      clearTimeout(timer);
      if (message.type === 'ready') resolve({ child, origin: `http://${options.host}:${message.port}`, exited, stop });
      else reject(new Error(`engine for ${options.modelName} failed to start: ${message.message}`));
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`engine for ${options.modelName} exited during start-up (${code})`));
    });
  });
}
