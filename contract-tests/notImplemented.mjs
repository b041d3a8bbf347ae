// Reads contract-tests/not-implemented.txt: the one list of operationIds that still answer 501.
import fs from 'node:fs';
import path from 'node:path';

const file = path.join(path.dirname(new URL(import.meta.url).pathname), 'not-implemented.txt');

export function notImplemented() {
  return new Set(
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .map((l) => l.replace(/#.*/, '').trim())
      .filter(Boolean),
  );
}
