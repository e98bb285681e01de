// Opening the store until it opens: attempts spaced by a doubling delay (from FIRST_DELAY_MS up to
// a ceiling), for as long as the server runs. A lock held by another process, a volume not yet
// mounted, a file being restored: each passes on its own, and the store opens on the next attempt
// without a restart.

export const FIRST_DELAY_MS = 250

/** The delay before attempt `attempt + 1` (attempt 1 failed: FIRST_DELAY_MS), up to `ceilingMs`. */
export const backoffDelay = (attempt: number, ceilingMs: number): number => Math.min(ceilingMs, FIRST_DELAY_MS * 2 ** Math.max(0, attempt - 1))

export type RetryHandlers<T> = {
  /** called after every failed attempt, with when the next one starts */
  failed: (error: Error, attempt: number, nextInMs: number) => void
  /** true once the retries should end (the server is closing) */
  stopped: () => boolean
}

/**
 * Calls `attempt` until it resolves, and resolves with its value; resolves null when stopped
 * first. A stop during a wait ends the wait at once.
 */
export function retryUntilOpen<T>(attempt: () => Promise<T>, ceilingMs: number, handlers: RetryHandlers<T>): { result: Promise<T | null>; stop: () => void } {
  let wake: (() => void) | null = null
  let stopping = false
  const stop = () => {
    stopping = true
    wake?.()
  }
  const result = (async () => {
    for (let n = 1; ; n++) {
      if (stopping || handlers.stopped()) return null
      try {
        return await attempt()
      } catch (error) {
        const delay = backoffDelay(n, ceilingMs)
        handlers.failed(error as Error, n, delay)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay)
          timer.unref()
          wake = () => {
            clearTimeout(timer)
            resolve()
          }
        })
        wake = null
      }
    }
  })()
  return { result, stop }
}
