// The rows of a backfill upload, a batch at a time, from an NDJSON stream or a parsed JSON array.
import { ndjsonLines } from './ndjson-lines.ts'

export type BackfillRow = { line: number; value: unknown } | { line: number; error: string }

/** Rows of a JSON array handed on at a time. */
const ARRAY_BATCH = 1_000

/** The rows of each chunk of the stream; blank lines are skipped (they still count for line numbers). */
export async function* ndjsonRows(stream: AsyncIterable<Buffer | string> | Iterable<Buffer | string>, maxLineBytes: number): AsyncGenerator<BackfillRow[]> {
  for await (const lines of ndjsonLines(stream, maxLineBytes)) {
    const rows: BackfillRow[] = []
    for (const line of lines) {
      if ('tooLong' in line) {
        rows.push({ line: line.number, error: `the line is longer than ${maxLineBytes} bytes` })
        continue
      }
      if (line.text.trim() === '') continue
      try {
        rows.push({ line: line.number, value: JSON.parse(line.text) })
      } catch (error) {
        rows.push({ line: line.number, error: `not valid JSON: ${(error as Error).message}` })
      }
    }
    if (rows.length) yield rows
  }
}

export function* arrayRows(values: readonly unknown[]): Generator<BackfillRow[]> {
  for (let start = 0; start < values.length; start += ARRAY_BATCH) {
    yield values.slice(start, start + ARRAY_BATCH).map((value, i) => ({ line: start + i + 1, value }))
  }
}
