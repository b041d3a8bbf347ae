import getRawBody from 'raw-body';
import type { Context } from 'koa';
import { AppError } from '../domain/errors';

const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json$/;

/**
 * Reads a JSON request body within the configured limit. Returns undefined when there is none.
 * Wrong media type -> 415, too large -> 413, malformed JSON -> 400 invalid_params.
 */
export async function readJsonBody(ctx: Context, limit: number): Promise<unknown> {
  const length = ctx.request.length;
  const hasBody = (length !== undefined && length > 0) || ctx.get('transfer-encoding') !== '';
  if (!hasBody) return undefined;
  const mediaType = (ctx.get('content-type').split(';')[0] || '').trim().toLowerCase();
  if (!JSON_TYPE.test(mediaType)) {
    throw new AppError('unsupported_media_type', `Content-Type must be application/json${mediaType ? `, got ${mediaType.slice(0, 100)}` : ''}.`);
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
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('invalid_params', 'The request body is not valid JSON.');
  }
}
