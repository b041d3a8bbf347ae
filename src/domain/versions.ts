import { AppError } from './errors';

// PAY-Version resolution (docs/decisions.md "Wire compatibility"): three synonymous headers, no silent fallback.
export const VERSIONS = ['2026-02-18', '2026-02-19.preview'] as const;
export type ApiVersion = (typeof VERSIONS)[number];
export const STABLE_VERSION: ApiVersion = '2026-02-18';
/** A version read back from the database (written from a request's version); one this build does not know is the stable one. */
export const storedVersion = (v: string): ApiVersion => ((VERSIONS as readonly string[]).includes(v) ? (v as ApiVersion) : STABLE_VERSION);

const VERSION_HEADERS = ['pay-version', 'wcp-version', 'api-version'] as const;

const WELL_FORMED = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(\.preview)?$/;

/** The version a request pins through its headers, or null when it pins none. */
export function versionFromHeaders(headers: Record<string, string | string[] | undefined>): ApiVersion | null {
  const given = new Set<string>();
  for (const name of VERSION_HEADERS) {
    const raw = headers[name];
    if (raw === undefined) continue;
    for (const v of Array.isArray(raw) ? raw : [raw]) given.add(v.trim());
  }
  if (given.size === 0) return null;
  if (given.size > 1) throw new AppError('conflicting_api_versions');
  const [v] = given;
  if (!WELL_FORMED.test(v))
    throw new AppError('invalid_api_version', `Malformed API version "${v.slice(0, 40)}"; expected YYYY-MM-DD or YYYY-MM-DD.preview.`);
  if (!(VERSIONS as readonly string[]).includes(v)) {
    throw new AppError('unknown_api_version', `Unknown API version "${v}"; known versions: ${VERSIONS.join(', ')}.`);
  }
  return v as ApiVersion;
}
