// A self-signed certificate for localhost and 127.0.0.1, made once with openssl into .data/test-tls/: the
// webhook receivers of the tests listen on HTTPS with it, and the service trusts it via WEBHOOK_CA_FILE
// (tests/support/service-env.json). Generated, never committed: it is a test key.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TEST_TLS_DIR = path.join(root, '.data/test-tls');

export function ensureTestTls() {
  const cert = path.join(TEST_TLS_DIR, 'cert.pem');
  const key = path.join(TEST_TLS_DIR, 'key.pem');
  if (!fs.existsSync(cert) || !fs.existsSync(key)) {
    fs.mkdirSync(TEST_TLS_DIR, { recursive: true });
    const tmpKey = `${key}.${process.pid}`;
    const tmpCert = `${cert}.${process.pid}`;
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        tmpKey,
        '-out',
        tmpCert,
        '-days',
        '3650',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    fs.renameSync(tmpKey, key);
    fs.renameSync(tmpCert, cert);
  }
  return { cert, key };
}
