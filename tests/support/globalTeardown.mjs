import fs from 'node:fs';

export default async function globalTeardown() {
  await globalThis.__PG__?.stop();
  if (globalThis.__ANVIL__) {
    await globalThis.__ANVIL__.anvil.stop();
    fs.rmSync(globalThis.__ANVIL__.dir, { recursive: true, force: true });
  }
}
