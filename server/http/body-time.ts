// Time limits on request bodies. Node's own requestTimeout is off on the listeners (server.ts): it
// cuts every request whose body is still arriving after it (300 s by default), a streamed backfill
// making steady progress included. In its place a body must arrive within the request timeout of
// its headers (`limitBodyTime`), unless its route streams it (`streamedBody`: the NDJSON backfill,
// once its key was checked): that body is cut only when no byte arrives for the idle timeout.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { HttpError } from '../base/errors.ts'
import { ensureBaseHeaders, requestState } from './request-context.ts'
import { sendError } from './respond.ts'

/** A request's deadline, or null once its route streams the body (`streamedBody` lifts it). */
const deadlines = new WeakMap<IncomingMessage, NodeJS.Timeout | null>()

const tooSlow = (message: string) => new HttpError('REQUEST_TIMEOUT', message, {}, { Connection: 'close' })

/** `listener`, with a deadline of `timeoutMs` from the headers for the body of each request that has one. */
export function limitBodyTime(listener: RequestListener, timeoutMs: number): RequestListener {
  return (req, res) => {
    const length = req.headers['content-length']
    if ((length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined) {
      queueMicrotask(() => setDeadline(req, res, length, timeoutMs))
    }
    listener(req, res)
  }
}

/**
 * Runs at the first microtask checkpoint after the request event, once the parser has taken what
 * the read that brought the headers held: a body of a declared length that is all buffered by
 * then (as a small body nearly always is) needs no timer.
 */
function setDeadline(req: IncomingMessage, res: ServerResponse, length: string | undefined, timeoutMs: number): void {
  if (deadlines.has(req) || req.complete) return
  if (length !== undefined && req.headers['transfer-encoding'] === undefined && req.readableLength >= Number(length)) return
  const deadline = setTimeout(() => cutOff(req, res), timeoutMs)
  // Never what keeps the process alive: a body refused unread (413) and never sent ends no request.
  deadline.unref()
  deadlines.set(req, deadline)
  const clear = () => clearTimeout(deadline)
  req.once('end', clear).once('close', clear)
  res.once('close', clear)
}

function cutOff(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return
  // Answered already (a refusal that did not read the body): only the connection is left to end.
  if (res.headersSent) {
    req.socket.destroy()
    return
  }
  ensureBaseHeaders(req, res)
  // The handler still waiting for the body fails once the connection closes; the answer is this one.
  sendError(res, tooSlow('The request body took too long to arrive.'), requestState(req).requestId)
}

/**
 * The body of `req` for a route that streams it: no deadline, but a wait of more than `idleMs` for
 * the next bytes throws 408 REQUEST_TIMEOUT. Only waits count, not the time the route spends on
 * what it has read.
 */
export async function* streamedBody(req: IncomingMessage, idleMs: number): AsyncGenerator<Buffer> {
  clearTimeout(deadlines.get(req) ?? undefined)
  deadlines.set(req, null)
  const chunks = (req as AsyncIterable<Buffer>)[Symbol.asyncIterator]()
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined
      const idle = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(tooSlow(`No part of the request body arrived for ${idleMs / 1000} s.`)), idleMs)
        timer.unref()
      })
      const next = await Promise.race([chunks.next(), idle]).finally(() => clearTimeout(timer))
      if (next.done) return
      yield next.value
    }
  } finally {
    // Not awaited: after a timeout a read is still pending, and ends only with the connection.
    chunks.return?.().catch(() => undefined)
  }
}
