// A self-signed certificate for localhost and 127.0.0.1, made once with openssl into .data/test-tls/: the
// webhook receivers of the tests listen on HTTPS with it, and the service trusts it via WEBHOOK_CA_FILE
// (tests/support/service-env.json). Generated, never committed: it is a test key.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TEST_TLS_DIR = path.join(root, '.data/test-tls');

/**
 * The pair, made when missing. Processes that start at the same moment (make test's parts side by side) each make a
 * pair in a folder of their own and rename it into place: the first rename wins and the others use its pair, so a
 * key never meets another process's certificate.
 */
export function ensureTestTls() {
  const cert = path.join(TEST_TLS_DIR, 'cert.pem');
  const key = path.join(TEST_TLS_DIR, 'key.pem');
  const complete = () => fs.existsSync(cert) && fs.existsSync(key);
  if (!complete()) {
    const mine = `${TEST_TLS_DIR}.${process.pid}`;
    fs.mkdirSync(mine, { recursive: true });
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
        path.join(mine, 'key.pem'),
        '-out',
        path.join(mine, 'cert.pem'),
        '-days',
        '3650',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    // A folder left incomplete by an older release's tool is replaced; a complete one (another process won) is kept.
    if (fs.existsSync(TEST_TLS_DIR) && !complete()) fs.rmSync(TEST_TLS_DIR, { recursive: true, force: true });
    try {
      fs.renameSync(mine, TEST_TLS_DIR);
    } catch (e) {
      if (!complete()) throw e;
      fs.rmSync(mine, { recursive: true, force: true });
    }
  }
  return { cert, key };
}
