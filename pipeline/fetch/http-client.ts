// The pipeline's requests, through the outbound set-up both programs share
// (snapshot-contract/outbound-http.ts: the proxy variables, NODE_EXTRA_CA_CERTS): redirects
// followed (each hop decided again by NO_PROXY), transient failures retried with backoff, the body
// read with the input limit counted as it arrives, a failure a FetchError naming what was asked. No
// Accept-Encoding is sent, so publishers answer the file's own bytes.
import * as undici from 'undici'
import { interceptors, type Dispatcher } from 'undici'
import { outboundDispatcher, outboundFailure, proxyFor, shownProxy } from '../../snapshot-contract/outbound-http.ts'
import { FetchError } from './fetch-error.ts'
import { INPUT_LIMITS, inMiB } from './input-limits.ts'

export type HttpOptions = { timeoutMs: number; retries: number; headers?: Record<string, string>; body?: string }
export type HttpResponse = { statusCode: number; headers: Record<string, string | undefined>; body: Buffer }

const USER_AGENT = 'taxatlas-refresh (+https://github.com/taxatlas)'
const RETRIED_STATUSES = [408, 429, 500, 502, 503, 504]
const RETRIED_ERRORS = ['ECONNRESET', 'ECONNREFUSED', 'ENOTFOUND', 'ENETDOWN', 'ENETUNREACH', 'EHOSTDOWN', 'EHOSTUNREACH', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']

let dispatcher: Dispatcher | null = null
const outbound = (): Dispatcher =>
  (dispatcher ??= outboundDispatcher(undici).compose(
    interceptors.retry({ statusCodes: RETRIED_STATUSES, errorCodes: RETRIED_ERRORS, minTimeout: 500, maxTimeout: 10_000, timeoutFactor: 2 }),
    interceptors.redirect({ maxRedirections: 10 }),
  ))

/**
 * `method` on `url` as `what` (a file name): an answer of 400 or more after the retries, a body past
 * INPUT_LIMITS.fileBytes, or no answer within `timeoutMs` (to the headers, then between chunks)
 * is a FetchError naming `what`, the URL and the proxy, with the status when the server answered.
 */
export async function httpRequest(method: 'GET' | 'POST', url: string, options: HttpOptions, what: string): Promise<HttpResponse> {
  const proxy = proxyFor(url)
  const fail = (failure: string, status?: number) =>
    new FetchError(`${what}: ${method} ${url}${proxy ? ` through the proxy ${shownProxy(proxy)}` : ''} failed: ${failure}`, status === undefined ? {} : { status })
  let response: Dispatcher.ResponseData<unknown>
  try {
    response = await undici.request(url, {
      method,
      dispatcher: outbound(),
      headers: { 'user-agent': USER_AGENT, ...options.headers },
      ...(options.body === undefined ? {} : { body: options.body }),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      // a connection per request: one the server closed while the run was busy compiling would fail the next request
      reset: true,
      retryOptions: { maxRetries: options.retries, methods: [method] },
      // read by the retry interceptor: this request's retries (TAXATLAS_FETCH_RETRIES)
    } as unknown as Parameters<typeof undici.request>[1])
  } catch (error) {
    // the retries used up on a status worth retrying (a 500, a 503)
    const status = (error as { statusCode?: number }).statusCode
    throw status ? fail(statusText(status), status) : fail(outboundFailure(error as Error))
  }
  const { statusCode } = response
  if (statusCode >= 400) {
    await response.body.dump().catch(() => undefined)
    throw fail(statusText(statusCode), statusCode)
  }
  const limit = INPUT_LIMITS.fileBytes
  const announced = Number(response.headers['content-length'])
  const chunks: Buffer[] = []
  let received = 0
  try {
    if (announced > limit) throw new TooLarge(announced)
    // A body past the limit is cut off as it arrives, never held whole.
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      received += chunk.length
      if (received > limit) throw new TooLarge(received)
      chunks.push(chunk)
    }
  } catch (error) {
    response.body.destroy()
    if (error instanceof TooLarge) throw fail(`its body passes ${inMiB(limit)} (${inMiB(error.bytes)} announced or received), the most a file may have (docs/reliability.md, input limits): cut off`)
    throw fail(outboundFailure(error as Error))
  }
  const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]))
  return { statusCode, headers, body: Buffer.concat(chunks, received) }
}

class TooLarge extends Error {
  constructor(readonly bytes: number) {
    super('too large')
  }
}

const statusText = (status: number) => `HTTP ${status}${STATUS_TEXT[status] ? ` (${STATUS_TEXT[status]})` : ''}`

const STATUS_TEXT: Readonly<Record<number, string>> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 408: 'Request Timeout', 410: 'Gone', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' }
