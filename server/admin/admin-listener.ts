// The admin app: admin routes behind a token check, for the loopback-only listener.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { timingSafeEqual } from 'node:crypto'
import { HttpError } from '../base/errors.ts'
import { buildRouter, type Router } from '../dispatch/router.ts'
import type { AppDeps } from '../dispatch/exchange.ts'
import type { StoreParts } from '../store/store.ts'
import { adminRoutes } from './admin-routes.ts'

export const ADMIN_TOKEN_HEADER = 'x-admin-token'

/** Built once the store is open: every admin route uses it. */
export function createAdminApp(deps: AppDeps, store: StoreParts, token: string): Router {
  const expected = Buffer.from(token)
  const guard = (req: IncomingMessage, _res: ServerResponse, next: (error?: unknown) => void) => {
    if (!isLoopback(req.socket.remoteAddress)) return next(new HttpError('FORBIDDEN', 'The admin listener answers loopback clients only.'))
    const sent = Buffer.from(String(req.headers[ADMIN_TOKEN_HEADER] ?? ''))
    if (sent.length === 0) return next(new HttpError('UNAUTHORIZED', 'Missing credentials: send the admin token in X-Admin-Token.'))
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return next(new HttpError('FORBIDDEN', 'Wrong admin token.'))
    next()
  }
  return buildRouter(adminRoutes({ accounts: store.accounts, usage: store.usage, tiers: deps.tiers, clock: deps.clock }), deps, { guard })
}

const isLoopback = (address: string | undefined) =>
  !!address && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'))
