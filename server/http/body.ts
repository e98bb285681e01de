// Reading a JSON request body with a size limit: 413 past the limit, 415 for another media type or
// any Content-Encoding (a compressed body is never read as if it were plain), 400 for bytes that
// are not JSON. An empty body reads as `undefined` (the schema then decides).
import type { IncomingMessage } from 'node:http'
import { HttpError } from '../base/errors.ts'

export async function readJsonBody(req: IncomingMessage, limitBytes: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? NaN)
  const hasBody = declared > 0 || req.headers['transfer-encoding'] !== undefined
  if (!hasBody) return undefined
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
  if (type !== 'application/json' && !/^application\/[\w.+-]+\+json$/.test(type)) {
    throw new HttpError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON with Content-Type: application/json.')
  }
  const encoding = req.headers['content-encoding']?.trim().toLowerCase()
  if (encoding && encoding !== 'identity') {
    throw new HttpError('UNSUPPORTED_MEDIA_TYPE', `Content-Encoding ${encoding} is not accepted on this route: send the JSON body uncompressed.`)
  }
  if (declared > limitBytes) throw tooLarge(limitBytes)
  const text = (req.headers['transfer-encoding'] === undefined ? await readDeclared(req, declared) : await readChunked(req, limitBytes)).toString('utf8')
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new HttpError('MALFORMED_JSON', `The request body is not valid JSON: ${(error as Error).message}`)
  }
}

/**
 * A body of a declared length within the limit (Node's parser stops at Content-Length). A small
 * body usually comes in the same read as its headers: by the first microtask checkpoint after the
 * request event the parser has buffered all of it, and it is taken in one read() without
 * switching the stream to flowing mode. Otherwise it is read with plain listeners: an async
 * iterator costs more than the rest of a small request.
 */
async function readDeclared(req: IncomingMessage, declared: number): Promise<Buffer> {
  await undefined
  if (req.readableLength >= declared) {
    const buffered = req.read() as Buffer | null
    if (buffered !== null) return buffered
  }
  return readFlowing(req)
}

function readFlowing(req: IncomingMessage): Promise<Buffer> {
  if (req.destroyed) return Promise.reject(prematureClose())
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const onData = (chunk: Buffer) => void chunks.push(chunk)
    const settle = (error: Error | null) => {
      req.off('data', onData).off('end', onEnd).off('error', settle).off('close', onClose)
      if (error) reject(error)
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))
    }
    const onEnd = () => settle(null)
    const onClose = () => settle(prematureClose())
    req.on('data', onData).once('end', onEnd).once('error', settle).once('close', onClose)
  })
}

const prematureClose = () => new Error('Premature close: the request body ended before its Content-Length')

/** A chunked body, counted as it arrives: past the limit the rest is not read. */
async function readChunked(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limitBytes) throw tooLarge(limitBytes)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}

// The rest of an oversized body is never read, so the connection cannot be reused.
const tooLarge = (limitBytes: number) =>
  new HttpError('PAYLOAD_TOO_LARGE', `The request body is larger than the limit of ${limitBytes} bytes.`, { limit_bytes: limitBytes }, { Connection: 'close' })
