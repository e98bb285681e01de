// Serialized 200 replies of routes whose answer depends only on the request URL, the snapshot in
// service and the UTC day (a rate lookup: the default as_of is today). A repeat of the same URL
// is answered from here, after authentication, rate limiting and quota counting but without
// validating, resolving or serializing again. Everything is dropped when the snapshot or the day
// changes; past the byte budget the oldest entries go first.
//
// The budget is what the cache holds in resident memory, not what its entries add up to in
// theory. Entries kept as JavaScript strings and Buffers each live until V8 collects them: under
// a stream of new URLs the evicted ones pile up in the old generation between collections, and
// the process held 2–3.5× the budget. So the URL and body bytes of every entry are written into
// one buffer allocated once (3/4 of the budget), used as a ring in the order entries arrive, and
// found through a Map from a hash of the URL to a small record (at most 1/8 of the budget, at
// ENTRY_RECORD_BYTES each; the last eighth is the Map's own slack): nothing an eviction frees
// waits for a collection. A hit copies its body out, so a later overwrite never reaches a reply
// still being sent. Measured with a real server under churn in test/reliability-security.test.ts.

/** `headers`: the reply's own, as [name, value, …], Content-Length included */
export type CachedReply = { status: number; body: Buffer; headers: string[] }

const DAY_MS = 86_400_000

/** Replies to longer URLs are not kept: a long URL (an address, or parameters the lookup ignores) seldom repeats. */
export const MAX_CACHED_URL = 1_024

/** What one entry's record and its Map slot hold in V8's heap, counted against the budget's eighth. */
export const ENTRY_RECORD_BYTES = 128

type Entry = {
  status: number
  /** the reply's headers but Content-Length, shared by every entry with the same ones */
  headers: string[]
  /** where its URL bytes start in the ring; the body follows them */
  at: number
  urlLength: number
  bodyLength: number
}

export class ReplyCache {
  #ring: Buffer | null = null
  /** by URL hash, oldest first: the ring's order */
  readonly #entries = new Map<number, Entry>()
  readonly #headerLists = new Map<string, string[]>()
  #head = 0
  #snapshotId = ''
  #day = -1
  readonly #ringBytes: number
  readonly #maxEntries: number

  /** `budgetBytes` 0 turns the cache off. */
  constructor(readonly budgetBytes: number) {
    this.#ringBytes = Math.floor((budgetBytes * 3) / 4)
    this.#maxEntries = Math.floor(budgetBytes / 8 / ENTRY_RECORD_BYTES)
  }

  get(snapshotId: string, now: number, url: string): CachedReply | undefined {
    if (this.#entries.size === 0) return undefined
    this.#follow(snapshotId, now)
    const entry = this.#entries.get(hashOf(url))
    if (!entry || !this.#holds(entry, url)) return undefined
    const start = entry.at + entry.urlLength
    const body = Buffer.from(this.#ring!.subarray(start, start + entry.bodyLength))
    return { status: entry.status, body, headers: [...entry.headers, 'Content-Length', String(entry.bodyLength)] }
  }

  set(snapshotId: string, now: number, url: string, reply: CachedReply): void {
    const size = url.length + reply.body.length
    if (url.length > MAX_CACHED_URL || size > this.#ringBytes || this.#maxEntries === 0 || !latin1(url)) return
    this.#follow(snapshotId, now)
    const ring = (this.#ring ??= Buffer.allocUnsafeSlow(this.#ringBytes))
    const key = hashOf(url)
    // A URL kept again (or another with the same hash) replaces the earlier record.
    this.#entries.delete(key)
    let at = this.#head
    if (at + size > ring.length) {
      // The tail left unused; the records still there are the oldest, and go.
      this.#evictFrom(at, ring.length)
      at = 0
    }
    this.#evictFrom(at, at + size)
    while (this.#entries.size >= this.#maxEntries) this.#evictOldest()
    ring.write(url, at, 'latin1')
    reply.body.copy(ring, at + url.length)
    this.#entries.set(key, { status: reply.status, headers: this.#sharedHeaders(reply.headers), at, urlLength: url.length, bodyLength: reply.body.length })
    this.#head = at + size
  }

  /** False when the budget keeps no reply (TAXATLAS_REPLY_CACHE_MB=0): nothing is to be looked up or offered. */
  get keeps(): boolean {
    return this.#maxEntries > 0 && this.#ringBytes > 0
  }

  get size(): number {
    return this.#entries.size
  }

  /** The entry's URL bytes are `url`'s (a hash names a URL only probably). */
  #holds(entry: Entry, url: string): boolean {
    if (entry.urlLength !== url.length) return false
    const ring = this.#ring!
    for (let i = 0; i < url.length; i++) if (ring[entry.at + i] !== url.charCodeAt(i)) return false
    return true
  }

  /** Drops the oldest records while they lie in [from, to): the ring is written in their order. */
  #evictFrom(from: number, to: number): void {
    for (const [key, entry] of this.#entries) {
      if (entry.at >= to || entry.at + entry.urlLength + entry.bodyLength <= from) break
      this.#entries.delete(key)
    }
  }

  #evictOldest(): void {
    for (const key of this.#entries.keys()) {
      this.#entries.delete(key)
      return
    }
  }

  #sharedHeaders(headers: string[]): string[] {
    const own: string[] = []
    for (let i = 0; i < headers.length; i += 2) if (headers[i].toLowerCase() !== 'content-length') own.push(headers[i], headers[i + 1])
    const token = own.join('\n')
    let shared = this.#headerLists.get(token)
    if (!shared) this.#headerLists.set(token, (shared = own))
    return shared
  }

  #follow(snapshotId: string, now: number): void {
    const day = Math.floor(now / DAY_MS)
    if (snapshotId === this.#snapshotId && day === this.#day) return
    this.#entries.clear()
    this.#headerLists.clear()
    this.#head = 0
    this.#snapshotId = snapshotId
    this.#day = day
  }
}

/** Every character of a URL as the HTTP parser gives it fits a byte. */
const latin1 = (url: string) => {
  for (let i = 0; i < url.length; i++) if (url.charCodeAt(i) > 0xff) return false
  return true
}

/** Two 32-bit FNV-1a hashes of the URL made one 53-bit number (an exact Map key); `#holds` settles a collision. */
function hashOf(url: string): number {
  let a = 0x811c9dc5
  let b = 0x01000193 ^ url.length
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995)
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff)
}
