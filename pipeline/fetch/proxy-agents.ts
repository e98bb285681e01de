// The connection agents of one download, chosen by the standard proxy variables: HTTPS_PROXY /
// https_proxy for https URLs, HTTP_PROXY / http_proxy for http URLs (ALL_PROXY for either), and
// NO_PROXY / no_proxy for the hosts reached directly (proxy-from-env's rules: a host name, a
// `.suffix` or `*.suffix`, an optional `:port`, or `*` for all). A proxied request goes through a
// CONNECT tunnel (hpagent), so TLS stays end to end with the publisher.
//
// No agent sets `ca`: TLS trusts Node's default roots plus the certificates Node reads from
// NODE_EXTRA_CA_CERTS at process start (a corporate proxy's or a test's CA).
import http from 'node:http'
import https from 'node:https'
import { HttpProxyAgent, HttpsProxyAgent } from 'hpagent'
import { getProxyForUrl } from 'proxy-from-env'

export type OutboundAgents = {
  agent: { http: http.Agent; https: https.Agent }
  /** the proxy the request goes through, credentials removed; null for a direct connection */
  proxy: string | null
}

// A fresh connection per request: a run asks each host a handful of times, and a kept-alive socket
// the server closed while the run was busy compiling (the event loop held for seconds) would fail
// the next request with ECONNRESET.
const DIRECT = { http: new http.Agent({ keepAlive: false }), https: new https.Agent({ keepAlive: false }) }
const proxied = new Map<string, OutboundAgents['agent']>()

/** The agents for a request to `url` under the process's proxy variables. */
export function agentsFor(url: string): OutboundAgents {
  const proxy = getProxyForUrl(url)
  if (!proxy) return { agent: DIRECT, proxy: null }
  let agent = proxied.get(proxy)
  if (!agent) {
    agent = { http: new HttpProxyAgent({ proxy, keepAlive: false }), https: new HttpsProxyAgent({ proxy, keepAlive: false }) }
    proxied.set(proxy, agent)
  }
  return { agent, proxy: withoutCredentials(proxy) }
}

function withoutCredentials(proxy: string): string {
  try {
    const url = new URL(proxy)
    url.username = ''
    url.password = ''
    return url.origin
  } catch {
    return proxy
  }
}
