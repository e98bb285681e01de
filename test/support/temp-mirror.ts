// A mirror laid out as <feed>/<file>, served over real HTTP on loopback: a folder of ../shared
// (test/global-setup.ts), or a temporary folder of fixtures a test builds (removed on close).
import { mkdir, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import sirv from 'sirv'
import { serveIndexPage } from './index-page.ts'
import { makeTempDir } from './make-temp-dir.ts'

export type ServedFolder = { url: string; close: () => Promise<void> }

export async function serveFolder(root: string): Promise<ServedFolder> {
  const serve = sirv(root, { dev: true, etag: true })
  const server = http.createServer(async (req, res) => {
    if (await serveIndexPage(root, req, res)) return
    serve(req, res, () => {
      res.statusCode = 404
      res.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

export type TempMirror = ServedFolder & {
  /** replaces the folder's files with these (`<feed>/<file>` → bytes) */
  publish(files: Record<string, string | Uint8Array>): Promise<void>
}

/** A temporary mirror folder served over HTTP; close() stops the server and removes the folder. */
export async function serveTempMirror(files: Record<string, string | Uint8Array> = {}): Promise<TempMirror> {
  const root = await makeTempDir('mirror')
  const publish = async (next: Record<string, string | Uint8Array>) => {
    await rm(root, { recursive: true, force: true })
    await mkdir(root, { recursive: true })
    for (const [name, bytes] of Object.entries(next)) {
      await mkdir(path.dirname(path.join(root, name)), { recursive: true })
      await writeFile(path.join(root, name), bytes)
    }
  }
  await publish(files)
  const served = await serveFolder(root).catch(async (error) => {
    await rm(root, { recursive: true, force: true })
    throw error
  })
  return {
    url: served.url,
    publish,
    close: async () => {
      await served.close()
      await rm(root, { recursive: true, force: true })
    },
  }
}
