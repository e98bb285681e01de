// Which hosts a webhook may be sent to, for hosts written as addresses (no name to resolve): an
// address in any range of IANA's IPv4 and IPv6 Special-Purpose Address Registries, IPv4 multicast,
// or IPv6 space outside global unicast (2000::/3) is refused, whatever the operator allows; loopback
// and private ranges only when allowed; public addresses are accepted. The first four are the forms
// an outside probe found accepted.
import { describe, expect, it } from 'vitest'
import { checkWebhookUrl, type UrlPolicy } from '../server/webhooks/webhook-url.ts'

const STRICT: UrlPolicy = { allowLoopback: false, allowPrivate: false }
const LENIENT: UrlPolicy = { allowLoopback: true, allowPrivate: true }

// One address in each range (its name in the registry), at its start or its end.
const NEVER = [
  ['198.18.0.1', 'Benchmarking'],
  ['203.0.113.10', 'Documentation (TEST-NET-3)'],
  ['[64:ff9b::7f00:1]', 'IPv4-IPv6 Translat., 127.0.0.1 inside'],
  ['[::127.0.0.1]', 'IPv4-compatible (deprecated), 127.0.0.1 inside'],
  ['0.0.0.0', '"This network"'],
  ['0.255.255.255', '"This network"'],
  ['192.0.0.9', 'Port Control Protocol Anycast'],
  ['192.0.0.255', 'IETF Protocol Assignments'],
  ['192.0.2.1', 'Documentation (TEST-NET-1)'],
  ['192.31.196.1', 'AS112-v4'],
  ['192.52.193.1', 'AMT'],
  ['192.88.99.1', 'Deprecated (6to4 Relay Anycast)'],
  ['192.175.48.1', 'Direct Delegation AS112 Service'],
  ['198.19.255.255', 'Benchmarking'],
  ['198.51.100.1', 'Documentation (TEST-NET-2)'],
  ['224.0.0.1', 'Multicast'],
  ['239.255.255.255', 'Multicast'],
  ['240.0.0.1', 'Reserved'],
  ['255.255.255.255', 'Limited Broadcast'],
  ['[::]', 'Unspecified Address'],
  ['[::ffff:0:7f00:1]', 'IPv4-translated (RFC 6145)'],
  ['[64:ff9b:1::1]', 'IPv4-IPv6 Translat. (local use)'],
  ['[100::1]', 'Discard-Only Address Block'],
  ['[100:0:0:1::1]', 'Dummy IPv6 Prefix'],
  ['[2001::1]', 'TEREDO'],
  ['[2001:1::1]', 'Port Control Protocol Anycast'],
  ['[2001:2::1]', 'Benchmarking'],
  ['[2001:3::1]', 'AMT'],
  ['[2001:4:112::1]', 'AS112-v6'],
  ['[2001:10::1]', 'Deprecated (ORCHID)'],
  ['[2001:20::1]', 'ORCHIDv2'],
  ['[2001:30::1]', 'Drone Remote ID Protocol Entity Tags'],
  ['[2001:1ff:ffff::1]', 'IETF Protocol Assignments'],
  ['[2001:db8::1]', 'Documentation'],
  ['[2002:7f00:1::1]', '6to4, 127.0.0.1 inside'],
  ['[2620:4f:8000::1]', 'Direct Delegation AS112 Service'],
  ['[3fff::1]', 'Documentation'],
  ['[5f00::1]', 'Segment Routing (SRv6) SIDs'],
  ['[ff02::1]', 'Multicast'],
  ['[fec0::1]', 'deprecated site-local, outside global unicast'],
  ['[4000::1]', 'unassigned, outside global unicast'],
] as const

const LOOPBACK = ['127.0.0.1', '127.255.255.254', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:2]']
const PRIVATE = ['10.0.0.1', '100.64.0.1', '169.254.169.254', '172.31.255.1', '192.168.0.7', '[fd00::1]', '[fe80::1]', '[::ffff:10.0.0.1]']
const PUBLIC = ['93.184.216.34', '1.1.1.1', '198.20.0.1', '203.0.114.1', '[2606:4700:4700::1111]', '[2a00:1450:4001::1]', '[::ffff:8.8.8.8]']

const check = (host: string, policy: UrlPolicy) => checkWebhookUrl(`https://${host}/hook`, policy)

describe('webhook hosts written as addresses', () => {
  it.each(NEVER)('%s (%s) is never a destination, whatever the operator allows', async (host) => {
    for (const policy of [STRICT, LENIENT]) {
      const result = await check(host, policy)
      expect(result).toMatchObject({ ok: false, reason: expect.stringContaining('is not a destination') })
    }
  })

  it('loopback and private ranges only when the operator allows them', async () => {
    for (const host of LOOPBACK) {
      expect(await check(host, STRICT), host).toMatchObject({ ok: false, reason: expect.stringContaining('loopback') })
      expect(await check(host, LENIENT), host).toMatchObject({ ok: true })
    }
    for (const host of PRIVATE) {
      expect(await check(host, STRICT), host).toMatchObject({ ok: false, reason: expect.stringContaining('private') })
      expect(await check(host, { allowLoopback: false, allowPrivate: true }), host).toMatchObject({ ok: true })
    }
  })

  it('public addresses, the neighbours of reserved ranges among them, are accepted', async () => {
    for (const host of PUBLIC) expect(await check(host, STRICT), host).toMatchObject({ ok: true })
  })

  it('names the range an address was refused for', async () => {
    expect(await check('198.18.0.1', STRICT)).toMatchObject({ reason: expect.stringContaining('198.18.0.0/15 Benchmarking (RFC 2544)') })
  })
})
