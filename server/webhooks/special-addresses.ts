// What kind of destination an IP address is, for webhook URLs: every range of IANA's IPv4 and IPv6
// Special-Purpose Address Registries (iana.org/assignments/iana-ipv4-special-registry and
// iana-ipv6-special-registry, as of 2025), IPv4 multicast, and, for IPv6, anything outside 2000::/3,
// the only block the IPv6 Address Space registry allocates as global unicast (the rest is reserved by
// the IETF, ::/96 IPv4-compatible among it, or unique-local, link-local, multicast). ipaddr.js knows
// most of these ranges but not all (100:0:0:1::/64), and reads `::127.0.0.1` as IPv4-mapped, so the
// table is kept here, each entry with the registry's name for it.
//
// A loopback or private range may be allowed by the operator (tests, an internal receiver); the
// rest is never a destination: documentation, benchmarking, translation and tunnelling prefixes
// (which embed an IPv4 address, a loopback one included), anycast services and reserved space.
// An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged as the IPv4 address it maps.
import { BlockList, isIP } from 'node:net'

export type AddressKind = 'public' | 'loopback' | 'private' | 'never'
export type AddressClass = { kind: AddressKind; range: string | null }

type Range = [prefix: string, bits: number, name: string, kind: Exclude<AddressKind, 'public'>]

const IPV4: Range[] = [
  ['0.0.0.0', 8, '"This network" (RFC 791)', 'never'],
  ['10.0.0.0', 8, 'Private-Use (RFC 1918)', 'private'],
  ['100.64.0.0', 10, 'Shared Address Space (RFC 6598)', 'private'],
  ['127.0.0.0', 8, 'Loopback (RFC 1122)', 'loopback'],
  ['169.254.0.0', 16, 'Link Local (RFC 3927)', 'private'],
  ['172.16.0.0', 12, 'Private-Use (RFC 1918)', 'private'],
  ['192.0.0.0', 24, 'IETF Protocol Assignments (RFC 6890)', 'never'],
  ['192.0.2.0', 24, 'Documentation (TEST-NET-1, RFC 5737)', 'never'],
  ['192.31.196.0', 24, 'AS112-v4 (RFC 7535)', 'never'],
  ['192.52.193.0', 24, 'AMT (RFC 7450)', 'never'],
  ['192.88.99.0', 24, 'Deprecated (6to4 Relay Anycast) (RFC 7526)', 'never'],
  ['192.168.0.0', 16, 'Private-Use (RFC 1918)', 'private'],
  ['192.175.48.0', 24, 'Direct Delegation AS112 Service (RFC 7534)', 'never'],
  ['198.18.0.0', 15, 'Benchmarking (RFC 2544)', 'never'],
  ['198.51.100.0', 24, 'Documentation (TEST-NET-2, RFC 5737)', 'never'],
  ['203.0.113.0', 24, 'Documentation (TEST-NET-3, RFC 5737)', 'never'],
  ['224.0.0.0', 4, 'Multicast (RFC 5771)', 'never'],
  ['240.0.0.0', 4, 'Reserved (RFC 1112)', 'never'],
  ['255.255.255.255', 32, 'Limited Broadcast (RFC 8190)', 'never'],
]

const IPV6: Range[] = [
  ['::1', 128, 'Loopback Address (RFC 4291)', 'loopback'],
  ['::', 128, 'Unspecified Address (RFC 4291)', 'never'],
  ['64:ff9b::', 96, 'IPv4-IPv6 Translat. (RFC 6052)', 'never'],
  ['64:ff9b:1::', 48, 'IPv4-IPv6 Translat. (RFC 8215)', 'never'],
  ['100::', 64, 'Discard-Only Address Block (RFC 6666)', 'never'],
  ['100:0:0:1::', 64, 'Dummy IPv6 Prefix (RFC 9780)', 'never'],
  // TEREDO, benchmarking, AMT, AS112-v6, ORCHID(v2), drone DETs, PCP/TURN/DNS-SD anycast within it.
  ['2001::', 23, 'IETF Protocol Assignments (RFC 2928)', 'never'],
  ['2001:db8::', 32, 'Documentation (RFC 3849)', 'never'],
  ['2002::', 16, '6to4 (RFC 3056)', 'never'],
  ['2620:4f:8000::', 48, 'Direct Delegation AS112 Service (RFC 7534)', 'never'],
  ['3fff::', 20, 'Documentation (RFC 9637)', 'never'],
  ['5f00::', 16, 'Segment Routing (SRv6) SIDs (RFC 9602)', 'never'],
  ['fc00::', 7, 'Unique-Local (RFC 4193)', 'private'],
  ['fe80::', 10, 'Link-Local Unicast (RFC 4291)', 'private'],
  ['ff00::', 8, 'Multicast (RFC 4291)', 'never'],
]

const IPV4_MAPPED = new BlockList()
IPV4_MAPPED.addSubnet('::ffff:0:0', 96, 'ipv6')
const GLOBAL_UNICAST = new BlockList()
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6')

/** Each range on its own list, so the one an address falls in can be named; the most specific first. */
const lists = (ranges: Range[], family: 'ipv4' | 'ipv6') =>
  [...ranges]
    .sort((a, b) => b[1] - a[1])
    .map(([prefix, bits, name, kind]) => {
      const list = new BlockList()
      list.addSubnet(prefix, bits, family)
      return { list, range: `${prefix}/${bits} ${name}`, kind }
    })
const RANGES = { ipv4: lists(IPV4, 'ipv4'), ipv6: lists(IPV6, 'ipv6') }

/** The kind of destination `address` (an IPv4 or IPv6 address, a zone index allowed) is, and the range it falls in. */
export function classifyAddress(text: string): AddressClass {
  const address = text.replace(/%.*$/, '')
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4'
  if (family === 'ipv6' && IPV4_MAPPED.check(address, 'ipv6')) return classifyAddress(mappedIpv4(address))
  const special = RANGES[family].find(({ list }) => list.check(address, family))
  if (special) return { kind: special.kind, range: special.range }
  if (family === 'ipv6' && !GLOBAL_UNICAST.check(address, 'ipv6')) return { kind: 'never', range: 'outside 2000::/3, the only global unicast space (IANA IPv6 Address Space)' }
  return { kind: 'public', range: null }
}

/** The IPv4 address in the last 32 bits of an IPv4-mapped IPv6 address (`::ffff:7f00:1` or `::ffff:127.0.0.1`). */
function mappedIpv4(address: string): string {
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address)
  if (dotted) return dotted[1]!
  const [high, low] = address.split(':').slice(-2).map((word) => parseInt(word || '0', 16))
  return [high! >> 8, high! & 255, low! >> 8, low! & 255].join('.')
}
