// What every answer to a hostile request must look like: never a 5xx; always nosniff; a body, when
// there is one, is JSON; an error is the taxatlas envelope (`error.code`, `message`,
// `support_reference` = X-Request-Id; a 422 adds `detail`) or, under /taxjar, TaxJar's
// `{error, detail, status}`. Requests refused before routing (not valid HTTP, oversized headers,
// too slow, no Host, an unknown Expect, CONNECT) are answered in the taxatlas envelope whatever
// their path, and their connection is closed.
import { ErrorBody, ValidationErrorBody } from '../../server/base/errors.ts'
import { TaxjarErrorBody } from '../../server/taxjar/taxjar-error.ts'
import type { RawRequest, RawResponse } from './reliability-raw-http.ts'

export const JSON_TYPE = 'application/json; charset=utf-8'
const REFUSED_BEFORE_ROUTING = new Set(['BAD_REQUEST', 'HEADERS_TOO_LARGE', 'REQUEST_TIMEOUT', 'EXPECTATION_FAILED'])

/** The first path segment, as the router reads it to choose an error format. */
const firstSegment = (target: string) => target.split('?')[0].split('/')[1] ?? ''

/** `taxjarPaths: false` for a listener without /taxjar routes (the admin listener). */
export function envelopeProblems(request: Pick<RawRequest, 'method' | 'target'>, response: RawResponse, options: { taxjarPaths?: boolean } = {}): string[] {
  const problems: string[] = []
  if (response.status >= 500) problems.push(`status ${response.status}`)
  if (response.header('x-content-type-options') !== 'nosniff') problems.push(`X-Content-Type-Options ${response.header('x-content-type-options')}`)
  if (response.body.length === 0) {
    if (response.status >= 400 && request.method !== 'HEAD') problems.push(`an error (${response.status}) without a body`)
    return problems
  }
  if (response.header('content-type') !== JSON_TYPE) problems.push(`Content-Type ${response.header('content-type')}`)
  let body: unknown
  try {
    body = JSON.parse(response.text)
  } catch {
    return [...problems, `a body that is not JSON: ${response.text.slice(0, 200)}`]
  }
  if (response.status < 400) return problems

  const envelope = ErrorBody.safeParse(body)
  const requestId = response.header('x-request-id')
  if (envelope.success && (REFUSED_BEFORE_ROUTING.has(envelope.data.error.code) || request.method === 'CONNECT') && response.header('connection') === 'close') {
    if (envelope.data.error.support_reference !== requestId) problems.push('support_reference is not the X-Request-Id')
    return problems
  }
  if (options.taxjarPaths !== false && firstSegment(request.target) === 'taxjar') {
    const taxjar = TaxjarErrorBody.safeParse(body)
    if (!taxjar.success) problems.push(`not the TaxJar error shape: ${response.text.slice(0, 200)}`)
    else if (taxjar.data.status !== response.status) problems.push(`TaxJar error status ${taxjar.data.status} on a ${response.status}`)
    return problems
  }
  if (!envelope.success) return [...problems, `not the error envelope: ${response.text.slice(0, 200)}`]
  if (envelope.data.error.support_reference !== requestId) problems.push('support_reference is not the X-Request-Id')
  if (response.status === 422 && !ValidationErrorBody.safeParse(body).success) problems.push(`a 422 without detail: ${response.text.slice(0, 200)}`)
  return problems
}
