// Whether the open DuckDB file is still sound at its path, which its device and inode alone
// cannot tell: `truncate -s 0`, an overwrite or a copy written over it in place keep them, while the
// server keeps acknowledging writes into a file a restart finds empty or older.
//
// The file is judged by what DuckDB itself reads when it opens it, and by nothing DuckDB's own
// files may break. A DuckDB file starts with three 4 KiB headers, each led by its checksum: the
// main one (then the magic bytes "DUCK") and two database headers, each holding its checkpoint's
// iteration, where that checkpoint's metadata and free list start (block pointers) and the block
// size. DuckDB reads all three and refuses the file when one is missing or fails its checksum,
// then reads the newest header's metadata and free list. So the file is damaged in place when it is
// shorter than its headers, lacks the magic bytes, a header fails DuckDB's checksum, or the blocks
// the newest header points to are no longer in the file; and, though DuckDB would read it, when
// its newest iteration went down (an older copy written over it: a checkpoint writes the header
// with the lower iteration, raising it past the other, so the higher of the two never goes down).
// The header's count of blocks is no measure of the file's length: a checkpoint cuts the free
// blocks at the end off the file after writing a header that still counts them.
//
// The header is read before every write, so the file is read through one descriptor held open on
// the file opened (the identity check has just found that file at the path), not opened anew.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { sameFile, type FileIdentity } from './file-identity.ts'

const HEADER_BYTES = 4096
const HEADERS_BYTES = 3 * HEADER_BYTES
const MAGIC = Buffer.from('DUCK')
const HEADER_NAMES = ['main', 'first database', 'second database']

const WORD = (1n << 64n) - 1n
/** A block pointer is a block id in its low 56 bits and an index within the block in its top 8; all ones is none. */
const BLOCK_ID = (1n << 56n) - 1n

/** DuckDB's checksum of a header: each 64-bit word after the stored checksum multiplied by a constant, xor-ed into 5381. */
function checksumMatches(bytes: Buffer, at: number): boolean {
  let sum = 5381n
  for (let word = at + 8; word < at + HEADER_BYTES; word += 8) sum ^= (bytes.readBigUInt64LE(word) * 0xbf58476d1ce4e5b9n) & WORD
  return sum === bytes.readBigUInt64LE(at)
}

type Header = { iteration: bigint }

/**
 * The newest database header of the file open as `fd`, or what is wrong with it. `verified` holds
 * the header bytes last found sound, so the checksums are computed again only when they change.
 */
function readHeader(fd: number, bytes: Buffer, verified: Buffer): Header | { damage: string } {
  const size = fstatSync(fd).size
  if (size < HEADERS_BYTES) return { damage: `the store file is ${size} bytes, shorter than DuckDB's headers (truncated)` }
  readSync(fd, bytes, 0, HEADERS_BYTES, 0)
  if (!bytes.subarray(8, 12).equals(MAGIC)) return { damage: "the store file no longer starts with DuckDB's header (overwritten)" }
  if (!bytes.equals(verified)) {
    const failing = [0, 1, 2].find((header) => !checksumMatches(bytes, header * HEADER_BYTES))
    if (failing !== undefined) return { damage: `DuckDB's ${HEADER_NAMES[failing]} header in the store file fails its checksum (overwritten)` }
  }
  const headers = [HEADER_BYTES, 2 * HEADER_BYTES].map((at) => ({
    iteration: bytes.readBigUInt64LE(at + 8),
    pointers: [bytes.readBigUInt64LE(at + 16), bytes.readBigUInt64LE(at + 24)],
    blockBytes: bytes.readBigUInt64LE(at + 40),
  }))
  const newest = headers[0].iteration >= headers[1].iteration ? headers[0] : headers[1]
  for (const pointer of newest.pointers) {
    if (pointer === WORD) continue
    const block = pointer & BLOCK_ID
    const end = BigInt(HEADERS_BYTES) + (block + 1n) * newest.blockBytes
    if (BigInt(size) < end) return { damage: `the store file is ${size} bytes, without block ${block} that its checkpoint's metadata is read from (truncated)` }
  }
  bytes.copy(verified)
  return { iteration: newest.iteration }
}

/** Follows one open store file's header between writes. */
export class StoreFileHeader {
  #iteration = 0n
  #fd: number | null = null
  #closed = false
  readonly #bytes = Buffer.alloc(HEADERS_BYTES)
  readonly #verified = Buffer.alloc(HEADERS_BYTES)

  constructor(
    private readonly file: string,
    private readonly opened: FileIdentity,
  ) {}

  /**
   * null when the file is sound, else why not; a missing file is for the identity check to tell.
   * Damage, or a newer iteration, counts only when a second read finds the same: a header DuckDB
   * is writing at that moment is not taken for either.
   */
  damage(): string | null {
    let fd: number | null = null
    try {
      fd = this.#descriptor()
      if (fd === null) return null
      const first = readHeader(fd, this.#bytes, this.#verified)
      if (!('damage' in first) && first.iteration === this.#iteration) return null
      const again = readHeader(fd, this.#bytes, this.#verified)
      if ('damage' in again) return again.damage
      if (again.iteration < this.#iteration) return `the store file's checkpoint went back from ${this.#iteration} to ${again.iteration} (an older copy written over it)`
      if ('damage' in first || again.iteration === first.iteration) this.#iteration = again.iteration
      return null
    } catch {
      return null
    } finally {
      if (this.#closed && fd !== null) closeSync(fd)
    }
  }

  /** Closes the descriptor held; a check after it (a shutdown's last writes) opens the file for its reads. */
  close(): void {
    this.#closed = true
    if (this.#fd !== null) closeSync(this.#fd)
    this.#fd = null
  }

  /** The descriptor on the file opened, opened at the path once the file there is that one. */
  #descriptor(): number | null {
    if (this.#fd !== null) return this.#fd
    const fd = openSync(this.file, 'r')
    const { dev, ino } = fstatSync(fd)
    if (sameFile({ dev, ino }, this.opened)) {
      if (!this.#closed) this.#fd = fd
      return fd
    }
    closeSync(fd)
    return null
  }
}
