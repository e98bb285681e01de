// Who is calling: the API key from `X-API-Key` or `Authorization: Bearer`, resolved to an account.
// Both failures are 401 UNAUTHORIZED with the messages of api.md "Authentication".
import type { IncomingMessage } from 'node:http'
import { HttpError } from '../base/errors.ts'
import type { Accounts, Authenticated } from '../store/accounts.ts'

export const MISSING_KEY_MESSAGE =
  'Missing credentials: send your API key in the X-API-Key header or as Authorization: Bearer <API_KEY>.'
export const INVALID_KEY_MESSAGE = 'Invalid X-API-Key.'

/** The key as sent (X-API-Key, Authorization: Bearer, or Authorization: Token token="…"); X-API-Key wins when both headers are present. */
export function presentedKey(req: IncomingMessage): string | null {
  const header = req.headers['x-api-key']
  const direct = (Array.isArray(header) ? header[0] : header)?.trim()
  if (direct) return direct
  const authorization = req.headers.authorization ?? ''
  // `Token token="<key>"` is the legacy form TaxJar integrations still send.
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(authorization) ?? /^Token\s+token="?([^"\s]+)"?\s*$/i.exec(authorization)
  return sent ? sent[1] : null
}

export function authenticate(req: IncomingMessage, accounts: Accounts): Authenticated {
  const key = presentedKey(req)
  if (!key) throw new HttpError('UNAUTHORIZED', MISSING_KEY_MESSAGE, {}, { 'WWW-Authenticate': 'Bearer' })
  const found = accounts.authenticate(key)
  if (!found) throw new HttpError('UNAUTHORIZED', INVALID_KEY_MESSAGE, {}, { 'WWW-Authenticate': 'Bearer error="invalid_token"' })
  return found
}
