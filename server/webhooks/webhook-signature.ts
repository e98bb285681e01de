// The signature of a delivery, as the common payment-provider webhooks sign: the header
// `Taxatlas-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by the secret>`.
// The timestamp is inside what is signed, so a receiver can refuse an old delivery replayed.
// While a rotated secret's overlap lasts, one `v1=` per secret, the current one first: a receiver
// holding either passes.
import { createHmac } from 'node:crypto'

export const SIGNATURE_HEADER = 'Taxatlas-Signature'

export function signatureHeader(secrets: readonly string[], unixSeconds: number, body: string): string {
  const macs = secrets.map((secret) => `v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`)
  return [`t=${unixSeconds}`, ...macs].join(',')
}
