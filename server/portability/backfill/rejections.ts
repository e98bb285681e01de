// Rejected backfill rows: all are counted, the first `keep` are kept with their reasons so a
// million bad rows cannot grow the response (or the server's memory) without bound.
import { withEchoedInput, type ValidationDetail } from '../../http/validation.ts'

export type RejectedRow = {
  /** NDJSON: the line number; JSON array: the 1-based position of the element */
  line: number
  transaction_id: string | null
  errors: ValidationDetail[]
}

export class Rejections {
  count = 0
  readonly kept: RejectedRow[] = []

  constructor(private readonly keep: number) {}

  add(line: number, value: unknown, errors: ValidationDetail[]): void {
    this.count++
    if (this.kept.length < this.keep) this.kept.push({ line, transaction_id: idOf(value), errors: errors.map(withEchoedInput) })
  }

  get truncated(): boolean {
    return this.count > this.kept.length
  }
}

function idOf(value: unknown): string | null {
  const id = value !== null && typeof value === 'object' ? (value as Record<string, unknown>).transaction_id : undefined
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null
}
