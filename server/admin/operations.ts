// Account and key management (api.md "Authentication": not part of the public API). The same operations run
// behind the loopback admin listener of a running server and, with no server running, straight
// against the store from the admin command.
import * as z from 'zod'
import type { Clock } from '../base/clock.ts'
import { HttpError } from '../base/errors.ts'
import type { Accounts, Account, ApiKeyInfo } from '../store/accounts.ts'
import type { UsageCounter } from '../store/usage.ts'
import { TierName, type Tiers } from '../base/tiers.ts'

export type AdminContext = { accounts: Accounts; usage: UsageCounter; tiers: Tiers; clock: Clock }

export const CreateAccountInput = z.object({ name: z.string().trim().min(1).max(200), tier: TierName })
export const CreateKeyInput = z.object({ account_id: z.string().min(1) })
export const UsageQuery = z.object({
  account_id: z.string().min(1).optional(),
  month: z.string().regex(/^\d{4}-\d{2}$/, 'a month as YYYY-MM').optional(),
})

export const IssuedKeyBody = z.object({
  account_id: z.string(),
  key_id: z.string(),
  key_prefix: z.string(),
  api_key: z.string().describe('shown once; only its sha256 is stored'),
})
export const CreatedAccountBody = IssuedKeyBody.extend({ name: z.string(), tier: z.string(), trial_ends_at: z.string().nullable() })
export const RevokedKeyBody = z.object({ key_id: z.string(), account_id: z.string(), revoked_at: z.string() })
const KeyView = z.object({ key_id: z.string(), key_prefix: z.string(), created_at: z.string(), revoked_at: z.string().nullable() })
const AccountView = z.object({
  account_id: z.string(),
  name: z.string(),
  tier: z.string(),
  created_at: z.string(),
  trial_ends_at: z.string().nullable(),
  keys: z.array(KeyView),
})
export const AccountListBody = z.object({ accounts: z.array(AccountView) })
export const UsageBody = z.object({ usage: z.array(z.object({ account_id: z.string(), month: z.string(), lookups: z.number().int() })) })

export async function createAccount(ctx: AdminContext, input: z.infer<typeof CreateAccountInput>): Promise<z.infer<typeof CreatedAccountBody>> {
  const created = await ctx.accounts.createAccount({ ...input, trialDays: ctx.tiers[input.tier].trialDays, now: ctx.clock() })
  return {
    account_id: created.account.id,
    name: created.account.name,
    tier: created.account.tier,
    trial_ends_at: created.account.trialEndsAt,
    key_id: created.key.id,
    key_prefix: created.key.prefix,
    api_key: created.apiKey,
  }
}

export async function createKey(ctx: AdminContext, input: z.infer<typeof CreateKeyInput>): Promise<z.infer<typeof IssuedKeyBody>> {
  const issued = await ctx.accounts.createKey(input.account_id, ctx.clock())
  if (!issued) throw new HttpError('NOT_FOUND', `No account ${input.account_id}.`)
  return { account_id: input.account_id, key_id: issued.key.id, key_prefix: issued.key.prefix, api_key: issued.apiKey }
}

export async function revokeKey(ctx: AdminContext, keyId: string): Promise<z.infer<typeof RevokedKeyBody>> {
  const key = await ctx.accounts.revokeKey(keyId, ctx.clock())
  if (!key) throw new HttpError('NOT_FOUND', `No API key ${keyId}.`)
  return { key_id: key.id, account_id: key.accountId, revoked_at: key.revokedAt! }
}

/** Every account, as the store holds them now (on PostgreSQL, changes by other nodes read first). */
export async function listAccounts(ctx: AdminContext): Promise<z.infer<typeof AccountListBody>> {
  await ctx.accounts.refresh()
  return { accounts: ctx.accounts.list().map(({ account, keys }) => accountView(account, keys)) }
}

/** Lookups per account and month: on PostgreSQL every node's counts as stored, plus this one's not yet flushed. */
export async function usageReport(ctx: AdminContext, query: z.infer<typeof UsageQuery>): Promise<z.infer<typeof UsageBody>> {
  await ctx.usage.reload()
  return {
    usage: ctx.usage
      .rows()
      .filter((row) => (!query.account_id || row.accountId === query.account_id) && (!query.month || row.month === query.month))
      .map((row) => ({ account_id: row.accountId, month: row.month, lookups: row.lookups })),
  }
}

function accountView(account: Account, keys: ApiKeyInfo[]) {
  return {
    account_id: account.id,
    name: account.name,
    tier: account.tier,
    created_at: account.createdAt,
    trial_ends_at: account.trialEndsAt,
    keys: keys.map((k) => ({ key_id: k.id, key_prefix: k.prefix, created_at: k.createdAt, revoked_at: k.revokedAt })),
  }
}
