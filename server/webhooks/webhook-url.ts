// Whether taxatlas may send to a webhook URL: https, to a public address. Every address the host
// name resolves to is checked (a name may point anywhere), at registration and again before each
// attempt, so a name moved onto an internal address afterwards is refused too; and the connection
// of an attempt resolves the name through the same check (guardedLookup), so a name that answers
// differently between the check and the connection cannot lead it inside either.
import { lookup as lookupCallback, type LookupAddress } from 'node:dns'
import { lookup } from 'node:dns/promises'
import { BlockList, isIP, type LookupFunction } from 'node:net'

export type UrlPolicy = { allowLoopback: boolean; allowPrivate: boolean }
/** `addresses`: what the host resolved to when checked, every one of them allowed */
export type UrlCheck = { ok: true; url: URL; addresses: string[] } | { ok: false; reason: string }

const LOOPBACK = new BlockList()
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4')
LOOPBACK.addAddress('::1', 'ipv6')

const PRIVATE = new BlockList()
for (const [net, bits] of [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['169.254.0.0', 16], ['100.64.0.0', 10]] as const) PRIVATE.addSubnet(net, bits, 'ipv4')
for (const [net, bits] of [['fc00::', 7], ['fe80::', 10]] as const) PRIVATE.addSubnet(net, bits, 'ipv6')

// Never a destination: "this network", multicast, reserved and the broadcast address.
const NEVER = new BlockList()
for (const [net, bits] of [['0.0.0.0', 8], ['224.0.0.0', 4], ['240.0.0.0', 4]] as const) NEVER.addSubnet(net, bits, 'ipv4')
NEVER.addAddress('::', 'ipv6')
NEVER.addSubnet('ff00::', 8, 'ipv6')

const MAX_URL_LENGTH = 2048

type AddressKind = 'public' | 'loopback' | 'private' | 'never'

function kindOf(address: string): AddressKind {
  let family: 'ipv4' | 'ipv6' = isIP(address) === 6 ? 'ipv6' : 'ipv4'
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) [address, family] = [mapped[1]!, 'ipv4']
  if (NEVER.check(address, family)) return 'never'
  if (LOOPBACK.check(address, family)) return 'loopback'
  if (PRIVATE.check(address, family)) return 'private'
  return 'public'
}

/** Why the addresses a host resolves to may not be sent to, or null when they may. */
function addressRefusal(host: string, addresses: readonly string[], policy: UrlPolicy): string | null {
  const kinds = new Set(addresses.map(kindOf))
  if (kinds.has('never')) return `the host ${host} resolves to an address that is not a destination (${addresses.join(', ')})`
  if (kinds.has('loopback') && !policy.allowLoopback) return `the host ${host} is a loopback address; webhooks go to public addresses (TAXATLAS_WEBHOOK_ALLOW_LOOPBACK=1 allows loopback, for tests)`
  if (kinds.has('private') && !policy.allowPrivate) return `the host ${host} resolves into a private address range (${addresses.join(', ')}); webhooks go to public addresses (TAXATLAS_WEBHOOK_ALLOW_PRIVATE=1 allows private ranges)`
  return null
}

/** A DNS lookup for outbound connections that fails, with the reason, for an address the policy refuses. */
export function guardedLookup(policy: UrlPolicy): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    lookupCallback(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '')
      const refusal = addressRefusal(hostname, addresses.map((a) => a.address), policy)
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
  const refusal = addressRefusal(host, addresses, policy)
  if (refusal) return { ok: false, reason: refusal }
  const allLoopback = addresses.every((address) => kindOf(address) === 'loopback')
  if (url.protocol === 'http:' && !(allLoopback && policy.allowLoopback)) return { ok: false, reason: 'the scheme must be https (http is allowed only to loopback addresses, with TAXATLAS_WEBHOOK_ALLOW_LOOPBACK=1)' }
  return { ok: true, url, addresses }
}
