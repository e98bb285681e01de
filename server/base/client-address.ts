// The unit a per-client limit counts by: an IPv4 address (also when seen as ::ffff:192.0.2.1 on a
// dual-stack listener), or the /64 of an IPv6 one, the block one host usually holds.
import { isIPv6 } from 'node:net'

export function clientKeyOf(address: string): string {
  if (address.startsWith('::ffff:')) return address.slice(7)
  return isIPv6(address) ? ipv6Block(address) : address
}

/** The /64 an IPv6 address is in, as its first four groups. */
function ipv6Block(address: string): string {
  const [head, tail = ''] = address.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left
  return `${groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, '')).join(':')}::/64`
}
