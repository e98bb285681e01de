// The web console's built files (console/, built into build/console by `make serve`), served with
// sirv at / for GET and HEAD on paths no API route has. Read once at start-up; a rebuilt console is
// served after a restart. Pages may load scripts, styles and data from this server only.
import { existsSync } from 'node:fs'
import path from 'node:path'
import type { IncomingMessage, ServerResponse } from 'node:http'
import sirv from 'sirv'
import type { Logger } from '../base/logger.ts'
import { requestState } from '../http/request-context.ts'

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

type Next = () => void
export type ConsoleHandler = (req: IncomingMessage, res: ServerResponse, next: Next) => void

/** The handler serving the console in `dir`, or null when there is none to serve (logged once). */
export function consoleFiles(dir: string | null, logger: Logger): ConsoleHandler | null {
  if (dir === null) return null
  if (!existsSync(path.join(dir, 'index.html'))) {
    logger.warn('console_unavailable', { dir, reason: 'no index.html: build it with make build/console/index.html (make serve does)' })
    return null
  }
  // Precompressed .gz files are sent to clients accepting gzip, with Vary: Accept-Encoding.
  const serve = sirv(dir, { etag: true, gzip: true, extensions: ['html'], dotfiles: false })
  return (req, res, next) => {
    const state = requestState(req)
    state.route = 'console'
    // Set before sirv writes, so a 304 carries them too; sirv adds Content-Type, ETag and the length.
    res.setHeader('X-Request-Id', state.requestId)
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Content-Security-Policy', CONSOLE_CSP)
    res.setHeader('Referrer-Policy', 'no-referrer')
    res.setHeader('Cache-Control', 'no-cache')
    // No such file: `next` answers the 404, whose error path replaces these headers.
    serve(req, res, next)
  }
}
