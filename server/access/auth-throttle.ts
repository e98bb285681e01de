// Failed authentication throttled per client address: each invalid key sent takes a token from
// the address's bucket (`burst` tokens, refilled at `perSecond`); an address with none left is
// answered 429 RATE_LIMITED with Retry-After before its key is even looked at — a valid key
// included, or key guessing would go on at full speed behind the 429s. IPv6 clients are counted
// per /64, the block one host usually holds. The table is bounded: past `maxAddresses`, buckets
// already full again are dropped, then the oldest ones.
import type { IncomingMessage } from 'node:http'
import { clientKeyOf } from '../base/client-address.ts'
import type { Clock } from '../base/clock.ts'
import { HttpError, retryAfter } from '../base/errors.ts'
import { secondsToNextToken, tokensAt, type TokenBucket } from './token-bucket.ts'

/** `addressHeader`: a request header naming the client (the rightmost address of X-Forwarded-For, as a proxy adds it); null: the socket's address */
export type AuthThrottleRule = { perSecond: number; burst: number; maxAddresses: number; addressHeader?: string | null }

export class AuthThrottle {
  readonly #buckets = new Map<string, TokenBucket>()

  constructor(
    private readonly rule: AuthThrottleRule,
    private readonly clock: Clock,
  ) {}

  /** The throttled client's 429, or null when its address may try a key now. */
  refusal(req: IncomingMessage, now = this.clock()): HttpError | null {
    if (this.#buckets.size === 0) return null
    const bucket = this.#buckets.get(this.#addressOf(req))
    if (!bucket) return null
    const tokens = this.#refilled(bucket, now)
    if (tokens >= 1) return null
    const wait = secondsToNextToken(tokens, this.rule.perSecond)
    return new HttpError('RATE_LIMITED', `Too many requests with an invalid API key from this address; retry after ${wait} s.`, ...retryAfter(wait))
  }

  /** Counts one invalid key sent from the request's address. */
  failed(req: IncomingMessage, now = this.clock()): void {
    const address = this.#addressOf(req)
    const bucket = this.#buckets.get(address)
    if (bucket) {
      bucket.tokens = this.#refilled(bucket, now) - 1
      bucket.at = now
      // Most recently failing last: the oldest are the first to go when the table is full.
      this.#buckets.delete(address)
      this.#buckets.set(address, bucket)
      return
    }
    if (this.#buckets.size >= this.rule.maxAddresses) this.#makeRoom(now)
    this.#buckets.set(address, { tokens: this.rule.burst - 1, at: now })
  }

  get size(): number {
    return this.#buckets.size
  }

  #refilled(bucket: TokenBucket, now: number): number {
    return tokensAt(bucket, this.rule.burst, this.rule.perSecond, now)
  }

  #makeRoom(now: number): void {
    for (const [address, bucket] of this.#buckets) if (this.#refilled(bucket, now) >= this.rule.burst) this.#buckets.delete(address)
    for (const address of this.#buckets.keys()) {
      if (this.#buckets.size < this.rule.maxAddresses) break
      this.#buckets.delete(address)
    }
  }

  #addressOf(req: IncomingMessage): string {
    let address: string | undefined
    if (this.rule.addressHeader) {
      const header = req.headers[this.rule.addressHeader]
      const value = Array.isArray(header) ? header.at(-1) : header
      address = value?.split(',').at(-1)?.trim() || undefined
    }
    return clientKeyOf(address ?? req.socket.remoteAddress ?? '')
  }
}
