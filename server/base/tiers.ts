// Plans: each has a lookup quota and a per-key request rate. The numbers are defaults; any of
// them can be overridden with TAXATLAS_TIERS (JSON, snake_case, per tier and field).
import * as z from 'zod'

export const TIER_NAMES = ['trial', 'starter', 'growth', 'enterprise'] as const
export const TierName = z.enum(TIER_NAMES)
export type TierName = z.infer<typeof TierName>

export type Tier = {
  /** lookups allowed per UTC calendar month, or for the whole trial; null = unlimited */
  lookupQuota: number | null
  /** length of the trial in days; null for paid tiers (their quota resets monthly) */
  trialDays: number | null
  /** token bucket per API key: sustained requests per second … */
  ratePerSecond: number
  /** … and how many may arrive at once */
  burst: number
}
export type Tiers = Record<TierName, Tier>

export const DEFAULT_TIERS: Tiers = {
  trial: { lookupQuota: 1_000, trialDays: 14, ratePerSecond: 5, burst: 10 },
  starter: { lookupQuota: 10_000, trialDays: null, ratePerSecond: 10, burst: 20 },
  growth: { lookupQuota: 100_000, trialDays: null, ratePerSecond: 50, burst: 100 },
  enterprise: { lookupQuota: null, trialDays: null, ratePerSecond: 10_000, burst: 20_000 },
}

const TierOverride = z
  .object({
    lookup_quota: z.number().int().nonnegative().nullable(),
    trial_days: z.number().int().positive().nullable(),
    rate_per_second: z.number().positive(),
    burst: z.number().int().positive(),
  })
  .strict()
  .partial()

export const TiersOverride = z.partialRecord(TierName, TierOverride)

export function resolveTiers(override: z.infer<typeof TiersOverride> = {}): Tiers {
  const tiers = structuredClone(DEFAULT_TIERS)
  for (const name of TIER_NAMES) {
    const o = override[name]
    if (!o) continue
    if (o.lookup_quota !== undefined) tiers[name].lookupQuota = o.lookup_quota
    if (o.trial_days !== undefined) tiers[name].trialDays = o.trial_days
    if (o.rate_per_second !== undefined) tiers[name].ratePerSecond = o.rate_per_second
    if (o.burst !== undefined) tiers[name].burst = o.burst
  }
  return tiers
}
