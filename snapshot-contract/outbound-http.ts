// The one outbound HTTP set-up of both programs (undici): the pipeline's downloads, the server's
// Census geocoder and its webhook deliveries decide alike, by the standard variables, whether a
// request goes direct or through a proxy. HTTPS_PROXY / https_proxy for https URLs, HTTP_PROXY /
// http_proxy for http URLs, ALL_PROXY / all_proxy for either when those are unset, NO_PROXY /
// no_proxy for the hosts reached directly (proxy-from-env's rules: a host name, a `.suffix` or
// `*.suffix`, an optional `:port`, or `*` for all; the lower-case form wins). A proxied request goes
// through a CONNECT tunnel, so TLS runs end to end with the origin. No dispatcher sets its own CA
// list: TLS trusts Node's roots plus NODE_EXTRA_CA_CERTS, read when the process starts.
//
// It lives beside the snapshot contract because it is the other thing both sides share; undici is
// given by the caller, so the server keeps loading it on first use (server/base/undici.ts).
import { getProxyForUrl } from 'proxy-from-env'
import type * as Undici from 'undici'

export type UndiciModule = Pick<typeof import('undici'), 'Agent' | 'ProxyAgent' | 'Dispatcher'>

/** The proxy a request to `url` goes through under the process's variables (credentials kept), or null: direct. */
export const proxyFor = (url: string | URL): string | null => getProxyForUrl(String(url)) || null

/** A proxy URL as it may be shown in a message or a log: its credentials removed. */
export function shownProxy(proxy: string): string {
  try {
    const url = new URL(proxy)
    url.username = ''
    url.password = ''
    return url.origin
  } catch {
    return '(a proxy URL that does not parse)'
  }
}

/**
 * A dispatcher that sends each request as `proxyFor` its origin says: direct through an Agent
 * made with `options`, or through the ProxyAgent of its proxy (one per proxy, made with the same
 * options). A redirect to another host is decided again for that host.
 */
export function outboundDispatcher(undici: UndiciModule, options: Undici.Agent.Options = {}): Undici.Dispatcher {
  const direct = new undici.Agent(options)
  const tunnels = new Map<string, Undici.ProxyAgent>()
  const through = (proxy: string) => {
    let agent = tunnels.get(proxy)
    if (!agent) tunnels.set(proxy, (agent = new undici.ProxyAgent({ ...options, uri: withScheme(proxy) })))
    return agent
  }
  const all = () => [direct, ...tunnels.values()]
  class Outbound extends undici.Dispatcher {
    dispatch(opts: Undici.Dispatcher.DispatchOptions, handler: Undici.Dispatcher.DispatchHandler): boolean {
      const proxy = proxyFor(String(opts.origin))
      return (proxy ? through(proxy) : direct).dispatch(opts, handler)
    }
    async close(): Promise<void> {
      await Promise.all(all().map((agent) => agent.close()))
    }
    // Dispatcher's forms: (), (error), (callback), (error, callback).
    destroy(...args: unknown[]): any {
      const error = args.find((arg) => arg instanceof Error) as Error | undefined
      const callback = args.find((arg) => typeof arg === 'function') as (() => void) | undefined
      const done = Promise.all(all().map((agent) => agent.destroy(error ?? null))).then(() => undefined)
      if (!callback) return done
      void done.then(callback)
    }
  }
  return new Outbound()
}

/** `proxy.corp:3128` as the variables allow it, with the scheme undici needs. */
const withScheme = (proxy: string): string => (proxy.includes('://') ? proxy : `http://${proxy}`)

/** undici's words for a CONNECT the proxy answered with another status than 200. */
const REFUSED_TUNNEL = /Proxy response \((\d+)\) !== 200 when HTTP Tunneling/
const UNTRUSTED_CERTIFICATE = new Set(['SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'CERT_UNTRUSTED'])

/** Why an outbound request failed, in words an operator acts on (the tunnel refused, the certificate not trusted), from the error or any cause under it. */
export function outboundFailure(error: Error & { code?: unknown; cause?: unknown }): string {
  const chain: (Error & { code?: unknown })[] = []
  for (let at: unknown = error; at instanceof Error && chain.length < 6; at = (at as { cause?: unknown }).cause) chain.push(at)
  for (const link of chain) {
    const refused = REFUSED_TUNNEL.exec(link.message)
    if (refused) return `the proxy refused the CONNECT tunnel (HTTP ${refused[1]})`
    if (link.code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE') {
      return `${link.message}: the server's certificate is not trusted (a proxy that inspects TLS needs its CA in NODE_EXTRA_CA_CERTS); a server that sends its certificate without the intermediate that issued it (an incomplete chain) needs that intermediate's PEM in the file NODE_EXTRA_CA_CERTS names`
    }
    if (typeof link.code === 'string' && UNTRUSTED_CERTIFICATE.has(link.code)) {
      return `${link.message}: the server's certificate is not trusted (a proxy that inspects TLS needs its CA in NODE_EXTRA_CA_CERTS)`
    }
  }
  // fetch hides the socket's error (ECONNREFUSED, ENOTFOUND) under `fetch failed`: the innermost one says what happened
  const inner = chain.at(-1)!
  return typeof inner.code === 'string' && !inner.message.includes(inner.code) ? `${inner.code}: ${inner.message}` : inner.message
}
