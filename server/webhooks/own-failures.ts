// Webhook attempts that failed for a reason of taxatlas's own, not the receiver's: the HTTP client
// could not load, or our code threw while preparing or sending the request. Such an attempt is not
// held against the endpoint (the delivery stays pending and is tried again once its claim lapses);
// it is logged as an error, counted in /metrics (taxatlas_webhook_own_failures_total) and makes
// `webhooks` degraded on /healthz until an attempt is sent again.
import type { Clock } from '../base/clock.ts'

export type WebhooksHealth =
  | { status: 'ok'; own_failures: number }
  | { status: 'degraded'; problem: 'own_failure'; reason: string; since: string; own_failures: number }

/** errno codes of this process running short, not of the exchange */
const OWN_ERRNO = new Set(['EMFILE', 'ENFILE', 'ENOMEM', 'ENOBUFS'])

/**
 * Whether an error thrown by the request comes from the exchange with the receiver: no answer in
 * time, a connection refused, reset or not allowed (the URL check's EADDRREFUSED), a name not found,
 * TLS refused, a malformed answer. Anything else (no code, one of Node's or undici's argument
 * errors, this process out of descriptors, memory or buffers) is ours.
 */
export function isReceiverFailure(error: unknown): boolean {
  const { name, code } = error as { name?: string; code?: unknown }
  if (name === 'TimeoutError' || name === 'AbortError') return true
  if (typeof code !== 'string') return false
  return (
    (/^E(?!RR_)[A-Z0-9_]+$/.test(code) && !OWN_ERRNO.has(code)) ||
    /^(ERR_TLS_|ERR_SSL_|HPE_)/.test(code) ||
    /CERT|UNABLE_TO_/.test(code) ||
    /^UND_ERR_(SOCKET|CONNECT_TIMEOUT|HEADERS_TIMEOUT|BODY_TIMEOUT|HEADERS_OVERFLOW|RES_CONTENT_LENGTH_MISMATCH|RES_EXCEEDED_MAX_SIZE|CLOSED|DESTROYED|ABORTED|INFO)$/.test(code)
  )
}

export class WebhookOwnFailures {
  /** attempts failed for a reason of ours since start-up */
  count = 0
  private failing: { reason: string; since: string } | null = null

  constructor(private readonly clock: Clock) {}

  /** Records one; true when its reason is new (log it), false while the same one lasts. */
  failed(reason: string): boolean {
    this.count++
    if (this.failing?.reason === reason) return false
    this.failing = { reason, since: new Date(this.clock()).toISOString() }
    return true
  }

  /** An attempt was sent: whatever failed on our side does no longer. */
  sent(): void {
    this.failing = null
  }

  health(): WebhooksHealth {
    return this.failing ? { status: 'degraded', problem: 'own_failure', ...this.failing, own_failures: this.count } : { status: 'ok', own_failures: this.count }
  }
}
