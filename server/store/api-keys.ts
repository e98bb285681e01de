// API key material: 256 random bits behind a recognizable prefix. Only the sha256 is stored;
// the key is shown once, at creation.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

export const KEY_PREFIX = 'tx_live_'
/** How much of a key is kept for display ("tx_live_Ab3x…"); 4 secret characters reveal 24 bits. */
const DISPLAY_LENGTH = KEY_PREFIX.length + 4

export type NewKey = { key: string; hash: Buffer; prefix: string }

export function newApiKey(): NewKey {
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`
  return { key, hash: hashApiKey(key), prefix: key.slice(0, DISPLAY_LENGTH) }
}

export const hashApiKey = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest()

export const sameHash = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b)

export const newId = (kind: 'acct' | 'key') => `${kind}_${randomBytes(8).toString('hex')}`
