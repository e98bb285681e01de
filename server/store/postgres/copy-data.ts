// The data of one COPY, encoded as the lines arrive into buffers of a fixed size: a chunk of rows
// is held as a few dozen flat buffers outside the JavaScript heap rather than as tens of thousands
// of strings, which would outlive the young generation and make the collector copy and then mark
// them; the buffers are also what the COPY sends, as they are, one data message each.

const PIECE_BYTES = 256 * 1024

export class CopyData {
  readonly #full: Buffer[] = []
  #piece = Buffer.allocUnsafe(PIECE_BYTES)
  #used = 0
  #rows = 0

  /** Lines added so far. */
  get rows(): number {
    return this.#rows
  }

  /** Adds one line (its newline included). */
  add(line: string): void {
    // At most 3 bytes per UTF-16 unit; a line longer than a piece gets a buffer of its own.
    const most = line.length * 3
    if (this.#used + most > this.#piece.length) {
      this.#close()
      this.#piece = Buffer.allocUnsafe(Math.max(PIECE_BYTES, most))
    }
    this.#used += this.#piece.write(line, this.#used)
    this.#rows++
  }

  /** The bytes of every line added, in order. */
  pieces(): Buffer[] {
    this.#close()
    return this.#full
  }

  #close(): void {
    if (this.#used === 0) return
    this.#full.push(this.#piece.subarray(0, this.#used))
    this.#piece = this.#piece.subarray(this.#used)
    this.#used = 0
  }
}
