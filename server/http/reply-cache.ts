// Serialized 200 replies of routes whose answer depends only on the request URL, the snapshot in
// service and the UTC day (a rate lookup: the default as_of is today). A repeat of the same URL
// is answered from here, after authentication, rate limiting and quota counting but without
// validating, resolving or serializing again. Everything is dropped when the snapshot or the day
// changes; past the byte budget the oldest entries go first.
/** `headers`: the reply's own, as [name, value, …], Content-Length included */
export type CachedReply = { status: number; body: Buffer; headers: string[] }

const DAY_MS = 86_400_000

export class ReplyCache {
  #entries = new Map<string, CachedReply>()
  #bytes = 0
  #snapshotId = ''
  #day = -1

  /** `budgetBytes` 0 turns the cache off. */
  constructor(readonly budgetBytes: number) {}

  get(snapshotId: string, now: number, url: string): CachedReply | undefined {
    if (this.#entries.size === 0) return undefined
    this.#follow(snapshotId, now)
    return this.#entries.get(url)
  }

  set(snapshotId: string, now: number, url: string, reply: CachedReply): void {
    const size = entryCost(url, reply)
    if (size > this.budgetBytes) return
    this.#follow(snapshotId, now)
    const previous = this.#entries.get(url)
    if (previous) this.#bytes -= entryCost(url, previous)
    this.#entries.set(url, reply)
    this.#bytes += size
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.budgetBytes) break
      this.#entries.delete(oldest)
      this.#bytes -= entryCost(oldest, entry)
    }
  }

  get size(): number {
    return this.#entries.size
  }

  #follow(snapshotId: string, now: number): void {
    const day = Math.floor(now / DAY_MS)
    if (snapshotId === this.#snapshotId && day === this.#day) return
    this.#entries.clear()
    this.#bytes = 0
    this.#snapshotId = snapshotId
    this.#day = day
  }
}

/**
 * What an entry costs in resident memory, not just its bytes: the URL lives in V8's heap (a byte a
 * character; V8's pages hold ~1.33 bytes for each byte of live strings), the body in its own
 * allocation outside it (`ownBytes`), and the Map entry, the reply object, its header list and the
 * Buffer's bookkeeping ~1 kB more. Measured with a real server under churn (test/reliability-
 * security.test.ts, docs/reliability.md); past the budget the oldest entries go.
 */
export const ENTRY_OVERHEAD_BYTES = 1_024
export const entryCost = (url: string, reply: CachedReply): number => {
  let headers = 0
  for (const part of reply.headers) headers += part.length
  return Math.ceil((url.length + headers) * 4 / 3) + reply.body.length + ENTRY_OVERHEAD_BYTES
}

/**
 * The bytes in an allocation of their own: a small Buffer.from() is a slice of a shared 8 kB pool,
 * and a cached slice keeps its whole pool alive — up to 8 kB per entry, none of it counted.
 */
export function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text))
  bytes.write(text)
  return bytes
}
