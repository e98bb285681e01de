// The one error type handlers throw, the codes the API uses, and the JSON bodies they become.
import * as z from 'zod'

/** Every machine-readable `error.code` this server sends, with the status it always comes with. */
export const ERROR_STATUS = {
  INVALID_INPUT: 400,
  MALFORMED_JSON: 400,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  QUOTA_EXCEEDED: 402,
  TRIAL_EXPIRED: 402,
  FORBIDDEN: 403,
  CORS_NOT_ALLOWED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  EXPECTATION_FAILED: 417,
  VALIDATION_ERROR: 422,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  STORE_FILE_LOST: 503,
  GEOCODER_UNAVAILABLE: 503,
} as const
export type ErrorCode = keyof typeof ERROR_STATUS

export class HttpError extends Error {
  readonly status: number
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** extra fields merged into `error` (e.g. `correction`, `valid_values`) */
    readonly extra: Record<string, unknown> = {},
    /** response headers the error needs (e.g. `Allow`, `Retry-After`) */
    readonly headers: Record<string, string> = {},
    /** a body merged beside `error` (the 422 `detail` array) */
    readonly body: Record<string, unknown> = {},
  ) {
    super(message)
    this.status = ERROR_STATUS[code]
  }
}

/**
 * The `extra` and `headers` arguments of an HttpError the client should retry in `seconds`: the wait
 * in the error body (as `field`) and in Retry-After.
 */
export function retryAfter(seconds: number, field = 'retry_after'): [Record<string, unknown>, Record<string, string>] {
  return [{ [field]: seconds }, { 'Retry-After': String(seconds) }]
}

export const ErrorBody = z
  .object({
    error: z
      .object({
        code: z.string().describe('machine-readable code, e.g. UNAUTHORIZED'),
        message: z.string(),
        support_reference: z.string().describe('the request id, also sent as X-Request-Id'),
      })
      .catchall(z.unknown()),
  })
  .meta({ id: 'Error', description: 'Every error response has this shape.' })

export const ValidationIssue = z
  .object({
    loc: z.array(z.union([z.string(), z.number()])).describe('where: ["query", "zip"], ["body", "orders", 0, "amount"]'),
    msg: z.string(),
    type: z.string().describe('the zod issue code, e.g. invalid_type, too_small'),
    input: z.unknown().optional(),
    ctx: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'ValidationIssue' })

export const ValidationErrorBody = ErrorBody.extend({ detail: z.array(ValidationIssue) }).meta({
  id: 'ValidationError',
  description: 'A 422: the error envelope plus one `detail` item per rejected value.',
})

/**
 * How a family of routes writes its errors. Routes use the taxatlas envelope (`errorBody`)
 * unless they declare another format (the TaxJar-compatible routes answer in TaxJar's shape, so
 * TaxJar clients raise their own error type). `schema` documents the body in /openapi.json.
 */
export type ErrorFormat = {
  body: (error: HttpError, supportReference: string) => unknown
  schema: z.ZodType
}

export function errorBody(error: HttpError, supportReference: string): Record<string, unknown> {
  return {
    error: { code: error.code, message: error.message, support_reference: supportReference, ...error.extra },
    ...error.body,
  }
}
