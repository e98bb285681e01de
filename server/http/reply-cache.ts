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
    const size = sizeOf(url, reply)
    if (size > this.budgetBytes) return
    this.#follow(snapshotId, now)
    const previous = this.#entries.get(url)
    if (previous) this.#bytes -= sizeOf(url, previous)
    this.#entries.set(url, reply)
    this.#bytes += size
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.budgetBytes) break
      this.#entries.delete(oldest)
      this.#bytes -= sizeOf(oldest, entry)
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

// Characters of the key (V8 keeps ASCII strings a byte each), the body's bytes, and a fixed share
// for the entry and its headers.
const sizeOf = (url: string, reply: CachedReply) => url.length + reply.body.length + 256
