// The receiver of the gate's webhook endpoints: an HTTPS server on a free loopback port (the test certificate
// the gate's service trusts, WEBHOOK_CA_FILE) that answers every delivery 200 at once and counts them.
// Without it the endpoints the gate registers would point at a closed port, and with the test retry schedule
// (tests/support/service-env.json: 200 ms base, 1 s cap) every event would be retried about once a second
// until it gives up: tens of thousands of failing attempts competing with the cases for the 2 cores.
import https from 'node:https';
import fs from 'node:fs';
import { ensureTestTls } from '../scripts/test-tls.mjs';

export async function startWebhookSink() {
  const { cert, key } = ensureTestTls();
  let received = 0;
  const server = https.createServer({ cert: fs.readFileSync(cert), key: fs.readFileSync(key) }, (req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${server.address().port}/contract-hook`,
    received: () => received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
