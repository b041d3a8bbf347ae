import type { IncomingHttpHeaders } from 'node:http';
import { ApiVersion, STABLE_VERSION, versionFromHeaders } from '../../domain/versions';

/**
 * Paths that speak another protocol's wire, versioned in their own bodies (x402's `x402Version`): their clients send
 * no PAY-Version, so a request there without one runs at the version that holds them (docs/x402.md).
 */
const PINNED: [prefix: string, version: ApiVersion][] = [['/x402/', '2026-02-19.preview']];

/**
 * The API version of a request, in two steps: the PAY-Version header picks the router before the caller is
 * known (no header: the stable version); once authenticated, a request without the header takes its
 * account's default version.
 */
export interface RequestedVersion {
  /** From the PAY-Version header, when sent (or the path's pinned version). */
  header: ApiVersion | null;
  /** The version the request is routed with before authentication. */
  provisional: ApiVersion;
}

export function requestedVersion(headers: IncomingHttpHeaders, path: string): RequestedVersion {
  const header = versionFromHeaders(headers) ?? PINNED.find(([prefix]) => path.startsWith(prefix))?.[1] ?? null;
  return { header, provisional: header ?? STABLE_VERSION };
}

/** The version the request runs at: the header's, else the caller's account default. */
export function effectiveVersion(requested: RequestedVersion, accountDefault: string): ApiVersion {
  return requested.header ?? (accountDefault as ApiVersion);
}
