// An HTTP/1.1 client over a bare TCP socket, for hostile-input tests: it sends exactly the bytes it
// is given (fetch and http.request normalise `..` segments, encode control characters and refuse
// malformed headers before anything leaves the process) and reads back one response.
import net from 'node:net'

export type RawRequest = {
  method: string
  /** the request target exactly as written on the request line */
  target: string
  /** in order; a name may repeat */
  headers?: [string, string][]
  body?: string | Buffer
}

export type RawResponse = {
  status: number
  /** lower-cased names; repeated headers keep every value */
  headers: Record<string, string[]>
  body: Buffer
  text: string
  /** one value of a header, or undefined */
  header: (name: string) => string | undefined
}

/** The request's bytes: request line, headers, blank line, body. No header is added. */
function requestBytes(request: RawRequest): Buffer {
  const head = [`${request.method} ${request.target} HTTP/1.1`, ...(request.headers ?? []).map(([name, value]) => `${name}: ${value}`), '', ''].join('\r\n')
  return Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(request.body ?? '')])
}

/**
 * Sends the request to `url`'s host and port and resolves with the first final response (1xx
 * interim responses are skipped). Rejects when the server closes the connection without one.
 */
export function rawRequest(url: string, request: RawRequest | Buffer, options: { timeoutMs?: number } = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(url)
  const bytes = Buffer.isBuffer(request) ? request : requestBytes(request)
  const isHead = !Buffer.isBuffer(request) && request.method.toUpperCase() === 'HEAD'
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) })
    const reader = responseReader(isHead)
    const timer = setTimeout(() => finish(new Error(`no complete response within ${options.timeoutMs} ms`)), options.timeoutMs ?? 30_000)
    const finish = (outcome: RawResponse | Error) => {
      clearTimeout(timer)
      socket.destroy()
      if (outcome instanceof Error) reject(outcome)
      else resolve(outcome)
    }
    socket.on('data', (chunk: Buffer) => {
      const response = reader.push(chunk)
      if (response) finish(response)
    })
    socket.on('end', () => finish(reader.end() ?? new Error('the server closed the connection without a response')))
    // The server may answer and close before the whole request was written (413, 431): the answer counts.
    socket.on('error', (error) => finish(reader.end() ?? error))
    socket.write(bytes)
  })
}

/** Incremental parser of one HTTP/1.1 response: Content-Length, chunked, or until the connection ends. */
function responseReader(isHead: boolean) {
  let buffer = Buffer.alloc(0)
  let head: { status: number; headers: Record<string, string[]>; bodyStart: number } | null = null

  const parseHead = (): boolean => {
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n')
      if (end < 0) return false
      const lines = buffer.subarray(0, end).toString('latin1').split('\r\n')
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0])?.[1])
      if (!status) throw new Error(`not an HTTP response: ${JSON.stringify(lines[0])}`)
      if (status >= 100 && status < 200) {
        buffer = buffer.subarray(end + 4)
        continue
      }
      const headers: Record<string, string[]> = {}
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':')
        const name = line.slice(0, colon).trim().toLowerCase()
        ;(headers[name] ??= []).push(line.slice(colon + 1).trim())
      }
      head = { status, headers, bodyStart: end + 4 }
      return true
    }
  }

  const complete = (body: Buffer): RawResponse => {
    const { status, headers } = head!
    return { status, headers, body, text: body.toString('utf8'), header: (name) => headers[name.toLowerCase()]?.[0] }
  }

  /** The body if all of it has arrived, else null. */
  const tryBody = (atEnd: boolean): Buffer | null => {
    const { status, headers, bodyStart } = head!
    const rest = buffer.subarray(bodyStart)
    if (isHead || status === 204 || status === 304) return Buffer.alloc(0)
    if (headers['transfer-encoding']?.some((v) => /chunked/i.test(v))) return dechunk(rest)
    const length = headers['content-length']?.[0]
    if (length !== undefined) return rest.length >= Number(length) ? rest.subarray(0, Number(length)) : null
    return atEnd ? rest : null
  }

  return {
    push(chunk: Buffer): RawResponse | null {
      buffer = Buffer.concat([buffer, chunk])
      if (!head && !parseHead()) return null
      const body = tryBody(false)
      return body ? complete(body) : null
    },
    end(): RawResponse | null {
      if (!head && !parseHead()) return null
      const body = tryBody(true)
      return body ? complete(body) : null
    },
  }
}

/** The body of a chunked message once its last chunk has arrived, else null. */
function dechunk(bytes: Buffer): Buffer | null {
  const parts: Buffer[] = []
  let at = 0
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at)
    if (lineEnd < 0) return null
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16)
    if (size === 0) return Buffer.concat(parts)
    if (bytes.length < lineEnd + 2 + size + 2) return null
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size))
    at = lineEnd + 2 + size + 2
  }
}
