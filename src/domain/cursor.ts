import { illFormedTextAt } from './text';

// Opaque keyset cursors: base64url JSON of the last item's sort key. Clients must not parse them; we
// validate them on the way back in so a tampered cursor is a 400, never a 500 (ill-formed text included).

export function encodeCursor(key: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

export function decodeCursor<T extends Record<string, unknown>>(cursor: string, isValid: (v: unknown) => v is T): T | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return isValid(v) && illFormedTextAt(v) === null ? v : null;
  } catch {
    return null;
  }
}

// A cursor's time exactly as encodeCursor wrote it (Date#toISOString). Date.parse alone accepts forms that
// PostgreSQL refuses ("12", "+275760-09-13T00:00:00.000Z"), which would turn a tampered cursor into a 500.
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const isCursorTime = (v: unknown): v is string => typeof v === 'string' && ISO_MS.test(v) && !Number.isNaN(Date.parse(v));
