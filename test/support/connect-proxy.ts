// A forward proxy on loopback that opens CONNECT tunnels, as a corporate proxy does, to the address
// `hostsTo` gives a requested host and port (the replica's, for the host names it holds): no name is
// ever resolved and no public address reached. Any other destination, and any request that is not
// CONNECT, is refused with 403.
import http from 'node:http'
import net from 'node:net'
import type { AddressInfo } from 'node:net'

export type ConnectProxy = {
  url: string
  /** `host:port` of every tunnel asked for, refused or not */
  tunnels: string[]
  /** when true every CONNECT is answered 403, as a proxy whose policy forbids the destination */
  refuseAll: boolean
  close(): Promise<void>
}

export async function startConnectProxy(hostsTo: (host: string, port: number) => AddressInfo | null): Promise<ConnectProxy> {
  const sockets = new Set<net.Socket>()
  const server = http.createServer((req, res) => {
    res.writeHead(403, { 'content-type': 'text/plain', connection: 'close' }).end('this proxy only tunnels (CONNECT) to the publisher replica\n')
  })
  const proxy: ConnectProxy = {
    url: '',
    tunnels: [],
    refuseAll: false,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const authority = req.url ?? ''
    proxy.tunnels.push(authority)
    const port = Number(/:(\d+)$/.exec(authority)?.[1])
    const host = authority.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1').toLowerCase()
    const target = proxy.refuseAll || !port ? null : hostsTo(host, port)
    if (!target) {
      client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')
      return
    }
    const upstream = net.connect(target.port, target.address, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    sockets.add(upstream)
    upstream.on('close', () => sockets.delete(upstream))
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return proxy
}
