// Per-key request rate: a token bucket holding `burst` tokens, refilled at `ratePerSecond`.
// Each request takes one token; with none left the answer is 429 with Retry-After.
//
// The buckets live in this process, so nothing on a request's path waits on a database. When
// several server nodes share a store, each enforces its share of a key's rate: rate and burst
// divided by the nodes alive (store-engine.ts: liveNodes; a burst of at least 1), so all nodes
// together never let a key through faster than its tier allows. Behind a load balancer that
// spreads requests evenly a client gets its whole rate; one that sends a key's requests to fewer
// nodes than there are gets less (docs/decisions.md).
import type { ServerResponse } from 'node:http'
import type { Clock } from '../base/clock.ts'
import { HttpError, retryAfter } from '../base/errors.ts'
import { secondsToNextToken, tokensAt, type TokenBucket } from './token-bucket.ts'

export type RateRule = { ratePerSecond: number; burst: number }

export type RateDecision = {
  allowed: boolean
  limit: number
  remaining: number
  /** seconds until the bucket is full again */
  resetSeconds: number
  /** seconds until one request would be allowed (0 when allowed now) */
  retryAfterSeconds: number
}

// Idle buckets are refilled anyway, so dropping full ones loses nothing; this bounds memory.
const SWEEP_ABOVE = 10_000

export class RateLimiter {
  readonly #buckets = new Map<string, TokenBucket & { rule: RateRule }>()

  /** `nodes`: how many nodes share each key's rate (1: this one alone) */
  constructor(
    private readonly clock: Clock,
    private readonly nodes: () => number = () => 1,
  ) {}

  /** `now`: the request's own time, when the caller has read the clock already */
  take(bucketKey: string, tierRule: RateRule, now = this.clock()): RateDecision {
    const rule = shareOf(tierRule, this.nodes())
    let bucket = this.#buckets.get(bucketKey)
    let tokens = bucket ? tokensAt(bucket, rule.burst, rule.ratePerSecond, now) : rule.burst
    const allowed = tokens >= 1
    if (allowed) tokens -= 1
    if (this.#buckets.size > SWEEP_ABOVE) {
      this.#sweep(now)
      bucket = this.#buckets.get(bucketKey)
    }
    if (bucket) {
      bucket.tokens = tokens
      bucket.at = now
      bucket.rule = rule
    } else this.#buckets.set(bucketKey, { tokens, at: now, rule })
    return {
      allowed,
      limit: rule.burst,
      remaining: Math.floor(tokens),
      resetSeconds: Math.ceil((rule.burst - tokens) / rule.ratePerSecond),
      retryAfterSeconds: allowed ? 0 : secondsToNextToken(tokens, rule.ratePerSecond),
    }
  }

  #sweep(now: number) {
    for (const [key, b] of this.#buckets) {
      if (tokensAt(b, b.rule.burst, b.rule.ratePerSecond, now) >= b.rule.burst) this.#buckets.delete(key)
    }
  }
}

// One rule object per tier and node count, so the request path builds none.
const shares = new WeakMap<RateRule, { nodes: number; rule: RateRule }>()

/** A node's share of a key's rate among `nodes` nodes. */
export function shareOf(rule: RateRule, nodes: number): RateRule {
  if (nodes <= 1) return rule
  const known = shares.get(rule)
  if (known?.nodes === nodes) return known.rule
  const share = { ratePerSecond: rule.ratePerSecond / nodes, burst: Math.max(1, Math.floor(rule.burst / nodes)) }
  shares.set(rule, { nodes, rule: share })
  return share
}

/**
 * Adds `RateLimit-Limit`, `-Remaining` and `-Reset` to a [name, value, …] list. Not also as
 * `X-RateLimit-*`: three more headers on every answer cost a cached lookup a measurable share of its
 * throughput (`make bench`).
 */
export function addRateLimitHeaders(headers: string[], decision: RateDecision): void {
  headers.push('RateLimit-Limit', String(decision.limit), 'RateLimit-Remaining', String(decision.remaining), 'RateLimit-Reset', String(decision.resetSeconds))
}

export function setRateLimitHeaders(res: ServerResponse, decision: RateDecision): void {
  const headers: string[] = []
  addRateLimitHeaders(headers, decision)
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i], headers[i + 1])
}

export function rateLimited(decision: RateDecision): HttpError {
  return new HttpError('RATE_LIMITED', `Too many requests for this API key; retry after ${decision.retryAfterSeconds} s.`, ...retryAfter(decision.retryAfterSeconds))
}
