// What the caller's plan allows right now: the lookup quota of the period (UTC month, or the
// whole trial) and whether the trial is over. Both refusals are 402, which clients do not retry.
import { monthOf } from '../base/clock.ts'
import { HttpError } from '../base/errors.ts'
import type { Account } from '../store/accounts.ts'
import type { UsageCounter } from '../store/usage.ts'
import type { Tier } from '../base/tiers.ts'

export type QuotaStatus = {
  /** `2026-11` for monthly quotas, `trial` for a trial's one-off allowance */
  period: string
  /** the UTC month of the request, under which a lookup is counted (trials too) */
  month: string
  limit: number | null
  used: number
  remaining: number | null
  /** when the count starts again from zero (start of next UTC month); null for a trial */
  resetsAt: string | null
  trialEndsAt: string | null
  trialExpired: boolean
}

export function quotaStatus(account: Account, tier: Tier, usage: UsageCounter, now: number): QuotaStatus {
  const trial = account.tier === 'trial'
  const { month, nextMonthStarts } = monthSpanOf(now)
  const used = trial ? usage.usedTotal(account.id) : usage.used(account.id, month)
  const limit = tier.lookupQuota
  return {
    period: trial ? 'trial' : month,
    month,
    limit,
    used,
    remaining: limit === null ? null : Math.max(0, limit - used),
    resetsAt: trial ? null : nextMonthStarts,
    trialEndsAt: account.trialEndsAt,
    trialExpired: trial && account.trialEndsAt !== null && now >= Date.parse(account.trialEndsAt),
  }
}

export function checkPlan(quota: QuotaStatus, route: { countsAsLookup?: boolean; servesExpiredTrial?: boolean }): void {
  if (quota.trialExpired && !route.servesExpiredTrial) {
    throw new HttpError('TRIAL_EXPIRED', `The trial ended at ${quota.trialEndsAt}; choose a plan to continue.`, { trial_ends_at: quota.trialEndsAt })
  }
  if (route.countsAsLookup && quota.remaining !== null && quota.remaining <= 0) {
    const what = quota.period === 'trial' ? `the trial allowance of ${quota.limit} lookups` : `the monthly quota of ${quota.limit} lookups`
    throw new HttpError('QUOTA_EXCEEDED', `This account has used ${what}.`, {
      quota: quota.limit,
      used: quota.used,
      period: quota.period,
      resets_at: quota.resetsAt,
    })
  }
}

type MonthSpan = { month: string; nextMonthStarts: string; from: number; until: number }

// Asked on every key request; the answer changes once a month, so the last one is kept.
let lastSpan: MonthSpan = { month: '', nextMonthStarts: '', from: 0, until: 0 }

function monthSpanOf(now: number): MonthSpan {
  if (now >= lastSpan.from && now < lastSpan.until) return lastSpan
  const d = new Date(now)
  const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
  const until = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
  lastSpan = { month: monthOf(now), nextMonthStarts: new Date(until).toISOString(), from, until }
  return lastSpan
}
