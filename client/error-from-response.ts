// Turns an error response into the client's error class for its status (spec 7): the machine code
// and message from the taxatlas envelope `{error: {code, message, support_reference}}` when the
// body has one, else from the HTTP status line.
import {
  AuthenticationError,
  ForbiddenError,
  NotFoundError,
  PaymentRequiredError,
  RateLimitError,
  ServiceError,
  TaxatlasError,
  ValidationError,
  type ErrorDetails,
} from './errors.ts'

export type ErrorResponse = { status: number; statusText: string; headers: Headers; text: string; retryAfter: number | null }

/** The body as JSON when it parses, else the text as sent (null when empty). */
export function parsedBody(text: string): unknown {
  if (text === '') return null
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

type Envelope = { error?: { code?: unknown; message?: unknown; support_reference?: unknown } }

/** `Service Unavailable` → `SERVICE_UNAVAILABLE`; `HTTP_503` when the status line has no reason (HTTP/2). */
function codeOfStatusLine(status: number, statusText: string): string {
  const reason = statusText.trim().toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_|_$/g, '')
  return reason || `HTTP_${status}`
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined)

export function errorFromResponse(response: ErrorResponse): TaxatlasError {
  const { status, statusText, headers } = response
  const body = parsedBody(response.text)
  const envelope = body !== null && typeof body === 'object' ? (body as Envelope).error : undefined
  const details: ErrorDetails = {
    status,
    code: text(envelope?.code) ?? codeOfStatusLine(status, statusText),
    message: text(envelope?.message) ?? `HTTP ${status}${statusText ? ` ${statusText}` : ''}`,
    supportReference: text(envelope?.support_reference) ?? headers.get('x-request-id'),
    body,
  }
  if (status === 401) return new AuthenticationError(details)
  if (status === 402) return new PaymentRequiredError(details)
  if (status === 403) return new ForbiddenError(details)
  if (status === 404) return new NotFoundError(details)
  if (status === 429) return new RateLimitError({ ...details, retryAfter: response.retryAfter })
  if (status === 400 || status === 422) return new ValidationError(details)
  if (status >= 500) return new ServiceError(details)
  return new TaxatlasError(details)
}
