import getRawBody from 'raw-body';
import type { Context } from 'koa';
import { AppError } from '../domain/errors';
import { illFormedTextAt, mayEscapeSurrogates } from '../domain/text';

const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json$/;

/**
 * Deepest nesting of arrays and objects a JSON body may have. No request of the API comes near it; deeper
 * bodies would reach code that walks JSON recursively (the idempotency fingerprint, validators) and
 * overflow the stack, a 500 for what is bad input.
 */
const MAX_JSON_DEPTH = 32;

/** True when `text` nests arrays/objects deeper than `max` (a linear scan, before anything is parsed). */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * Reads a JSON request body within the configured limit. Returns undefined when there is none.
 * Wrong media type -> 415, too large -> 413, malformed JSON, nested deeper than MAX_JSON_DEPTH or with a
 * string or key that is not well-formed text (a lone surrogate escape, ../domain/text.ts) -> 400 invalid_params.
 */
export async function readJsonBody(ctx: Context, limit: number): Promise<unknown> {
  const length = ctx.request.length;
  const hasBody = (length !== undefined && length > 0) || ctx.get('transfer-encoding') !== '';
  if (!hasBody) return undefined;
  const mediaType = (ctx.get('content-type').split(';')[0] || '').trim().toLowerCase();
  if (!JSON_TYPE.test(mediaType)) {
    throw new AppError(
      'unsupported_media_type',
      `Content-Type must be application/json${mediaType ? `, got ${mediaType.slice(0, 100)}` : ''}.`,
    );
  }
  let text: string;
  try {
    text = await getRawBody(ctx.req, { limit, length, encoding: 'utf8' });
  } catch (e) {
    const type = (e as { type?: string }).type;
    if (type === 'entity.too.large') throw new AppError('payload_too_large', `The request body exceeds ${limit} bytes.`);
    throw new AppError('invalid_params', 'The request body could not be read.');
  }
  if (text.trim() === '') return undefined;
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new AppError('invalid_params', `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError('invalid_params', 'The request body is not valid JSON.');
  }
  const illFormed = mayEscapeSurrogates(text) ? illFormedTextAt(body) : null;
  if (illFormed !== null) {
    throw new AppError('invalid_params', 'The request body has text that is not well-formed Unicode.', [
      { field: illFormed, message: 'has a lone surrogate (\\ud800 to \\udfff without its other half): not text' },
    ]);
  }
  return body;
}
