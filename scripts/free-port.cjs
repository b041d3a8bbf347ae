// A free TCP port on 127.0.0.1 for a process that binds it later (PostgreSQL, anvil, a service started as a
// child): the one helper for the tests, the contract gate, the SDK suite and the benchmarks.
//
// The kernel's pick (listen on port 0, then close) is free now, but the kernel hands the same port out again
// soon: on the test machine 547 of 3,000 picks in a row repeated an earlier one, one of them 6 picks later. Between
// the pick and the child's bind, a second pick (in this process or in another part of make test running beside
// it) could get the same port, and one of the two children would fail to start. So each pick takes a lease: a
// file named after the port in a folder shared by the machine's processes, created exclusively. A port whose
// lease is younger than LEASE_MS is someone else's, and the kernel is asked again; an older lease is stale (its
// child has bound the port long ago, which the kernel's pick then sees, or has gone) and is taken over.
'use strict';
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const LEASE_MS = 10 * 60_000;
const leases = path.join(os.tmpdir(), 'paygate-port-leases');

/** A port nobody listens on now (the kernel's pick). */
function kernelPick() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Takes the lease of `port`; false when another pick holds it. */
function lease(port) {
  fs.mkdirSync(leases, { recursive: true });
  const file = path.join(leases, String(port));
  try {
    fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch (e) {
    if (e.code !== 'EEXIST') throw e;
  }
  let age;
  try {
    age = Date.now() - fs.statSync(file).mtimeMs;
  } catch {
    return false; // removed meanwhile: pick again
  }
  if (age < LEASE_MS) return false;
  const mine = `${file}.${process.pid}`;
  fs.writeFileSync(mine, String(process.pid));
  fs.renameSync(mine, file); // a fresh lease in one step
  return true;
}

/** A free port, leased for LEASE_MS to the caller. */
async function freePort() {
  for (let tries = 0; tries < 200; tries++) {
    const port = await kernelPick();
    if (lease(port)) return port;
  }
  throw new Error(`no free port without a lease in ${leases} after 200 picks`);
}

module.exports = { freePort };
