// Request bodies, re-opened for each attempt. A JSON body is a string and can be sent any number
// of times. An NDJSON body streams rows from the caller's iterable, which can be read only once:
// it can be sent again only while no row has been taken from it.

export type OpenedBody = {
  payload: string | ReadableStream<Uint8Array>
  /** settles once the whole body has been handed to fetch */
  sent: Promise<void>
}

export type RequestBody = {
  contentType: string
  open(): OpenedBody
  /** whether another attempt can send the same body */
  replayable(): boolean
  /** the error the caller's row source threw, if it threw one */
  failure(): unknown
  /** releases the row source when it was left part-read */
  close(): Promise<void>
}

export function jsonBody(value: unknown): RequestBody {
  const payload = JSON.stringify(value)
  return {
    contentType: 'application/json',
    open: () => ({ payload, sent: Promise.resolve() }),
    replayable: () => true,
    failure: () => undefined,
    close: async () => {},
  }
}

// Rows are joined into chunks of about this many characters, so a million rows are not a
// million writes.
const CHUNK_CHARS = 64 * 1024

type RowIterator = Iterator<unknown> | AsyncIterator<unknown>

function iteratorOf(rows: Iterable<unknown> | AsyncIterable<unknown>): RowIterator {
  return Symbol.asyncIterator in rows ? rows[Symbol.asyncIterator]() : rows[Symbol.iterator]()
}

export function ndjsonBody(rows: Iterable<unknown> | AsyncIterable<unknown>): RequestBody {
  const encoder = new TextEncoder()
  // set once the first row is asked for: from then on the body cannot be sent again
  let iterator: RowIterator | undefined
  let finished = false
  let failure: unknown
  return {
    contentType: 'application/x-ndjson',
    open() {
      let markSent!: () => void
      const sent = new Promise<void>((resolve) => (markSent = resolve))
      const payload = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            iterator ??= iteratorOf(rows)
            let chunk = ''
            try {
              while (chunk.length < CHUNK_CHARS) {
                const next = await iterator.next()
                if (next.done) {
                  finished = true
                  break
                }
                chunk += `${JSON.stringify(next.value)}\n`
              }
            } catch (error) {
              failure = error
              controller.error(error)
              return
            }
            if (chunk) controller.enqueue(encoder.encode(chunk))
            if (finished) {
              controller.close()
              markSent()
            }
          },
        },
        // 0: take no row before fetch asks for the body, so a connection that fails first leaves the rows unread.
        { highWaterMark: 0 },
      )
      return { payload, sent }
    },
    replayable: () => iterator === undefined,
    failure: () => failure,
    close: async () => {
      if (iterator && !finished) await iterator.return?.()
    },
  }
}
