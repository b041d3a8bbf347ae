import fs from 'node:fs';
import path from 'node:path';

/** The project root: the nearest folder above this file holding package.json (works from src/ and dist/). */
export const projectRoot: string = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('package.json not found above ' + __dirname);
    dir = up;
  }
  return dir;
})();
