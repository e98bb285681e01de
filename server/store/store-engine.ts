// The store behind one interface, with two engines: the embedded DuckDB file (duckdb-engine.ts,
// the default: one server process, nothing to set up) and PostgreSQL (postgres/pg-engine.ts:
// any number of server nodes on one database). TAXATLAS_STORE picks one: a path, or a
// postgres:// URL. Accounts and usage are mirrored in memory above this (accounts.ts, usage.ts),
// so nothing on a lookup's path waits on either engine.
import { TierName } from '../base/tiers.ts'
import type { CustomerStore } from './customers.ts'
import type { RegistrationTable } from './nexus-registrations.ts'
import type { TransactionStore } from './transaction-store.ts'
import type { WebhookTable } from './webhooks.ts'

export type StoreEngineKind = 'duckdb' | 'postgres'

export type Account = { id: string; name: string; tier: TierName; createdAt: string; trialEndsAt: string | null }
export type ApiKeyInfo = { id: string; accountId: string; prefix: string; createdAt: string; revokedAt: string | null }

/** A key as stored: its public record and the hex sha256 it is found by. */
export type KeyRecord = ApiKeyInfo & { keyHash: string }

/** Accounts and keys changed after a mark, and the mark to ask from next time. */
export type AccountChanges = { accounts: Account[]; keys: KeyRecord[]; mark: number }

export type AccountTable = {
  /** everything (mark 0), or what changed after `mark` (by this node or another) */
  changesSince(mark: number): Promise<AccountChanges>
  insertAccount(account: Account, key: KeyRecord): Promise<void>
  insertKey(key: KeyRecord): Promise<void>
  /** revokes a key not yet revoked (a second revocation keeps the first time); the key as stored after, or null when there is none */
  revokeKey(keyId: string, revokedAt: string): Promise<KeyRecord | null>
}

export type StoreChanges = { accounts: () => void; registrations: (accountId: string | null) => void }

export type UsageRow = { accountId: string; month: string; lookups: number }

export type UsageTable = {
  all(): Promise<UsageRow[]>
  /**
   * Adds the deltas in one transaction. Returns every month's count of the accounts it changed as
   * stored afterwards — all nodes' lookups — or null when this node is the store's only writer.
   */
  add(changes: UsageRow[]): Promise<UsageRow[] | null>
}

export type StoreEngine = {
  readonly kind: StoreEngineKind
  /** the file, or the URL without its password */
  readonly location: string
  /** whether other server nodes write to the same store (PostgreSQL) */
  readonly shared: boolean
  readonly accounts: AccountTable
  readonly usage: UsageTable
  readonly transactions: TransactionStore
  readonly registrations: RegistrationTable
  readonly customers: CustomerStore
  readonly webhooks: WebhookTable
  /**
   * Tells this node what another node may have changed (PostgreSQL: a notification, or the poll
   * that backs it up) — accounts and keys, or an account's nexus list (null: any); returns the
   * function that stops it. DuckDB: never (no other writer).
   */
  watch(changed: StoreChanges): () => void
  /** server nodes alive on this store, this one included (1 for DuckDB) */
  liveNodes(): number
  close(): Promise<void>
}

/** An account from a row of either engine's `accounts` table. */
export const accountOf = (row: Record<string, unknown>): Account => ({
  id: String(row.id),
  name: String(row.name),
  tier: TierName.parse(row.tier),
  createdAt: String(row.created_at),
  trialEndsAt: row.trial_ends_at === null ? null : String(row.trial_ends_at),
})

/** A key from a row of either engine's `api_keys` table. */
export const keyRecordOf = (row: Record<string, unknown>): KeyRecord => ({
  id: String(row.id),
  accountId: String(row.account_id),
  keyHash: String(row.key_hash),
  prefix: String(row.prefix),
  createdAt: String(row.created_at),
  revokedAt: row.revoked_at === null ? null : String(row.revoked_at),
})
