import fs from 'node:fs';

export default async function globalTeardown() {
  await globalThis.__PG__?.stop();
  if (globalThis.__ANVIL__) {
    for (const anvil of globalThis.__ANVIL__.anvils) await anvil.stop();
    fs.rmSync(globalThis.__ANVIL__.dir, { recursive: true, force: true });
  }
}
