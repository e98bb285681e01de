// Downloads one published file (official URL, a mirror URL, or a mirror directory), keeps the raw
// bytes under build/raw/<feed>/<sha256 prefix>/<file name>, and remembers the validators so the
// next run can ask the server with a conditional request.
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { sha256Hex, writeAtomically } from '../../snapshot-contract/file-bytes.ts'
import type { RawFile } from '../../snapshot-contract/model.ts'
import { assertBodyKind } from './body-kind.ts'
import { localFileUrl, localMirrorFolder } from './local-source-names.ts'
import { assertWithin, INPUT_LIMITS } from './input-limits.ts'
import { FetchError } from './fetch-error.ts'
import { httpRequest } from './http-client.ts'
import type { PipelineSettings, SourceLocation } from '../settings.ts'

export { FetchError } from './fetch-error.ts'

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
    const bytes = await readLocalFile(where, request.fileName).catch((error: NodeJS.ErrnoException) => {
      if (!error.code) throw error
      throw new FetchError(`${request.fileName}: cannot read it in ${localMirrorFolder(request.feed)} (${error.code})`, { notFound: error.code === 'ENOENT' })
    })
    const stored = await keepRaw(request, bytes, settings, localFileUrl('local-mirror', `${request.feed}/${request.fileName}`))
    return { ...stored, bytes, cache: 'mirror-dir' }
  }
  return download(request, where, settings)
}

/** A local file's bytes (a mirror directory, a manual drop), refused unread past INPUT_LIMITS.fileBytes; a failure to read it keeps its `code`. */
export async function readLocalFile(file: string, fileName: string): Promise<Buffer> {
  assertWithin(fileName, (await stat(file)).size, INPUT_LIMITS.fileBytes, 'a file')
  return readFile(file)
}

/** GET `url` with the validators of the last download of the same request; a 304 reuses its kept bytes. */
export async function download(request: Pick<SourceRequest, 'feed' | 'fileName' | 'userAgent'>, url: string, settings: PipelineSettings): Promise<FetchedSource> {
  const recordPath = path.join(settings.buildDir, 'raw', request.feed, `${request.fileName}.json`)
  const record = await readFile(recordPath, 'utf8').then((text) => JSON.parse(text) as CacheRecord).catch(() => null)
  const cached = record?.url === url ? await readFile(rawPath(settings, request, record.sha256)).catch(() => null) : null
  const headers: Record<string, string> = request.userAgent ? { 'user-agent': request.userAgent } : {}
  if (cached && record?.etag) headers['if-none-match'] = record.etag
  if (cached && record?.lastModified) headers['if-modified-since'] = record.lastModified

  const response = await httpRequest('GET', url, { timeoutMs: settings.fetchTimeoutMs, retries: settings.fetchRetries, headers }, request.fileName)
  if (response.statusCode === 304 && cached && record) {
    return { url, name: request.fileName, sha256: record.sha256, size: cached.length, bytes: cached, cache: 'not-modified' }
  }
  const bytes = response.body
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

/**
 * The copy of a request's file kept under build/raw by an earlier run: the one with hash `sha256`
 * when given (what a snapshot was built on), else the last one downloaded; null when none is held
 * or its bytes no longer match their hash.
 */
export async function keptCopy(request: Pick<SourceRequest, 'feed' | 'fileName'>, settings: PipelineSettings, sha256?: string): Promise<{ file: string; sha256: string } | null> {
  const recordPath = path.join(settings.buildDir, 'raw', request.feed, `${request.fileName}.json`)
  const wanted = sha256 ?? (await readFile(recordPath, 'utf8').then((text) => (JSON.parse(text) as CacheRecord).sha256).catch(() => undefined))
  if (!wanted) return null
  const file = rawPath(settings, request, wanted)
  const bytes = await readFile(file).catch(() => null)
  return bytes && sha256Hex(bytes) === wanted ? { file, sha256: wanted } : null
}

const rawPath = (settings: PipelineSettings, request: Pick<SourceRequest, 'feed' | 'fileName'>, sha256: string) =>
  path.join(settings.buildDir, 'raw', request.feed, sha256.slice(0, 12), request.fileName)

async function keepRaw(request: Pick<SourceRequest, 'feed' | 'fileName'>, bytes: Buffer, settings: PipelineSettings, url: string): Promise<RawFile> {
  const sha256 = sha256Hex(bytes)
  await writeAtomically(rawPath(settings, request, sha256), bytes)
  return { url, name: request.fileName, sha256, size: bytes.length }
}
