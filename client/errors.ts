// The error classes of the client (spec 7, client conventions): one per status family, each
// carrying the HTTP status, the machine code, the support reference and the parsed body.
import type { ValidationIssue } from './types.ts'

export type ErrorDetails = {
  /** the HTTP status; null when no response arrived (timeout, network failure) */
  status: number | null
  /** `error.code` of the body (`UNAUTHORIZED`, `QUOTA_EXCEEDED`, …), or a client code: see README */
  code: string
  message: string
  /** `error.support_reference`, else the `X-Request-Id` header; quote it when reporting a problem */
  supportReference: string | null
  /** the parsed JSON body, the text when it is not JSON, null when there was none */
  body: unknown
  cause?: unknown
}

export class TaxatlasError extends Error {
  readonly status: number | null
  readonly code: string
  readonly supportReference: string | null
  readonly body: unknown

  constructor(details: ErrorDetails) {
    super(details.message, details.cause === undefined ? undefined : { cause: details.cause })
    this.name = new.target.name
    this.status = details.status
    this.code = details.code
    this.supportReference = details.supportReference
    this.body = details.body
  }
}

/** 401: no API key, or one that matches no account. */
export class AuthenticationError extends TaxatlasError {}

/** 402: the lookup quota is used up (`QUOTA_EXCEEDED`) or the trial has ended (`TRIAL_EXPIRED`). */
export class PaymentRequiredError extends TaxatlasError {}

/** 403: the plan or credentials do not allow the operation. */
export class ForbiddenError extends TaxatlasError {}

/** 404: the address, ZIP, place, point or record could not be found. */
export class NotFoundError extends TaxatlasError {}

/** 429: too many requests; thrown once the retries are used up. */
export class RateLimitError extends TaxatlasError {
  /** seconds the server asked to wait (`Retry-After`); null when it did not say */
  readonly retryAfter: number | null

  constructor(details: ErrorDetails & { retryAfter: number | null }) {
    super(details)
    this.retryAfter = details.retryAfter
  }
}

/** 400 or 422: input the server cannot use. `detail` lists each rejected value of a 422. */
export class ValidationError extends TaxatlasError {
  readonly detail: ValidationIssue[]

  constructor(details: ErrorDetails) {
    super(details)
    const detail = (details.body as { detail?: unknown } | null)?.detail
    this.detail = Array.isArray(detail) ? (detail as ValidationIssue[]) : []
  }
}

/** 5xx, a timeout (`TIMEOUT`), a network failure (`NETWORK_ERROR`) or an unreadable success body (`INVALID_RESPONSE`). */
export class ServiceError extends TaxatlasError {}
