// The client's options and their defaults (spec 8: timeout 10.0 s, max_retries 3).
import { sleepSeconds } from './retry-delay.ts'

export type TaxatlasClientOptions = {
  /** where the service runs, e.g. `https://tax.example.com` (a path prefix is kept) */
  baseUrl: string
  /** the API key; public endpoints (health, freshness) work without one */
  apiKey?: string
  /** how the key is sent: `X-API-Key: <key>` (default) or `Authorization: Bearer <key>` */
  authHeader?: 'x-api-key' | 'bearer'
  /** seconds to wait for each attempt's response (default 10) */
  timeout?: number
  /** retries after a 429, 5xx, timeout or network failure (default 3, so at most 4 attempts) */
  maxRetries?: number
  /** the fetch to use (default the platform's) */
  fetch?: typeof globalThis.fetch
  /** waits between retries, in seconds; replace it to observe or skip the waits */
  sleep?: (seconds: number, signal?: AbortSignal) => Promise<void>
  /** the clock (ms since the epoch) an HTTP-date Retry-After is measured against */
  now?: () => number
}

/** The options with every default filled in: what each call is made with. */
export type TransportSettings = Required<Omit<TaxatlasClientOptions, 'apiKey'>> & Pick<TaxatlasClientOptions, 'apiKey'>

export const DEFAULT_TIMEOUT_SECONDS = 10
export const DEFAULT_MAX_RETRIES = 3

export function transportSettings(options: TaxatlasClientOptions): TransportSettings {
  const { baseUrl, timeout = DEFAULT_TIMEOUT_SECONDS, maxRetries = DEFAULT_MAX_RETRIES, authHeader = 'x-api-key' } = options
  if (typeof baseUrl !== 'string' || !/^https?:\/\//i.test(baseUrl)) throw new TypeError(`baseUrl must be an http(s) URL, got ${String(baseUrl)}`)
  if (!(Number.isFinite(timeout) && timeout > 0)) throw new RangeError(`timeout must be a positive number of seconds, got ${timeout}`)
  if (!(Number.isInteger(maxRetries) && maxRetries >= 0)) throw new RangeError(`maxRetries must be a whole number ≥ 0, got ${maxRetries}`)
  if (authHeader !== 'x-api-key' && authHeader !== 'bearer') throw new TypeError(`authHeader must be 'x-api-key' or 'bearer', got ${String(authHeader)}`)
  return {
    baseUrl,
    apiKey: options.apiKey,
    authHeader,
    timeout,
    maxRetries,
    // Bound to globalThis: a detached platform fetch throws "Illegal invocation" in browsers.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    sleep: options.sleep ?? sleepSeconds,
    now: options.now ?? Date.now,
  }
}
