// The web console's built files (console/, built into build/console by `make serve`), served at /
// for GET and HEAD on paths no API route has: a Polka app whose one middleware is sirv, and which
// hands what it has no file for back to the router's 404. Read once at start-up; a rebuilt console
// is served after a restart. Pages may load scripts, styles and data from this server only.
import { existsSync } from 'node:fs'
import path from 'node:path'
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import polka from 'polka'
import sirv from 'sirv'
import type { Logger } from '../base/logger.ts'
import { requestState } from '../http/request-context.ts'
import type { Unanswered } from '../dispatch/router.ts'

// The swagger-ui bundle of the API reference sets inline styles; nothing else is let in.
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** The console's handler, given the router's answer for what it has no file for; null when there is no console to serve (logged once). */
export function consoleFiles(dir: string | null, logger: Logger): ((unanswered: Unanswered) => RequestListener) | null {
  if (dir === null) return null
  if (!existsSync(path.join(dir, 'index.html'))) {
    logger.warn('console_unavailable', { dir, reason: 'no index.html: build it with make build/console/index.html (make serve does)' })
    return null
  }
  // Precompressed .gz files are sent to clients accepting gzip, with Vary: Accept-Encoding.
  const serve = sirv(dir, { etag: true, gzip: true, extensions: ['html'], dotfiles: false })
  const serveFile = (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const state = requestState(req)
    state.route = 'console'
    // Set before sirv writes, so a 304 carries them too; sirv adds Content-Type, ETag and the length.
    res.setHeader('X-Request-Id', state.requestId)
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Content-Security-Policy', CONSOLE_CSP)
    res.setHeader('Referrer-Policy', 'no-referrer')
    res.setHeader('Cache-Control', 'no-cache')
    // No such file: `next` reaches the 404, whose error path replaces these headers.
    serve(req, res, next)
  }
  return (unanswered) => {
    const app = polka({ onNoMatch: (req, res) => unanswered(req, res), onError: (error, req, res) => unanswered(req, res, error) })
    app.use(serveFile as unknown as polka.Middleware)
    return app.handler as unknown as RequestListener
  }
}
