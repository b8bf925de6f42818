import { expect, it } from 'vitest';
import { withoutValue } from '../src/catalogue-reload.js';

it.each([
  [
    'config error: inference.models.0.backend.apiKey: Invalid input (got 12345)',
    'config error: inference.models.0.backend.apiKey: Invalid input',
  ],
  [
    'config error: inference.port: must be a port number 0-65535 (got "sk-secret)") [from ATRIUM_INFERENCE_PORT]',
    'config error: inference.port: must be a port number 0-65535 [from ATRIUM_INFERENCE_PORT]',
  ],
  [
    'config error: file /etc/atrium.toml: invalid TOML: Invalid TOML document',
    'config error: file /etc/atrium.toml: invalid TOML: Invalid TOML document',
  ],
  [
    'config error: inference.models.1.backend.path /m.gguf: no such file',
    'config error: inference.models.1.backend.path /m.gguf: no such file',
  ],
])('%s', (message, reported) => {
  expect(withoutValue(message)).toBe(reported);
});
