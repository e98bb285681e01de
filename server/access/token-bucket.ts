// The arithmetic of a token bucket, shared by the per-key rate limit and the per-address throttle
// of invalid keys: a bucket holds at most `burst` tokens and refills at `perSecond`.

export type TokenBucket = { tokens: number; at: number }

/** The bucket's tokens at `now` (a clock that went back refills nothing). */
export function tokensAt(bucket: TokenBucket, burst: number, perSecond: number, now: number): number {
  return Math.min(burst, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * perSecond)
}

/** Whole seconds until a bucket holding `tokens` holds one, at least 1. */
export function secondsToNextToken(tokens: number, perSecond: number): number {
  return Math.max(1, Math.ceil((1 - tokens) / perSecond))
}
