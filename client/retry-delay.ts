// How long to wait before a retry (spec 8, client defaults): the server's Retry-After when it
// sent one, else min(2^attempt * 0.5, 30) seconds. No jitter: the spec's schedule is exact.

/** Seconds to wait before retry number `attempt + 1` (attempt 0 is the first retry: 0.5 s, then 1, 2, 4, …, at most 30). */
export function backoffSeconds(attempt: number): number {
  return Math.min(2 ** attempt * 0.5, 30)
}

/**
 * The `Retry-After` header in seconds: delta-seconds, or an HTTP date measured from `nowMs`
 * (a date in the past is 0). Null when absent or unreadable, so the backoff applies.
 */
export function retryAfterSeconds(header: string | null, nowMs: number): number | null {
  const value = header?.trim()
  if (!value) return null
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value)
  const date = Date.parse(value)
  if (Number.isNaN(date)) return null
  return Math.max(0, (date - nowMs) / 1000)
}

/** A wait that ends early (rejecting with the signal's reason) when the call is aborted. */
export function sleepSeconds(seconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, seconds * 1000)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
