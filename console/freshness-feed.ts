// /v1/freshness as the freshness page follows it: checked at once and then hourly (the spec's
// polling cadence), each check sending the last ETag so an unchanged envelope costs a bodiless 304.
import type { FreshnessResponse } from '../client/index.ts'
import { errorFromResponse } from '../client/error-from-response.ts'

export const CHECK_EVERY_MS = 60 * 60 * 1000

export type FeedEvent =
  | { kind: 'updated'; body: FreshnessResponse; at: Date }
  | { kind: 'unchanged'; at: Date }
  | { kind: 'failed'; error: unknown; at: Date }

export class FreshnessFeed {
  #etag: string | null = null
  #timer: ReturnType<typeof setInterval> | undefined
  readonly #onEvent: (event: FeedEvent) => void

  constructor(onEvent: (event: FeedEvent) => void) {
    this.#onEvent = onEvent
  }

  /** Checks now, then every hour. */
  start(): void {
    void this.check()
    this.#timer ??= setInterval(() => void this.check(), CHECK_EVERY_MS)
  }

  async check(): Promise<void> {
    const at = new Date()
    try {
      // no-store: the page keeps the envelope itself, and a 304 must reach it rather than the HTTP cache.
      const response = await fetch('/v1/freshness', { cache: 'no-store', headers: this.#etag ? { 'If-None-Match': this.#etag } : {} })
      if (response.status === 304) return this.#onEvent({ kind: 'unchanged', at })
      const text = await response.text()
      if (!response.ok) throw errorFromResponse({ status: response.status, statusText: response.statusText, headers: response.headers, text, retryAfter: null })
      this.#etag = response.headers.get('ETag')
      this.#onEvent({ kind: 'updated', body: JSON.parse(text) as FreshnessResponse, at })
    } catch (error) {
      this.#onEvent({ kind: 'failed', error, at })
    }
  }
}
