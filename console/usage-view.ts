// The account page's plan and usage: tier, this period's lookups against the quota, the rate limit.
import type { AccountResponse } from '../client/index.ts'
import { facts, h } from './dom.ts'
import { when } from './freshness-status.ts'

const count = (n: number) => n.toLocaleString('en-US')

export function usageView(account: AccountResponse): HTMLElement {
  const { quota, rate_limit: limit } = account
  const period = quota.period === 'trial' ? 'the trial' : quota.period
  const usage =
    quota.limit === null
      ? h('p', { 'data-field': 'usage' }, `${count(quota.used)} lookups in ${period}; this plan has no quota.`)
      : h(
          'p',
          { 'data-field': 'usage' },
          h('meter', { min: 0, max: quota.limit, value: Math.min(quota.used, quota.limit), high: Math.floor(quota.limit * 0.9), optimum: 0, 'aria-label': 'Lookups used' }),
          ` ${count(quota.used)} of ${count(quota.limit)} lookups used in ${period} (${count(quota.remaining ?? 0)} left)`,
        )
  return h(
    'div',
    {},
    usage,
    facts([
      ['Account', `${account.name} (${account.account_id})`],
      ['Tier', h('span', { 'data-field': 'tier' }, account.tier)],
      ['Trial', account.trial_ends_at === null ? null : `${account.trial_expired ? 'ended' : 'ends'} ${when(account.trial_ends_at)}`],
      ['Quota resets', quota.resets_at === null ? null : when(quota.resets_at)],
      ['Rate limit', h('span', { 'data-field': 'rate-limit' }, `${limit.requests_per_second} requests per second, bursts of ${limit.burst}`)],
      ['This key', h('code', {}, account.api_key_id)],
    ]),
  )
}
