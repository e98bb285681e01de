// The billing block of a counted lookup's answer: the caller's tier, account and quota after this lookup.
import type { Caller } from '../dispatch/route.ts'
import type { Billing } from '../lookup/tax-response.ts'

export function billingOf(caller: Caller): Billing {
  const { quota } = caller
  // The lookup was counted before the handler ran; the quota status was read before counting it.
  const used = quota.used + 1
  return {
    tier: caller.account.tier,
    account_id: caller.account.id,
    quota: { period: quota.period, limit: quota.limit, used, remaining: quota.limit === null ? null : Math.max(0, quota.limit - used) },
    lookup_counted: true,
  }
}
