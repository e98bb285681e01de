// The publisher replica: one HTTPS server on loopback answering for the publishers' real host names
// (certificate from a CA made for the test), reached only through a CONNECT proxy on loopback that
// maps those names to it. A child process with HTTPS_PROXY and NODE_EXTRA_CA_CERTS (replica.env)
// takes the pipeline's official path end to end: index page → the publisher's href → download.
//
// Every answer carries an ETag and Last-Modified and honours If-None-Match / If-Modified-Since, so a
// second refresh against unchanged files is a no-change refresh.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import type { IncomingMessage } from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { sha256Hex } from '../../snapshot-contract/file-bytes.ts'
import { startConnectProxy, type ConnectProxy } from './connect-proxy.ts'
import { apacheIndexHtml, iisListingHtml, type ListedFile } from './publisher-pages.ts'
import { issueReplicaCertificates, type ReplicaCertificates } from './replica-certificates.ts'

/**
 * What the replica answers at one URL (without its query). `browserOnly`: a client that does not
 * present itself as a browser gets 403 and an "Access Denied" page, as some publishers' firewalls do.
 * `postback`: an ASP.NET page answering a GET with its form and a POST sending back every field of
 * `fields` with the file; any other POST gets the form again, as a page whose state it cannot match.
 * `form`: a page whose answer depends on what is posted (an ASP.NET drop-down's postback).
 */
export type ReplicaAnswer =
  | { kind: 'file'; file: string; browserOnly?: boolean }
  | { kind: 'page'; html: string; status?: number; browserOnly?: boolean }
  | { kind: 'status'; status: number }
  | { kind: 'postback'; html: string; fields: Record<string, string>; file: string }
  | { kind: 'form'; answer: (method: string, form: URLSearchParams) => { html: string; status?: number } }

export type ReplicaRequest = { method: string; url: string; status: number; conditional: boolean }

export type PublisherReplica = {
  /** HTTPS_PROXY and NODE_EXTRA_CA_CERTS for a child process */
  env: { HTTPS_PROXY: string; NODE_EXTRA_CA_CERTS: string }
  proxy: ConnectProxy
  requests: ReplicaRequest[]
  answer(url: string, answer: ReplicaAnswer): void
  /** answers `answer` at `url` until the returned function puts the previous answer back */
  override(url: string, answer: ReplicaAnswer): () => void
  /** `bytes` written under the replica's folder and answered as a file at `url` (the file's path returned) */
  serveBytes(url: string, bytes: Buffer | string): Promise<string>
  /**
   * the files of `dir` at `baseUrl<name>`, with the directory's listing at `baseUrl` in the publisher's
   * style; `files`: more files (built by the test) served and listed beside them
   */
  serveDirectory(baseUrl: string, dir: string, style: 'iis' | 'apache', options?: { listedWithoutFile?: readonly string[]; files?: Record<string, Buffer | string> }): Promise<void>
  close(): Promise<void>
}

/** `given`: certificates of the test's own (an incomplete chain); by default a CA made for the run signs the server's. */
export async function startPublisherReplica(hosts: readonly string[], certificateDir: string, given?: ReplicaCertificates): Promise<PublisherReplica> {
  const certificates = given ?? (await issueReplicaCertificates(hosts, certificateDir))
  const answers = new Map<string, ReplicaAnswer>()
  const requests: ReplicaRequest[] = []
  const server = https.createServer({ key: certificates.key, cert: certificates.cert }, (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase()
    const url = `https://${host}${new URL(req.url ?? '/', 'https://x').pathname}`
    const conditional = Boolean(req.headers['if-none-match'] ?? req.headers['if-modified-since'])
    requestBody(req)
      .then((body) => respond(postedAnswer(answers.get(url), req.method, body), req.headers, req.method === 'HEAD'))
      .then(
        ({ status, headers, body }) => {
          requests.push({ method: req.method ?? 'GET', url, status, conditional })
          res.writeHead(status, headers).end(body)
        },
        (error: Error) => {
          requests.push({ method: req.method ?? 'GET', url, status: 500, conditional })
          res.writeHead(500, { 'content-type': 'text/plain' }).end(error.message)
        },
      )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address() as AddressInfo
  const served = new Set(hosts.map((host) => host.toLowerCase()))
  const proxy = await startConnectProxy((host, port) => (port === 443 && served.has(host) ? address : null))
  /** `bytes` written under the replica's folder and answered as a file at `url`; the file's path */
  const serveBytes = async (url: string, bytes: Buffer | string): Promise<string> => {
    const file = path.join(certificateDir, `served-${sha256Hex(Buffer.from(url)).slice(0, 12)}-${path.posix.basename(new URL(url).pathname)}`)
    await writeFile(file, bytes)
    answers.set(url, { kind: 'file', file })
    return file
  }

  return {
    env: { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: certificates.caFile },
    proxy,
    requests,
    answer: (url, answer) => void answers.set(url, answer),
    override(url, answer) {
      const previous = answers.get(url)
      answers.set(url, answer)
      return () => void (previous ? answers.set(url, previous) : answers.delete(url))
    },
    serveBytes,
    async serveDirectory(baseUrl, dir, style, options = {}) {
      const { host, pathname } = new URL(baseUrl)
      const files: ListedFile[] = []
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        if (!entry.isFile()) continue
        const file = path.join(dir, entry.name)
        const info = await stat(file)
        files.push({ name: entry.name, size: info.size, modified: info.mtime })
        answers.set(`${baseUrl}${entry.name}`, { kind: 'file', file })
      }
      for (const [name, bytes] of Object.entries(options.files ?? {})) {
        const file = await serveBytes(`${baseUrl}${name}`, bytes)
        files.push({ name, size: Buffer.byteLength(bytes), modified: (await stat(file)).mtime })
      }
      const names = [...files.map((file) => file.name), ...(options.listedWithoutFile ?? [])]
      const html = style === 'iis' ? iisListingHtml(host, pathname, names) : apacheIndexHtml(pathname, files)
      answers.set(baseUrl, { kind: 'page', html })
    },
    async close() {
      await proxy.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

type Reply = { status: number; headers: Record<string, string | number>; body?: Buffer }
type PlainAnswer = Exclude<ReplicaAnswer, { kind: 'postback' | 'form' }>

function requestBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

/** A postback page's answer to this request: its form to a GET or to a POST that does not send its fields back, else its file. */
function postedAnswer(answer: ReplicaAnswer | undefined, method: string | undefined, body: string): PlainAnswer | undefined {
  if (answer?.kind === 'form') return { kind: 'page', ...answer.answer(method ?? 'GET', new URLSearchParams(body)) }
  if (answer?.kind !== 'postback') return answer
  const form = new URLSearchParams(body)
  const matched = method === 'POST' && Object.entries(answer.fields).every(([name, value]) => form.get(name) === value)
  return matched ? { kind: 'file', file: answer.file } : { kind: 'page', html: answer.html }
}

async function respond(answer: PlainAnswer | undefined, headers: Record<string, string | string[] | undefined>, head: boolean): Promise<Reply> {
  if (!answer) return notFound()
  if (answer.kind === 'status') return { status: answer.status, headers: { 'content-length': 0 } }
  if (answer.browserOnly && !BROWSER.test(String(headers['user-agent'] ?? ''))) return accessDenied()
  const { bytes, type, modified } =
    answer.kind === 'page'
      ? { bytes: Buffer.from(answer.html), type: 'text/html; charset=utf-8', modified: PAGES_MODIFIED }
      : { bytes: await readFile(answer.file), type: contentType(answer.file), modified: (await stat(answer.file)).mtime }
  const status = answer.kind === 'page' ? (answer.status ?? 200) : 200
  const etag = `"${sha256Hex(bytes).slice(0, 16)}"`
  const lastModified = new Date(Math.floor(modified.getTime() / 1000) * 1000)
  const validators = { etag, 'last-modified': lastModified.toUTCString() }
  if (status === 200 && notModified(headers, etag, lastModified)) return { status: 304, headers: validators }
  return { status, headers: { ...validators, 'content-type': type, 'content-length': bytes.length }, ...(head ? {} : { body: bytes }) }
}

// An answer of the replica's own pages is as old as the test run, as a static page on a server.
const PAGES_MODIFIED = new Date()

function notModified(headers: Record<string, string | string[] | undefined>, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = headers['if-none-match']
  if (typeof ifNoneMatch === 'string') return ifNoneMatch.split(',').some((tag) => tag.trim() === etag)
  const since = headers['if-modified-since']
  return typeof since === 'string' && !Number.isNaN(Date.parse(since)) && lastModified.getTime() <= Date.parse(since)
}

const BROWSER = /^Mozilla\/5\.0 \(/

function accessDenied(): Reply {
  const body = Buffer.from('<!DOCTYPE html><html><head><title>Access Denied</title></head><body><h1>Access Denied</h1><p>You don\'t have permission to access this resource.</p></body></html>')
  return { status: 403, headers: { 'content-type': 'text/html', 'content-length': body.length }, body }
}

function notFound(): Reply {
  // IIS and Apache answer a missing file with an HTML page and 404.
  const body = Buffer.from('<!DOCTYPE html><html><head><title>404 - File or directory not found.</title></head><body><h2>404 - File or directory not found.</h2></body></html>')
  return { status: 404, headers: { 'content-type': 'text/html', 'content-length': body.length }, body }
}

function contentType(file: string): string {
  if (/\.zip$/i.test(file)) return 'application/zip'
  if (/\.xlsx$/i.test(file)) return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
  if (/\.csv$/i.test(file)) return 'text/csv'
  return 'text/plain'
}
