// The backfill request body: NDJSON streamed line by line (optionally gzip-compressed) with no
// time limit but an idle timeout, or one JSON array read whole up to a size limit. Anything else
// is refused before a row is read.
import type { IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import { createGunzip } from 'node:zlib'
import { readJsonBody } from '../../http/body.ts'
import { streamedBody } from '../../http/body-time.ts'
import { HttpError } from '../../base/errors.ts'
import { validationError } from '../../http/validation.ts'
import { arrayRows, ndjsonRows, type BackfillRow } from './backfill-rows.ts'

export const NDJSON_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines', 'application/jsonlines']

/** `batches`: the rows in the order sent, a batch at a time. */
export type BackfillBody = { format: 'ndjson' | 'json'; batches: AsyncIterable<BackfillRow[]> | Iterable<BackfillRow[]> }

export async function backfillBody(req: IncomingMessage, options: { jsonLimit: number; maxLineBytes: number; idleTimeoutMs: number }): Promise<BackfillBody> {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase()
  if (NDJSON_TYPES.includes(type)) {
    if (encoding !== 'identity' && encoding !== 'gzip') throw unsupported(`Content-Encoding ${encoding} is not supported; send identity or gzip.`)
    const bytes = streamedBody(req, options.idleTimeoutMs)
    return { format: 'ndjson', batches: ndjsonRows(encoding === 'gzip' ? gunzipped(bytes) : bytes, options.maxLineBytes) }
  }
  if (type === 'application/json') {
    if (encoding !== 'identity') throw unsupported('A JSON array body cannot be compressed; stream gzip-compressed NDJSON instead.')
    const body = await readJsonBody(req, options.jsonLimit)
    const values = Array.isArray(body) ? body : Array.isArray((body as { transactions?: unknown })?.transactions) ? (body as { transactions: unknown[] }).transactions : null
    if (!values) {
      throw validationError([{ loc: ['body'], msg: 'send a JSON array of transactions (or {"transactions": [...]}), or NDJSON with Content-Type: application/x-ndjson', type: 'invalid_type' }])
    }
    return { format: 'json', batches: arrayRows(values) }
  }
  throw unsupported('Send the transactions as NDJSON (Content-Type: application/x-ndjson, one JSON object per line) or as a JSON array (Content-Type: application/json).')
}

const unsupported = (message: string) => new HttpError('UNSUPPORTED_MEDIA_TYPE', message)

function gunzipped(bytes: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  const gunzip = createGunzip()
  // A corrupt body can fail before the rows are first read: without a listener then, the 'error'
  // event would be unhandled and stop the process. The iterator below still rethrows it.
  gunzip.on('error', () => {})
  const source = Readable.from(bytes)
  source.on('error', (error) => gunzip.destroy(error))
  source.pipe(gunzip)
  return (async function* () {
    try {
      for await (const chunk of gunzip) yield chunk as Buffer
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code?.startsWith('Z_')) throw new HttpError('BAD_REQUEST', `The gzip body is corrupt: ${(error as Error).message}`)
      throw error
    }
  })()
}
