// The one failure of an upstream geocoder the API reports: the service cannot be asked right now
// (refused, too slow, 5xx, or an answer it could not read). The route answers 503 with Retry-After.

/** Seconds a caller is told to wait when the upstream gave no Retry-After of its own. */
const DEFAULT_RETRY_AFTER_SECONDS = 30

export class GeocoderUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number = DEFAULT_RETRY_AFTER_SECONDS,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'GeocoderUnavailableError'
  }
}

/**
 * Reads a Retry-After header: delay-seconds or an HTTP-date (RFC 9110 §10.2.3). Anything else,
 * or a date already past, falls back to the default.
 */
export function retryAfterSeconds(header: string | null, now = Date.now()): number {
  const text = header?.trim()
  if (!text) return DEFAULT_RETRY_AFTER_SECONDS
  if (/^\d+$/.test(text)) return Number(text)
  const at = Date.parse(text)
  if (Number.isNaN(at) || at <= now) return DEFAULT_RETRY_AFTER_SECONDS
  return Math.ceil((at - now) / 1000)
}
