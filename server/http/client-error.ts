// Requests Node rejects before any handler runs (unparseable HTTP, oversized headers, header
// timeout) would get Node's bodiless default answer; they get the JSON envelope like the rest.
import { randomUUID } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Logger } from '../logger.ts'
import { errorBody, HttpError } from './errors.ts'
import { JSON_CONTENT_TYPE } from './respond.ts'

export function answerClientError(logger: Logger) {
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
    const requestId = randomUUID()
    const body = JSON.stringify(errorBody(known, requestId))
    logger.info('request', { method: null, route: null, path: null, status: known.status, duration_ms: 0, support_reference: requestId, account_id: null, reason: error.code })
    socket.end(
      [
        `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status]}`,
        `Content-Type: ${JSON_CONTENT_TYPE}`,
        `Content-Length: ${Buffer.byteLength(body)}`,
        `X-Request-Id: ${requestId}`,
        'X-Content-Type-Options: nosniff',
        'Cache-Control: no-store',
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    )
  }
}
