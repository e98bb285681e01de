// A mirror server for fault tests: serves the real files of ../shared/mirror over HTTP, except
// where a fault is set for a path (status code, hang, truncation, or different bytes).
import { readdir, readFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { indexPageHtml } from './index-page.ts'
import { sharedPath } from './shared.ts'

export type Fault =
  | { kind: 'status'; status: number; times?: number }
  | { kind: 'hang' }
  | { kind: 'truncate' }
  | { kind: 'bytes'; bytes: Buffer }
  /** `line` sent again and again with no Content-Length, until the client hangs up or `limit` bytes are sent */
  | { kind: 'endless'; line: string; limit: number }
  /** an index page linking these file names (served from `files` below, or the mirror) */
  | { kind: 'listing'; names: string[] }

export type FaultMirror = {
  url: string
  faults: Map<string, Fault>
  /** extra files served at a path, beside the mirror's (an older edition derived in a test) */
  files: Map<string, Buffer>
  /** requests seen per path, with the conditional headers they carried */
  requests: { path: string; ifNoneMatch?: string; ifModifiedSince?: string }[]
  close(): Promise<void>
}

export async function startFaultMirror(root = sharedPath('mirror')): Promise<FaultMirror> {
  const faults = new Map<string, Fault>()
  const files = new Map<string, Buffer>()
  const requests: FaultMirror['requests'] = []
  const hanging = new Set<http.ServerResponse>()
  const server = http.createServer(async (req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    requests.push({
      path: urlPath,
      ifNoneMatch: req.headers['if-none-match'],
      ifModifiedSince: req.headers['if-modified-since'],
    })
    const fault = faults.get(urlPath)
    if (fault?.kind === 'status' && (fault.times === undefined || fault.times-- > 0)) {
      res.writeHead(fault.status).end('fault')
      return
    }
    if (fault?.kind === 'hang') {
      hanging.add(res)
      return
    }
    if (fault?.kind === 'endless') {
      sendEndlessly(res, Buffer.from(fault.line.repeat(Math.ceil(65_536 / fault.line.length))), fault.limit)
      return
    }
    const file = path.join(root, path.normalize(urlPath).replace(/^(\.\.[/\\])+/, ''))
    const bytes = fault?.kind === 'bytes' ? fault.bytes : fault?.kind === 'listing' ? Buffer.from(indexPageHtml(urlPath, fault.names)) : (files.get(urlPath) ?? (await readBody(file, urlPath, files)))
    if (!bytes) {
      res.writeHead(404).end()
      return
    }
    const etag = `"${bytes.length}-${bytes.subarray(0, 64).toString('hex').slice(0, 16)}"`
    if (fault?.kind !== 'truncate' && req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag }).end()
      return
    }
    res.writeHead(200, { 'content-length': bytes.length, etag })
    if (fault?.kind === 'truncate') {
      res.write(bytes.subarray(0, Math.floor(bytes.length / 2)))
      res.destroy()
      return
    }
    res.end(bytes)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    faults,
    files,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** `block` written while the client reads, with no Content-Length, until it hangs up or `limit` bytes went out. */
function sendEndlessly(res: http.ServerResponse, block: Buffer, limit: number): void {
  res.writeHead(200, { 'content-type': 'text/csv' })
  let sent = 0
  const more = () => {
    while (sent < limit && !res.destroyed) {
      sent += block.length
      if (!res.write(block)) return void res.once('drain', more)
    }
    res.end()
  }
  res.on('close', () => (sent = limit))
  more()
}

/** A file of the mirror, or the index page of a directory (its files and the extra ones in it). */
async function readBody(file: string, urlPath: string, extra: Map<string, Buffer>): Promise<Buffer | null> {
  if (!urlPath.endsWith('/')) return readFile(file).catch(() => null)
  const names = await readdir(file).catch(() => null)
  if (!names) return null
  const added = [...extra.keys()].filter((p) => path.posix.dirname(p) + '/' === urlPath).map((p) => path.posix.basename(p))
  return Buffer.from(indexPageHtml(urlPath, [...new Set([...names, ...added])].sort()))
}
