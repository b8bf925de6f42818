import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ATRIUM_BIN, cliEnv, type Finished } from '../../cli/test/run-cli.js';
import { checkPassword } from '../src/storage/accounts.js';
import { withDatabase } from './support/tenancy.js';

/** `atrium inference create-account …` with `stdin` written to its standard input. */
function createAccount(dataDir: string, args: string[], stdin = '', env: Record<string, string> = {}) {
  return new Promise<Finished>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [ATRIUM_BIN, 'inference', 'create-account', '--name', 'N', '--data-dir', dataDir, ...args],
      { env: cliEnv({ ATRIUM_DEMO: '0', ...env }) },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe('atrium inference create-account keeps the password out of the process list', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'atrium-cli-password-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const signsIn = (email: string, password: string) =>
    withDatabase(`sqlite:${join(dataDir, 'inference.db')}`, async (db) => {
      expect(await checkPassword(db, email, password)).toMatchObject({ email });
    });

  it.each([
    ['--password-stdin', ['--password-stdin'], 'from stdin\n', {}, 'from stdin'],
    ['ATRIUM_INFERENCE_PASSWORD', [], '', { ATRIUM_INFERENCE_PASSWORD: 'from env' }, 'from env'],
  ])(
    '%s',
    async (name, args, stdin, env, password) => {
      const email = `${name.replace(/\W/g, '')}@example.org`.toLowerCase();
      const created = await createAccount(dataDir, ['--email', email, ...args], stdin, env);
      expect([created.code, created.stderr]).toEqual([0, '']);
      expect(created.stdout).not.toContain(password);
      await signsIn(email, password);
    },
    60_000,
  );

  it('refuses an empty password on stdin', async () => {
    const refused = await createAccount(dataDir, ['--email', 'r@example.org', '--password-stdin'], '\n');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('--password-stdin read an empty password');
  }, 60_000);
});
