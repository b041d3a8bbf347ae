import type { IncomingHttpHeaders } from 'node:http';
import { ApiVersion, STABLE_VERSION, versionFromHeaders } from '../../domain/versions';

/**
 * The API version of a request, in two steps: the PAY-Version header picks the router before the caller is
 * known (no header: the stable version); once authenticated, a request without the header takes its
 * account's default version.
 */
export interface RequestedVersion {
  /** From the PAY-Version header, when sent. */
  header: ApiVersion | null;
  /** The version the request is routed with before authentication. */
  provisional: ApiVersion;
}

export function requestedVersion(headers: IncomingHttpHeaders): RequestedVersion {
  const header = versionFromHeaders(headers);
  return { header, provisional: header ?? STABLE_VERSION };
}

/** The version the request runs at: the header's, else the caller's account default. */
export function effectiveVersion(requested: RequestedVersion, accountDefault: string): ApiVersion {
  return requested.header ?? (accountDefault as ApiVersion);
}
