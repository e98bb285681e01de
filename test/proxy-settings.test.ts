// The standard proxy variables on a real download: HTTP_PROXY sends the request through the
// proxy's CONNECT tunnel, NO_PROXY (host, port, `*`) sends it direct. The proxy here tunnels to no
// one, so a proxied request fails with the refusal named and a direct one succeeds.
// (HTTPS through a proxy with a CA from NODE_EXTRA_CA_CERTS: publisher-replica.test.ts.)
import { rm } from 'node:fs/promises'
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest'
import { download } from '../pipeline/fetch/fetch-source.ts'
import { readPipelineSettings, SettingsError } from '../pipeline/settings.ts'
import { createCensusGeocoder } from '../server/geocoder/census-geocoder.ts'
import { GeocoderUnavailableError } from '../server/geocoder/geocoder-unavailable-error.ts'
import { startConnectProxy, type ConnectProxy } from './support/connect-proxy.ts'
import { closedPortUrl } from './support/geocoder-fake.ts'
import { tempDir } from './support/refresh-run.ts'

const PROXY_VARIABLES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy', 'NO_PROXY', 'no_proxy']

describe('downloads and the proxy variables', () => {
  let proxy: ConnectProxy
  let build: string
  const saved = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]))
  const fileUrl = () => `${inject('mirrorUrl')}/idor/ordmache-current.txt`
  const mirrorHost = () => new URL(inject('mirrorUrl')).host
  const get = () =>
    download({ feed: 'idor', fileName: 'ordmache-current.txt' }, fileUrl(), readPipelineSettings({ TAXATLAS_BUILD: build, TAXATLAS_FETCH_RETRIES: '0', TAXATLAS_FETCH_TIMEOUT_MS: '5000' }))

  beforeAll(async () => {
    proxy = await startConnectProxy(() => null)
    build = await tempDir('proxy-build')
  })
  afterEach(() => {
    for (const name of PROXY_VARIABLES) {
      if (saved[name] === undefined) delete process.env[name]
      else process.env[name] = saved[name]
    }
  })
  afterAll(async () => {
    await proxy?.close()
    if (build) await rm(build, { recursive: true, force: true })
  })

  const useProxy = (noProxy?: string) => {
    for (const name of PROXY_VARIABLES) delete process.env[name]
    process.env.HTTP_PROXY = proxy.url
    if (noProxy !== undefined) process.env.NO_PROXY = noProxy
  }

  it('HTTP_PROXY tunnels the request through the proxy, and its refusal is named', async () => {
    useProxy()
    const before = proxy.tunnels.length
    await expect(get()).rejects.toThrow(`GET ${fileUrl()} through the proxy ${proxy.url} failed: the proxy refused the CONNECT tunnel (HTTP 403)`)
    expect(proxy.tunnels.slice(before)).toEqual([mirrorHost()])
  })

  it.each([
    ['the host', '127.0.0.1'],
    ['the host and its port', () => mirrorHost()],
    ['*', '*'],
    ['a list holding the host', 'example.org, 127.0.0.1'],
  ])('NO_PROXY naming %s goes direct', async (_label, noProxy) => {
    useProxy(typeof noProxy === 'function' ? noProxy() : noProxy)
    const before = proxy.tunnels.length
    const fetched = await get()
    expect(fetched.bytes.length).toBeGreaterThan(0)
    expect(proxy.tunnels.length).toBe(before)
  })

  it('NO_PROXY naming another port or another host still goes through the proxy', async () => {
    for (const noProxy of ['127.0.0.1:1', '.example.org']) {
      useProxy(noProxy)
      await expect(get(), noProxy).rejects.toThrow(/the proxy refused the CONNECT tunnel/)
    }
  })

  // The server's only outbound request: Node 20's fetch would ignore the variables.
  it('the Census geocoder client goes through HTTP_PROXY too', async () => {
    useProxy()
    const before = proxy.tunnels.length
    const baseUrl = await closedPortUrl()
    const geocoder = createCensusGeocoder({ baseUrl, timeoutMs: 30_000 })
    await expect(geocoder.geocodeAddress('1600 Pennsylvania Ave NW, Washington, DC 20500')).rejects.toBeInstanceOf(GeocoderUnavailableError)
    expect(proxy.tunnels.slice(before)).toEqual([new URL(baseUrl).host])
  })

  it('a proxy variable that is not a URL stops the run before any work', () => {
    expect(() => readPipelineSettings({ HTTPS_PROXY: 'http://proxy .corp:3128' })).toThrow(SettingsError)
    expect(() => readPipelineSettings({ HTTPS_PROXY: 'http://proxy .corp:3128' })).toThrow(/HTTPS_PROXY: a proxy URL/)
    expect(readPipelineSettings({ HTTPS_PROXY: 'proxy.corp:3128', http_proxy: 'http://user:secret@proxy.corp:8080' }).buildDir).toBeTruthy()
  })
})
