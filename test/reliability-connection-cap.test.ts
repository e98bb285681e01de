// One client address holding more idle connections than TAXATLAS_MAX_CONNECTIONS_PER_CLIENT, over
// real loopback sockets (the client on 127.0.0.2, the others on 127.0.0.1): the connections over
// the cap are closed on arrival, the client's held connections still get answers, other clients are
// served throughout, and the client can connect again once it holds fewer.
import net from 'node:net'
import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { portabilityArtifacts } from './support/portability-snapshot.ts'
import { startTestServer, type TestServer } from './support/server-harness.ts'

const CAP = 50
let artifactsDir: string
let server: TestServer

beforeAll(async () => {
  artifactsDir = await portabilityArtifacts(inject('mirrorUrl'))
  server = await startTestServer({ artifactsDir, env: { TAXATLAS_MAX_CONNECTIONS_PER_CLIENT: String(CAP) } })
})
afterAll(async () => {
  await server?.close()
  await rm(artifactsDir, { recursive: true, force: true })
})

type Held = { socket: net.Socket; closed: boolean }

function connectFrom(localAddress: string): Promise<Held> {
  const { hostname, port } = new URL(server.url)
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port), localAddress })
    const held: Held = { socket, closed: false }
    socket.on('close', () => (held.closed = true)).on('error', () => {})
    socket.once('connect', () => resolve(held)).once('error', reject)
  })
}

/** GET /healthz on a connection already open; its status line. */
function healthOver(socket: net.Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = ''
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')))
    socket.once('close', () => resolve(text.split('\r\n')[0]))
    socket.write('GET /healthz HTTP/1.1\r\nHost: taxatlas\r\nConnection: close\r\n\r\n')
  })
}

describe('connections per client address', () => {
  it(`closes those over ${CAP} on arrival while the client's others and other clients are served`, async () => {
    const held: Held[] = []
    try {
      for (let i = 0; i < CAP + 10; i++) held.push(await connectFrom('127.0.0.2'))
      await expect.poll(() => held.filter((h) => h.closed).length).toBe(10)
      // The ones closed are the last ten to arrive; the first fifty stay open.
      expect(held.slice(0, CAP).every((h) => !h.closed)).toBe(true)
      expect(server.logs.filter((e) => e.event === 'client_connections_capped')).toEqual([
        expect.objectContaining({ level: 'warn', client: '127.0.0.2', open: CAP, max: CAP }),
      ])

      // Another client is served, on a connection of its own.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
      // The capped client's held connections are answered.
      expect(await healthOver(held[0].socket)).toBe('HTTP/1.1 200 OK')

      // Holding fewer, it may connect again.
      for (const h of held.slice(1, 11)) h.socket.destroy()
      await expect.poll(async () => {
        const again = await connectFrom('127.0.0.2')
        held.push(again)
        return healthOver(again.socket)
      }).toBe('HTTP/1.1 200 OK')
    } finally {
      for (const h of held) h.socket.destroy()
    }
  })
})
