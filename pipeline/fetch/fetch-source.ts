// Downloads one published file (official URL, a mirror URL, or a mirror directory), keeps the raw
// bytes under build/raw/<feed>/<sha256 prefix>/<file name>, and remembers the validators so the
// next run can ask the server with a conditional request.
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import got, { HTTPError, type Response } from 'got'
import { sha256Hex, writeAtomically } from '../../snapshot-contract/file-bytes.ts'
import type { RawFile } from '../../snapshot-contract/model.ts'
import { assertBodyKind } from './body-kind.ts'
import { localFileUrl, localMirrorFolder } from './local-source-names.ts'
import { agentsFor } from './proxy-agents.ts'
import type { PipelineSettings, SourceLocation } from '../settings.ts'

export type SourceRequest = {
  /** folder in a mirror and under build/raw: `sst`, `cdtfa`, `hud`, … */
  feed: string
  fileName: string
  officialUrl: string
  /** the User-Agent the publisher asks for, where it refuses the refresh's own (a browser's) */
  userAgent?: string
}

export type FetchedSource = RawFile & { bytes: Buffer; cache: 'fresh' | 'not-modified' | 'mirror-dir' }

type CacheRecord = { url: string; sha256: string; etag?: string; lastModified?: string }

export class FetchError extends Error {
  /** the HTTP status when the server answered with an error */
  readonly status: number | undefined
  /** the server answered 404, or the mirror directory has no such file: the name, not the fetch, is at fault */
  readonly notFound: boolean

  constructor(message: string, options: { status?: number; notFound?: boolean } = {}) {
    super(message)
    this.status = options.status
    this.notFound = options.notFound ?? options.status === 404
  }
}

/**
 * The file at its official URL, or where `location` (default: TAXATLAS_MIRROR) keeps it as
 * `<feed>/<file name>`. Refuses an HTML page or a non-ZIP body in place of the file named.
 */
export async function fetchSource(request: SourceRequest, settings: PipelineSettings, location: SourceLocation = settings.mirror): Promise<FetchedSource> {
  const fetched = await fetchBytes(request, settings, location)
  try {
    assertBodyKind(request.fileName, fetched.bytes)
  } catch (error) {
    throw new FetchError(`${(error as Error).message} (from ${fetched.url})`)
  }
  return fetched
}

/** Where `location` keeps a request: a file path for a mirror directory, else a URL. */
export function locate(request: SourceRequest, location: SourceLocation): { kind: 'file' | 'url'; where: string } {
  if (location.kind === 'dir') return { kind: 'file', where: path.join(location.root, request.feed, request.fileName) }
  if (location.kind === 'url') return { kind: 'url', where: `${location.base}/${request.feed}/${encodeURIComponent(request.fileName)}` }
  return { kind: 'url', where: request.officialUrl }
}

async function fetchBytes(request: SourceRequest, settings: PipelineSettings, location: SourceLocation): Promise<FetchedSource> {
  const { kind, where } = locate(request, location)
  if (kind === 'file') {
    const bytes = await readFile(where).catch((error: NodeJS.ErrnoException) => {
      throw new FetchError(`${request.fileName}: cannot read it in ${localMirrorFolder(request.feed)} (${error.code ?? error.message})`, { notFound: error.code === 'ENOENT' })
    })
    const stored = await keepRaw(request, bytes, settings, localFileUrl('local-mirror', `${request.feed}/${request.fileName}`))
    return { ...stored, bytes, cache: 'mirror-dir' }
  }
  return download(request, where, settings)
}

/** GET `url` with the validators of the last download of the same request; a 304 reuses its kept bytes. */
export async function download(request: Pick<SourceRequest, 'feed' | 'fileName' | 'userAgent'>, url: string, settings: PipelineSettings): Promise<FetchedSource> {
  const recordPath = path.join(settings.buildDir, 'raw', request.feed, `${request.fileName}.json`)
  const record = await readFile(recordPath, 'utf8').then((text) => JSON.parse(text) as CacheRecord).catch(() => null)
  const cached = record?.url === url ? await readFile(rawPath(settings, request, record.sha256)).catch(() => null) : null
  const headers: Record<string, string> = request.userAgent ? { 'user-agent': request.userAgent } : {}
  if (cached && record?.etag) headers['if-none-match'] = record.etag
  if (cached && record?.lastModified) headers['if-modified-since'] = record.lastModified

  const response = await httpGet(url, { timeoutMs: settings.fetchTimeoutMs, retries: settings.fetchRetries, headers }, request.fileName)
  if (response.statusCode === 304 && cached && record) {
    return { url, name: request.fileName, sha256: record.sha256, size: cached.length, bytes: cached, cache: 'not-modified' }
  }
  const bytes = response.rawBody
  const declared = Number(response.headers['content-length'])
  if (Number.isFinite(declared) && !response.headers['content-encoding'] && declared !== bytes.length) {
    throw new FetchError(`${request.fileName}: received ${bytes.length} bytes of the ${declared} announced (truncated)`)
  }
  const stored = await keepRaw(request, bytes, settings, url)
  const next: CacheRecord = {
    url,
    sha256: stored.sha256,
    etag: response.headers.etag,
    lastModified: response.headers['last-modified'],
  }
  await writeAtomically(recordPath, JSON.stringify(next, null, 2))
  return { ...stored, bytes, cache: 'fresh' }
}

export type HttpGetOptions = { timeoutMs: number; retries: number; headers?: Record<string, string> }

/**
 * GET `url` through the proxy its host needs, retrying transient failures. A failure is a FetchError
 * naming `what`, the URL and the proxy, with the HTTP status when the server answered.
 */
export async function httpGet(url: string, options: HttpGetOptions, what: string): Promise<Response<Buffer>> {
  const { agent, proxy } = agentsFor(url)
  try {
    return await got(url, {
      headers: { 'user-agent': 'taxatlas-refresh (+https://github.com/taxatlas)', ...options.headers },
      responseType: 'buffer',
      agent,
      // A redirect to another host follows that host's proxy rule (NO_PROXY).
      hooks: { beforeRedirect: [(redirect) => void (redirect.agent = agentsFor(String(redirect.url)).agent)] },
      timeout: { request: options.timeoutMs },
      retry: {
        limit: options.retries,
        methods: ['GET'],
        statusCodes: [408, 429, 500, 502, 503, 504],
        backoffLimit: 10_000,
      },
      throwHttpErrors: true,
      decompress: true,
    })
  } catch (error) {
    const status = error instanceof HTTPError ? error.response.statusCode : undefined
    throw new FetchError(`${what}: GET ${url}${proxy ? ` through the proxy ${proxy}` : ''} failed: ${failureText(error as Error & { code?: string })}`, { status })
  }
}

// hpagent reports a refused tunnel as `Bad response: <status>`.
const REFUSED_TUNNEL = /^Bad response: (\d+)$/
const UNTRUSTED_CERTIFICATE = new Set(['SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'CERT_UNTRUSTED'])

function failureText(error: Error & { code?: string }): string {
  const refused = REFUSED_TUNNEL.exec(error.message)
  if (refused) return `the proxy refused the CONNECT tunnel (HTTP ${refused[1]})`
  if (error.code && UNTRUSTED_CERTIFICATE.has(error.code)) {
    return `${error.message}: the server's certificate is not trusted (a proxy that inspects TLS needs its CA in NODE_EXTRA_CA_CERTS)`
  }
  return error.message
}

const rawPath = (settings: PipelineSettings, request: Pick<SourceRequest, 'feed' | 'fileName'>, sha256: string) =>
  path.join(settings.buildDir, 'raw', request.feed, sha256.slice(0, 12), request.fileName)

async function keepRaw(request: Pick<SourceRequest, 'feed' | 'fileName'>, bytes: Buffer, settings: PipelineSettings, url: string): Promise<RawFile> {
  const sha256 = sha256Hex(bytes)
  await writeAtomically(rawPath(settings, request, sha256), bytes)
  return { url, name: request.fileName, sha256, size: bytes.length }
}
