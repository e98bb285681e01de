// Requests Node refuses or answers before any handler runs would get its bodiless default answers,
// or none: unparseable HTTP, oversized headers, a header timeout ('clientError'); an Expect other
// than 100-continue ('checkExpectation', else a bare 417); CONNECT ('connect', else the socket is
// closed unanswered); HTTP/1.1 without Host (Node's requireHostHeader, a bare 400: server.ts
// turns it off, and `requireHost` answers instead). Each gets the JSON envelope like the
// rest, and its connection is closed.
import { STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Logger } from '../base/logger.ts'
import { errorBody, HttpError } from '../base/errors.ts'
import { ensureBaseHeaders, requestState } from './request-context.ts'
import { newRequestId } from './request-id.ts'
import { baseHeaderList, sendError } from './respond.ts'

/** Answers, on `server`, everything Node would otherwise answer itself before a request listener runs. */
export function answerRefusals(server: Server, logger: Logger): void {
  server.on('clientError', answerClientError(logger))
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) =>
    answer(req, res, new HttpError('EXPECTATION_FAILED', `Expect: ${req.headers.expect} is not supported; only Expect: 100-continue is.`), logger, 'expectation'),
  )
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    // Node hands the socket over without its own error listener.
    socket.on('error', () => socket.destroy())
    // No resource here allows CONNECT: an empty Allow says so.
    const refused = new HttpError('METHOD_NOT_ALLOWED', 'CONNECT is not supported: this server is not a proxy.', { allowed: [] }, { Allow: '' })
    writeRaw(socket, refused, logger, 'CONNECT', 'connect')
    socket.once('finish', () => socket.destroy())
  })
}

/** `listener`, except that an HTTP/1.1 request without Host is refused with 400 BAD_REQUEST (RFC 9112 3.2). */
export function requireHost(listener: RequestListener, logger: Logger): RequestListener {
  return (req, res) => {
    if (req.headers.host !== undefined || req.httpVersion !== '1.1') return listener(req, res)
    answer(req, res, new HttpError('BAD_REQUEST', 'An HTTP/1.1 request must carry a Host header.'), logger, 'missing_host')
  }
}

function answerClientError(logger: Logger) {
  return (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy()
      return
    }
    const known =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? new HttpError('HEADERS_TOO_LARGE', 'The request headers are too large.')
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new HttpError('REQUEST_TIMEOUT', 'The request took too long to arrive.')
          : new HttpError('BAD_REQUEST', 'The request is not valid HTTP.')
    writeRaw(socket, known, logger, null, error.code ?? null)
  }
}

/** The envelope through the request's own response, which closes the connection. */
function answer(req: IncomingMessage, res: ServerResponse, error: HttpError, logger: Logger, reason: string): void {
  const { requestId } = requestState(req)
  ensureBaseHeaders(req, res)
  sendError(res, new HttpError(error.code, error.message, error.extra, { ...error.headers, Connection: 'close' }), requestId)
  logRefusal(logger, req.method ?? null, error.status, requestId, reason)
}

/** The envelope written on a socket no response object owns, then the end of the connection. */
function writeRaw(socket: Duplex, error: HttpError, logger: Logger, method: string | null, reason: string | null): void {
  const requestId = newRequestId()
  const body = JSON.stringify(errorBody(error, requestId))
  logRefusal(logger, method, error.status, requestId, reason)
  socket.end(
    [
      `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}`,
      ...headerLines([...baseHeaderList(requestId), ...Object.entries(error.headers).flat()]),
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  )
}

/** `[name, value, …]` as header lines. */
const headerLines = (list: string[]) => list.flatMap((name, i) => (i % 2 === 0 ? [`${name}: ${list[i + 1]}`] : []))

// The access log line of a request that reached no route (never its path: it may carry a key).
function logRefusal(logger: Logger, method: string | null, status: number, requestId: string, reason: string | null): void {
  logger.request({ method, route: null, path: null, status, duration_ms: 0, support_reference: requestId, account_id: null, reason })
}
