// GET /metrics on the public listener, only when TAXATLAS_METRICS_TOKEN is set and only for a
// scraper that sends it (`Authorization: Bearer <token>`, compared in constant time): without the
// token the answer is 401 and never a metric. Not an API route: it is not in /openapi.json, and
// a server without the setting has no /metrics at all (404). Scrapes write no access-log line.
import { timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { HttpError } from '../base/errors.ts'
import type { ServerMetrics } from '../base/metrics.ts'
import { ensureBaseHeaders, requestState } from './request-context.ts'
import { sendError } from './respond.ts'

export const METRICS_PATH = '/metrics'

export function withMetricsEndpoint(metrics: ServerMetrics, token: string, next: RequestListener): RequestListener {
  const expected = Buffer.from(`Bearer ${token}`)
  const refuse = (req: IncomingMessage, res: ServerResponse, error: HttpError) => {
    ensureBaseHeaders(req, res)
    sendError(res, error, requestState(req).requestId)
  }
  return (req, res) => {
    const url = req.url ?? ''
    if (url !== METRICS_PATH && !url.startsWith(`${METRICS_PATH}?`)) return next(req, res)
    if (req.method !== 'GET') return refuse(req, res, new HttpError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${METRICS_PATH}; use GET.`, { allowed: ['GET'] }, { Allow: 'GET' }))
    const sent = Buffer.from(req.headers.authorization ?? '')
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
      return refuse(req, res, new HttpError('UNAUTHORIZED', 'Send the metrics token as Authorization: Bearer <token>.', {}, { 'WWW-Authenticate': 'Bearer' }))
    }
    metrics.render().then(
      ({ contentType, text }) => {
        ensureBaseHeaders(req, res)
        res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' })
        res.end(text)
      },
      () => refuse(req, res, new HttpError('INTERNAL_ERROR', 'The metrics could not be gathered.')),
    )
  }
}
