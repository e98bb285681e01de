// GET /v1/account: the caller's plan and usage. Not a lookup, and still answers after a trial
// ends so the caller can see why lookups are refused.
import * as z from 'zod'
import { defineRoute } from '../dispatch/route.ts'

export const AccountBody = z
  .object({
    account_id: z.string(),
    name: z.string(),
    tier: z.string().describe('trial, starter, growth or enterprise'),
    created_at: z.string(),
    trial_ends_at: z.string().nullable().describe('end of the 14-day trial; null on paid tiers'),
    trial_expired: z.boolean(),
    api_key_id: z.string().describe('the id of the key used for this request (never the key)'),
    quota: z.object({
      period: z.string().describe('the UTC month counted (2026-11), or "trial" for the trial allowance'),
      limit: z.number().int().nullable().describe('lookups allowed in the period; null = unlimited'),
      used: z.number().int(),
      remaining: z.number().int().nullable(),
      resets_at: z.string().nullable().describe('start of the next UTC month; null for a trial'),
    }),
    rate_limit: z.object({
      requests_per_second: z.number().describe('sustained rate per API key'),
      burst: z.number().int().describe('requests allowed at once'),
    }),
  })
  .meta({ id: 'Account' })

export const accountRoute = defineRoute({
  method: 'GET',
  path: '/v1/account',
  operationId: 'getAccount',
  summary: 'Your plan, quota and usage',
  tags: ['account'],
  auth: 'key',
  servesExpiredTrial: true,
  responses: { 200: { description: 'The account of the API key.', schema: AccountBody } },
}).handle(({ caller }) => {
  const { account, keyId, tier, quota } = caller
  return {
    status: 200,
    body: {
      account_id: account.id,
      name: account.name,
      tier: account.tier,
      created_at: account.createdAt,
      trial_ends_at: account.trialEndsAt,
      trial_expired: quota.trialExpired,
      api_key_id: keyId,
      quota: { period: quota.period, limit: quota.limit, used: quota.used, remaining: quota.remaining, resets_at: quota.resetsAt },
      rate_limit: { requests_per_second: tier.ratePerSecond, burst: tier.burst },
    },
  }
})
