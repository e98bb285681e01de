// The rows of a backfill upload, one at a time, from an NDJSON stream or a parsed JSON array.
import { ndjsonLines } from './ndjson-lines.ts'

export type BackfillRow = { line: number; value: unknown } | { line: number; error: string }

/** Blank lines are skipped (they still count for line numbers). */
export async function* ndjsonRows(stream: AsyncIterable<Buffer | string> | Iterable<Buffer | string>, maxLineBytes: number): AsyncGenerator<BackfillRow> {
  for await (const line of ndjsonLines(stream, maxLineBytes)) {
    if ('tooLong' in line) {
      yield { line: line.number, error: `the line is longer than ${maxLineBytes} bytes` }
      continue
    }
    if (line.text.trim() === '') continue
    try {
      yield { line: line.number, value: JSON.parse(line.text) }
    } catch (error) {
      yield { line: line.number, error: `not valid JSON: ${(error as Error).message}` }
    }
  }
}

export function* arrayRows(values: readonly unknown[]): Generator<BackfillRow> {
  for (let i = 0; i < values.length; i++) yield { line: i + 1, value: values[i] }
}
