// Whether taxatlas may send to a webhook URL: https, to a public address. Every address the host
// name resolves to is checked (a name may point anywhere), at registration and again before each
// attempt, so a name moved onto an internal address afterwards is refused too; and the connection
// of an attempt resolves the name through the same check (guardedLookup), so a name that answers
// differently between the check and the connection cannot lead it inside either.
import { lookup as lookupCallback, type LookupAddress } from 'node:dns'
import { lookup } from 'node:dns/promises'
import { isIP, type LookupFunction } from 'node:net'
import { classifyAddress, type AddressClass } from './special-addresses.ts'

export type UrlPolicy = { allowLoopback: boolean; allowPrivate: boolean }
/** `addresses`: what the host resolved to when checked, every one of them allowed */
export type UrlCheck = { ok: true; url: URL; addresses: string[] } | { ok: false; reason: string }

const MAX_URL_LENGTH = 2048

type ClassifiedAddress = AddressClass & { address: string }

const classified = (addresses: readonly string[]): ClassifiedAddress[] => addresses.map((address) => ({ address, ...classifyAddress(address) }))

/** Why the addresses a host resolves to may not be sent to, or null when they may. */
function addressRefusal(host: string, addresses: readonly ClassifiedAddress[], policy: UrlPolicy): string | null {
  const kinds = new Set(addresses.map((a) => a.kind))
  const never = addresses.find((a) => a.kind === 'never')
  if (never) return `the host ${host} resolves to an address that is not a destination (${never.address}: ${never.range})`
  if (kinds.has('loopback') && !policy.allowLoopback) return `the host ${host} is a loopback address; webhooks go to public addresses (TAXATLAS_WEBHOOK_ALLOW_LOOPBACK=1 allows loopback, for tests)`
  if (kinds.has('private') && !policy.allowPrivate) return `the host ${host} resolves into a private address range (${addresses.map((a) => a.address).join(', ')}); webhooks go to public addresses (TAXATLAS_WEBHOOK_ALLOW_PRIVATE=1 allows private ranges)`
  return null
}

/** A DNS lookup for outbound connections that fails, with the reason, for an address the policy refuses. */
export function guardedLookup(policy: UrlPolicy): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    lookupCallback(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '')
      const refusal = addressRefusal(hostname, classified(addresses.map((a) => a.address)), policy)
      if (refusal) return callback(Object.assign(new Error(refusal), { code: 'EADDRREFUSED' }), '')
      if (options.all) callback(null, addresses)
      else callback(null, addresses[0]!.address, addresses[0]!.family)
    })
  }) as LookupFunction
}

/** The URL when taxatlas may send to it, or why not. */
export async function checkWebhookUrl(text: string, policy: UrlPolicy): Promise<UrlCheck> {
  if (text.length > MAX_URL_LENGTH) return { ok: false, reason: `the URL is longer than ${MAX_URL_LENGTH} characters` }
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { ok: false, reason: 'not an absolute URL (e.g. https://example.com/taxatlas-hook)' }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: `the scheme must be https, not ${url.protocol.slice(0, -1)}` }
  if (url.username || url.password) return { ok: false, reason: 'the URL must not carry a user name or password (sign with the secret instead)' }
  if (url.hash) return { ok: false, reason: 'the URL must not have a #fragment' }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  let addresses: string[]
  if (isIP(host)) addresses = [host]
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address)
    } catch (error) {
      return { ok: false, reason: `the host ${host} cannot be resolved (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` }
    }
  }
  const classes = classified(addresses)
  const refusal = addressRefusal(host, classes, policy)
  if (refusal) return { ok: false, reason: refusal }
  const allLoopback = classes.every((a) => a.kind === 'loopback')
  if (url.protocol === 'http:' && !(allLoopback && policy.allowLoopback)) return { ok: false, reason: 'the scheme must be https (http is allowed only to loopback addresses, with TAXATLAS_WEBHOOK_ALLOW_LOOPBACK=1)' }
  return { ok: true, url, addresses }
}
