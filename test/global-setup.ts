// Serves ../shared/mirror over real HTTP on loopback ports for the whole run, as
// CI does; a directory answers an index page listing its files (support/index-page.ts).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import sirv from 'sirv'
import type { TestProject } from 'vitest/node'
import { serveIndexPage } from './support/index-page.ts'
import { sharedPath } from './support/shared.ts'

async function serveFolder(root: string): Promise<{ url: string; close: () => Promise<void> }> {
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

export default async function setup(project: TestProject) {
  const mirror = await serveFolder(sharedPath('mirror'))
  project.provide('mirrorUrl', mirror.url)
  return async () => {
    await mirror.close()
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    mirrorUrl: string
  }
}
