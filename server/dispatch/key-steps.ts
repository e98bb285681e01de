// The steps of a route that needs an API key, in the order they run (route-handler.ts stepsOf):
// authenticate the key, take a rate-limit token, wait for the account's unsynced counts (lookups
// on a shared store), check the plan, count the lookup. Each throws the refusal it answers with.
import { authenticate, presentedKey } from '../access/credentials.ts'
import { checkPlan, quotaStatus } from '../access/plan-check.ts'
import { rateLimited } from '../access/rate-limiter.ts'
import type { Exchange } from './exchange.ts'

/** The API key's account; a client address failing too often is refused before its key is read. */
export function authenticateKey(x: Exchange): void {
  const { req, now } = x
  const throttle = x.deps.authThrottle
  const refused = throttle?.refusal(req, now)
  if (refused) throw refused
  let authenticated
  try {
    authenticated = authenticate(req, x.store!.accounts)
  } catch (error) {
    if (throttle && presentedKey(req) !== null) throttle.failed(req, now)
    throw error
  }
  const { account, keyId } = authenticated
  x.state.accountId = account.id
  x.key = { account, keyId, tier: x.deps.tiers[account.tier] }
}

export function limitRate(x: Exchange): void {
  const { keyId, tier } = x.key!
  const limit = (x.limit = x.deps.limiter.take(keyId, tier, x.now))
  if (!limit.allowed) throw rateLimited(limit)
}

/**
 * On a store shared by several nodes, a lookup of an account that already holds its share of
 * unsynced counts on this node waits for them to be flushed (store/usage.ts). Checked again after
 * each flush: requests that waited on the same flush are admitted one at a time, each counted
 * (the steps after this one run in the same turn) before the next is checked.
 */
export function awaitUsageSync(x: Exchange): void | Promise<void> {
  const { account, tier } = x.key!
  const usage = x.store!.usage
  if (!usage.mustSync(account.id, tier.lookupQuota)) return
  return (async () => {
    while (usage.mustSync(account.id, tier.lookupQuota)) await usage.flush()
  })()
}

export function checkAccountPlan(x: Exchange): void {
  const { account, keyId, tier } = x.key!
  const quota = quotaStatus(account, tier, x.store!.usage, x.now)
  checkPlan(quota, x.route)
  x.caller = { account, keyId, tier, quota }
}

// Counted before the handler runs so concurrent requests cannot overrun the quota; a request
// that does not end in 2xx is uncounted.
export function countLookup(x: Exchange): void {
  const { account, quota } = x.caller!
  const usage = x.store!.usage
  usage.add(account.id, quota.month, 1)
  x.counted = { usage, accountId: account.id, month: quota.month, undone: false }
}
