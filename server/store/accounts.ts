// Accounts and their API keys: kept in the store and mirrored in memory, so authenticating a
// request never touches the database and a key created or revoked is in force as soon as the
// call that made it returns.
import type { Database } from './database.ts'
import { hashApiKey, newApiKey, newId, sameHash } from './api-keys.ts'
import { TierName } from '../base/tiers.ts'

export type Account = { id: string; name: string; tier: TierName; createdAt: string; trialEndsAt: string | null }
export type ApiKeyInfo = { id: string; accountId: string; prefix: string; createdAt: string; revokedAt: string | null }
export type Authenticated = { account: Account; keyId: string }
export type IssuedKey = { apiKey: string; key: ApiKeyInfo }

const DAY_MS = 86_400_000
const VERIFIED_KEYS_KEPT = 10_000

export class Accounts {
  readonly #accounts = new Map<string, Account>()
  readonly #keys = new Map<string, ApiKeyInfo>()
  /** active keys by hex sha256 */
  readonly #active = new Map<string, { hash: Buffer; keyId: string }>()
  /**
   * keys already verified, as presented → key id: a client sends the same key on every request,
   * and hashing it each time costs more than the rest of authenticating. Only keys that passed
   * the hash check get in; a revoked key is refused by its record, and revoking empties this.
   */
  readonly #verified = new Map<string, string>()

  private constructor(private readonly db: Database) {}

  static async load(db: Database): Promise<Accounts> {
    const accounts = new Accounts(db)
    for (const row of await db.rows('SELECT id, name, tier, created_at, trial_ends_at FROM accounts')) {
      accounts.#accounts.set(String(row.id), {
        id: String(row.id),
        name: String(row.name),
        tier: TierName.parse(row.tier),
        createdAt: String(row.created_at),
        trialEndsAt: row.trial_ends_at === null ? null : String(row.trial_ends_at),
      })
    }
    for (const row of await db.rows('SELECT id, account_id, key_hash, prefix, created_at, revoked_at FROM api_keys')) {
      const key: ApiKeyInfo = {
        id: String(row.id),
        accountId: String(row.account_id),
        prefix: String(row.prefix),
        createdAt: String(row.created_at),
        revokedAt: row.revoked_at === null ? null : String(row.revoked_at),
      }
      accounts.#keys.set(key.id, key)
      if (!key.revokedAt) accounts.#active.set(String(row.key_hash), { hash: Buffer.from(String(row.key_hash), 'hex'), keyId: key.id })
    }
    return accounts
  }

  /** The account an active key belongs to, or null. The hashes are compared in constant time. */
  authenticate(presented: string): Authenticated | null {
    let keyId = this.#verified.get(presented)
    if (keyId === undefined) {
      const hash = hashApiKey(presented)
      const entry = this.#active.get(hash.toString('hex'))
      if (!entry || !sameHash(entry.hash, hash)) return null
      keyId = entry.keyId
      if (this.#verified.size >= VERIFIED_KEYS_KEPT) this.#verified.clear()
      this.#verified.set(presented, keyId)
    }
    const key = this.#keys.get(keyId)
    const account = key && !key.revokedAt ? this.#accounts.get(key.accountId) : undefined
    return account ? { account, keyId } : null
  }

  get(accountId: string): Account | undefined {
    return this.#accounts.get(accountId)
  }

  list(): { account: Account; keys: ApiKeyInfo[] }[] {
    const keys = [...this.#keys.values()]
    return [...this.#accounts.values()]
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      .map((account) => ({ account, keys: keys.filter((k) => k.accountId === account.id) }))
  }

  async createAccount(input: { name: string; tier: TierName; trialDays: number | null; now: number }): Promise<{ account: Account } & IssuedKey> {
    const createdAt = new Date(input.now).toISOString()
    const account: Account = {
      id: newId('acct'),
      name: input.name,
      tier: input.tier,
      createdAt,
      trialEndsAt: input.trialDays === null ? null : new Date(input.now + input.trialDays * DAY_MS).toISOString(),
    }
    const issued = newApiKey()
    const key: ApiKeyInfo = { id: newId('key'), accountId: account.id, prefix: issued.prefix, createdAt, revokedAt: null }
    await this.db.transaction(async (tx) => {
      await tx.run('INSERT INTO accounts VALUES (?, ?, ?, ?, ?)', [account.id, account.name, account.tier, account.createdAt, account.trialEndsAt])
      await tx.run('INSERT INTO api_keys VALUES (?, ?, ?, ?, ?, NULL)', [key.id, key.accountId, issued.hash.toString('hex'), key.prefix, key.createdAt])
    })
    this.#accounts.set(account.id, account)
    this.#remember(key, issued.hash)
    return { account, apiKey: issued.key, key }
  }

  /** A new key for an existing account (null if there is no such account); its other keys stay valid. */
  async createKey(accountId: string, now: number): Promise<IssuedKey | null> {
    if (!this.#accounts.has(accountId)) return null
    const issued = newApiKey()
    const key: ApiKeyInfo = { id: newId('key'), accountId, prefix: issued.prefix, createdAt: new Date(now).toISOString(), revokedAt: null }
    await this.db.run('INSERT INTO api_keys VALUES (?, ?, ?, ?, ?, NULL)', [key.id, accountId, issued.hash.toString('hex'), key.prefix, key.createdAt])
    this.#remember(key, issued.hash)
    return { apiKey: issued.key, key }
  }

  /** Revokes a key (null if there is no such key); revoking twice keeps the first revocation time. */
  async revokeKey(keyId: string, now: number): Promise<ApiKeyInfo | null> {
    const key = this.#keys.get(keyId)
    if (!key) return null
    if (key.revokedAt) return key
    const revokedAt = new Date(now).toISOString()
    await this.db.run('UPDATE api_keys SET revoked_at = ? WHERE id = ?', [revokedAt, keyId])
    const revoked = { ...key, revokedAt }
    this.#keys.set(keyId, revoked)
    for (const [hex, entry] of this.#active) if (entry.keyId === keyId) this.#active.delete(hex)
    this.#verified.clear()
    return revoked
  }

  #remember(key: ApiKeyInfo, hash: Buffer) {
    this.#keys.set(key.id, key)
    this.#active.set(hash.toString('hex'), { hash, keyId: key.id })
  }
}
