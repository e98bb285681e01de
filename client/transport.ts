// One API call: attempts, retries and timeouts (spec 7 and 8). 429, 5xx, timeouts and network
// failures are retried, waiting Retry-After when sent, else min(2^attempt * 0.5, 30) seconds; any
// other 4xx is thrown at once. Every POST carries one Idempotency-Key, the same on each retry.
import type { TransportSettings } from './client-options.ts'
import { errorFromResponse, parsedBody } from './error-from-response.ts'
import { ServiceError, TaxatlasError } from './errors.ts'
import type { RequestBody } from './request-body.ts'
import { requestUrl, type QueryValue } from './request-url.ts'
import { backoffSeconds, retryAfterSeconds } from './retry-delay.ts'

/** Per-call options, accepted by every method. */
export type CallOptions = {
  /** aborts the call, retries and waits included; the signal's reason is thrown as is */
  signal?: AbortSignal
  /** seconds per attempt for this call (default: the client's `timeout`) */
  timeout?: number
  /** POST only: the Idempotency-Key to send (default: a new random UUID per call, reused by its retries) */
  idempotencyKey?: string
}

export type ApiRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  path: string
  query?: Record<string, QueryValue>
  body?: RequestBody
  /** `text`: the answer is a file (a CSV), returned as its text; default: a JSON object */
  answer?: 'text'
  /**
   * false: a call that must not take effect twice (an endpoint registered twice is sent each change
   * twice). It is retried only after a 429, which the server answers before acting on the call.
   */
  idempotent?: false
}

type AttemptOutcome<T> = { ok: true; value: T } | { ok: false; error: TaxatlasError; retryAfter: number | null }

export async function send<T>(settings: TransportSettings, request: ApiRequest, options: CallOptions = {}): Promise<T> {
  const url = requestUrl(settings.baseUrl, request.path, request.query)
  const headers = requestHeaders(settings, request, options)
  try {
    for (let attempt = 0; ; attempt++) {
      const outcome = await attemptOnce<T>(settings, url, request, headers, options)
      if (outcome.ok) return outcome.value
      // A streamed body whose rows were already read cannot be sent again.
      if (attempt >= settings.maxRetries || (request.body && !request.body.replayable())) throw outcome.error
      if (request.idempotent === false && outcome.error.status !== 429) throw outcome.error
      await settings.sleep(outcome.retryAfter ?? backoffSeconds(attempt), options.signal)
      options.signal?.throwIfAborted()
    }
  } finally {
    await request.body?.close()
  }
}

function requestHeaders(settings: TransportSettings, request: ApiRequest, options: CallOptions): Record<string, string> {
  const headers: Record<string, string> = { Accept: request.answer === 'text' ? 'text/csv, text/plain' : 'application/json' }
  if (settings.apiKey) {
    if (settings.authHeader === 'bearer') headers.Authorization = `Bearer ${settings.apiKey}`
    else headers['X-API-Key'] = settings.apiKey
  }
  if (request.body) headers['Content-Type'] = request.body.contentType
  if (request.method === 'POST') headers['Idempotency-Key'] = options.idempotencyKey ?? crypto.randomUUID()
  return headers
}

async function attemptOnce<T>(
  settings: TransportSettings,
  url: string,
  request: ApiRequest,
  headers: Record<string, string>,
  options: CallOptions,
): Promise<AttemptOutcome<T>> {
  const { signal: callerSignal } = options
  callerSignal?.throwIfAborted()
  const controller = new AbortController()
  const forwardAbort = () => controller.abort(callerSignal!.reason)
  callerSignal?.addEventListener('abort', forwardAbort, { once: true })

  const seconds = options.timeout ?? settings.timeout
  let settled = false
  let timedOut = false
  let timer: ReturnType<typeof setTimeout> | undefined
  // The timeout measures the server, not the caller's row source: for a streamed body it starts
  // once the last row has been handed over (or the answer began early).
  const startTimer = () => {
    if (settled || timer) return
    timer = setTimeout(() => {
      timedOut = true
      controller.abort(new Error(`no response within ${seconds} s`))
    }, seconds * 1000)
  }
  const opened = request.body?.open()
  const streamed = opened !== undefined && typeof opened.payload !== 'string'
  if (streamed) void opened.sent.then(startTimer)
  else startTimer()

  try {
    // `duplex` is required by fetch for a stream body but missing from the DOM RequestInit type.
    const init: RequestInit & { duplex?: 'half' } = { method: request.method, headers, body: opened?.payload, signal: controller.signal }
    if (streamed) init.duplex = 'half'
    const response = await settings.fetch(url, init)
    startTimer()
    const text = await response.text()
    if (response.ok) return { ok: true, value: request.answer === 'text' ? (text as T) : successBody<T>(response, text) }
    const retryAfter = retryAfterSeconds(response.headers.get('retry-after'), settings.now())
    const error = errorFromResponse({ status: response.status, statusText: response.statusText, headers: response.headers, text, retryAfter })
    if (response.status === 429 || response.status >= 500) return { ok: false, error, retryAfter }
    throw error
  } catch (error) {
    if (error instanceof TaxatlasError) throw error
    if (callerSignal?.aborted) throw callerSignal.reason
    const sourceFailure = request.body?.failure()
    if (sourceFailure !== undefined) throw sourceFailure
    if (timedOut) return noResponse('TIMEOUT', `No response from ${request.method} ${request.path} within ${seconds} s.`, error)
    const reason = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message
    return noResponse('NETWORK_ERROR', `Could not reach ${request.method} ${request.path}: ${reason}`, error)
  } finally {
    settled = true
    clearTimeout(timer)
    callerSignal?.removeEventListener('abort', forwardAbort)
  }
}

/** A retryable failure without a response: status, support reference and body are null. */
function noResponse(code: 'TIMEOUT' | 'NETWORK_ERROR', message: string, cause: unknown): AttemptOutcome<never> {
  return { ok: false, error: new ServiceError({ status: null, code, message, supportReference: null, body: null, cause }), retryAfter: null }
}

/**
 * A 2xx body must be a JSON object, or nothing at all for a 204 (undefined); anything else is
 * INVALID_RESPONSE (not retried: the server may have acted on the call).
 */
function successBody<T>(response: Response, text: string): T {
  if (response.status === 204 && text === '') return undefined as T
  const body = parsedBody(text)
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) return body as T
  throw new ServiceError({
    status: response.status,
    code: 'INVALID_RESPONSE',
    message: `The ${response.status} response is not a JSON object.`,
    supportReference: response.headers.get('x-request-id'),
    body: text,
  })
}
