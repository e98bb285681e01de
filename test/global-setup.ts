// Serves ../shared/mirror over real HTTP on a loopback port for the whole run, as CI does.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import sirv from 'sirv'
import type { TestProject } from 'vitest/node'
import { sharedPath } from './support/shared.ts'

export default async function setup(project: TestProject) {
  const serve = sirv(sharedPath('mirror'), { dev: true, etag: true })
  const server = http.createServer((req, res) => serve(req, res, () => { res.statusCode = 404; res.end() }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  project.provide('mirrorUrl', `http://127.0.0.1:${port}`)
  return () => new Promise<void>((resolve) => server.close(() => resolve()))
}

declare module 'vitest' {
  export interface ProvidedContext {
    mirrorUrl: string
  }
}
