import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificate {
  certFile: string;
  keyFile: string;
  /** The certificate's PEM: a client trusts the server by passing it as `ca`. */
  pem: string;
}

/** A fresh self-signed certificate for 127.0.0.1 and localhost, made with the openssl CLI. */
export function makeCertificate(dir = mkdtempSync(join(tmpdir(), 'atrium-tls-')), name = 'server'): TestCertificate {
  const certFile = join(dir, `${name}.crt`);
  const keyFile = join(dir, `${name}.key`);
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
      ...['-subj', `/CN=${name}`, '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
      ...['-keyout', keyFile, '-out', certFile],
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile, pem: readFileSync(certFile, 'utf8') };
}
