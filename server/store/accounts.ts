// Accounts and their API keys: kept in the store and mirrored in memory, so authenticating a
// request never touches the database. A key created or revoked through this node is in force here
// as soon as the call that made it returns; one changed through another node sharing the store
// once `refresh` has read it (store-engine.ts: watch says when).
import type { AccountTable, Account, ApiKeyInfo, KeyRecord, AccountChanges } from './store-engine.ts'
import { hashApiKey, newApiKey, newId, sameHash } from './api-keys.ts'
import type { TierName } from '../base/tiers.ts'

export type { Account, ApiKeyInfo } from './store-engine.ts'
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

  /** the mark of the last change read (AccountTable.changesSince) */
  #mark = 0
  #refreshing: Promise<void> | null = null
  #again = false

  private constructor(private readonly table: AccountTable) {}

  static async load(table: AccountTable): Promise<Accounts> {
    const accounts = new Accounts(table)
    accounts.#apply(await table.changesSince(0))
    return accounts
  }

  /**
   * Reads what changed since the last read (by any node) and puts it in force here. Calls while
   * one runs share one more read after it, so none misses a change made before it was called.
   */
  refresh(): Promise<void> {
    if (this.#refreshing) {
      this.#again = true
      return this.#refreshing
    }
    const run = async () => {
      try {
        do {
          this.#again = false
          this.#apply(await this.table.changesSince(this.#mark))
        } while (this.#again)
      } finally {
        this.#refreshing = null
      }
    }
    return (this.#refreshing = run())
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
    const key: KeyRecord = { id: newId('key'), accountId: account.id, prefix: issued.prefix, createdAt, revokedAt: null, keyHash: issued.hash.toString('hex') }
    await this.table.insertAccount(account, key)
    this.#accounts.set(account.id, account)
    this.#remember(key)
    return { account, apiKey: issued.key, key: publicKey(key) }
  }

  /** A new key for an existing account (null if there is no such account); its other keys stay valid. */
  async createKey(accountId: string, now: number): Promise<IssuedKey | null> {
    // An account another node created may not have been read here yet.
    if (!this.#accounts.has(accountId)) await this.refresh()
    if (!this.#accounts.has(accountId)) return null
    const issued = newApiKey()
    const key: KeyRecord = { id: newId('key'), accountId, prefix: issued.prefix, createdAt: new Date(now).toISOString(), revokedAt: null, keyHash: issued.hash.toString('hex') }
    await this.table.insertKey(key)
    this.#remember(key)
    return { apiKey: issued.key, key: publicKey(key) }
  }

  /** Revokes a key (null if there is no such key); revoking twice keeps the first revocation time. */
  async revokeKey(keyId: string, now: number): Promise<ApiKeyInfo | null> {
    const known = this.#keys.get(keyId)
    if (known?.revokedAt) return known
    const revoked = await this.table.revokeKey(keyId, new Date(now).toISOString())
    if (!revoked) return null
    this.#remember(revoked)
    return publicKey(revoked)
  }

  #apply(changes: AccountChanges): void {
    for (const account of changes.accounts) this.#accounts.set(account.id, account)
    for (const key of changes.keys) this.#remember(key)
    this.#mark = Math.max(this.#mark, changes.mark)
  }

  #remember(key: KeyRecord): void {
    this.#keys.set(key.id, publicKey(key))
    if (key.revokedAt) {
      if (this.#active.delete(key.keyHash)) this.#verified.clear()
    } else {
      this.#active.set(key.keyHash, { hash: Buffer.from(key.keyHash, 'hex'), keyId: key.id })
    }
  }
}

const publicKey = ({ keyHash: _, ...key }: KeyRecord): ApiKeyInfo => key
