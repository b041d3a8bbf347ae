// Well-formed text. A JavaScript string is UTF-16 and may hold a lone surrogate (half of a pair, no character
// at all), which no UTF-8 text can: PostgreSQL refuses it in jsonb (an event's record, a stored response),
// and drivers replace it silently elsewhere. Bytes never make one (the UTF-8 decoder turns invalid sequences
// into U+FFFD); only a JSON escape does ("\ud800"), so the JSON the service parses from a client (request
// bodies, cursors) is checked here, and what fails is bad input (tests/integration/illFormedText.test.ts).

const SURROGATE = /[\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

const illFormed = (s: string): boolean => SURROGATE.test(s) && LONE_SURROGATE.test(s);

/** True when `json` may hold a surrogate escape (`\uD800` to `\uDFFF`): only then can it parse to ill-formed text. */
export const mayEscapeSurrogates = (json: string): boolean => /\\u[dD][89a-fA-F]/.test(json);

/**
 * The JSON pointer (RFC 6901) of the first string or object key in a parsed JSON value that is not well-formed
 * text; `''` for the value itself, null when every one is. Surrogates in the pointer are shown as U+FFFD.
 */
export function illFormedTextAt(value: unknown): string | null {
  const path: string[] = [];
  if (!find(value, path)) return null;
  return path.map((key) => `/${key.replace(/~/g, '~0').replace(/\//g, '~1').replace(LONE_SURROGATES, '\ufffd')}`).join('');
}

/** True when `value` holds ill-formed text; `path` then leads to it. */
function find(value: unknown, path: string[]): boolean {
  if (typeof value === 'string') return illFormed(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (find(value[i], path)) return found(path, String(i));
    }
    return false;
  }
  for (const key of Object.keys(value)) {
    if (illFormed(key) || find((value as Record<string, unknown>)[key], path)) return found(path, key);
  }
  return false;
}

function found(path: string[], key: string): true {
  path.unshift(key);
  return true;
}
