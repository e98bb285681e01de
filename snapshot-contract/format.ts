// The taxatlas index container, shared by the compiler (writer) and every reader.
//
// All integers are little-endian. Every section starts on an 8-byte boundary so a typed array
// can be laid directly over the file's bytes without copying.
//
//   offset  size  field
//   0       8     magic "TXATLAS\0"
//   8       1     format version (FORMAT_VERSION)
//   9       1     kind (see KIND)
//   10      2     reserved, 0
//   12      4     u32 section count N
//   16      4     u32 total file length in bytes
//   20      12    reserved, 0
//   32      N×32  section directory, one entry per section:
//                   0  16  name, ASCII, NUL-padded
//                   16  1  dtype (see DTYPE)
//                   17  3  reserved, 0
//                   20  4  u32 element count
//                   24  4  u32 byte offset from the start of the file
//                   28  4  u32 byte length
//   …             section payloads, each padded with zeros to a multiple of 8 bytes
//
// A string column is two sections: `<name>.o` (u32 offsets, count + 1) and `<name>.s` (UTF-8 bytes).
//
// Changelog: version 1 — first layout.
//            version 2 — shapes.bin gains its spatial grid (g.* sections); rates.bin and
//            places.bin unchanged. Version 1 files are refused: rebuild the snapshot.
import { endianness } from 'node:os'

export const MAGIC = 'TXATLAS\0'
export const FORMAT_VERSION = 2
export const HEADER_SIZE = 32
export const DIRECTORY_ENTRY_SIZE = 32
const NAME_SIZE = 16

export const KIND = { rates: 1, places: 2, shapes: 3 } as const
export type Kind = keyof typeof KIND

export const DTYPE = { u8: 1, u16: 2, u32: 3, i32: 4, f64: 5 } as const
export type DType = keyof typeof DTYPE

type ArrayOf = {
  u8: Uint8Array
  u16: Uint16Array
  u32: Uint32Array
  i32: Int32Array
  f64: Float64Array
}
const CONSTRUCTORS = {
  u8: Uint8Array,
  u16: Uint16Array,
  u32: Uint32Array,
  i32: Int32Array,
  f64: Float64Array,
} as const

export class FormatError extends Error {}

const align8 = (n: number) => (n + 7) & ~7

// ---------------------------------------------------------------------------------------------
// Writer

type PendingSection = { name: string; dtype: DType; data: ArrayOf[DType] }

export class ContainerWriter {
  readonly #kind: Kind
  readonly #sections: PendingSection[] = []

  constructor(kind: Kind) {
    this.#kind = kind
  }

  column<T extends DType>(name: string, dtype: T, values: ArrayLike<number>): this {
    if (name.length > NAME_SIZE || !/^[\x20-\x7e]+$/.test(name)) {
      throw new FormatError(`section name ${JSON.stringify(name)} must be 1–16 ASCII characters`)
    }
    if (this.#sections.some((section) => section.name === name)) {
      throw new FormatError(`section ${name} written twice`)
    }
    const data = CONSTRUCTORS[dtype].from(values as ArrayLike<number>)
    this.#sections.push({ name, dtype, data })
    return this
  }

  strings(name: string, values: readonly string[]): this {
    const encoder = new TextEncoder()
    const encoded = values.map((value) => encoder.encode(value))
    const offsets = new Uint32Array(values.length + 1)
    for (let i = 0; i < encoded.length; i++) offsets[i + 1] = offsets[i] + encoded[i].length
    const bytes = new Uint8Array(offsets[values.length])
    encoded.forEach((chunk, i) => bytes.set(chunk, offsets[i]))
    return this.column(`${name}.o`, 'u32', offsets).column(`${name}.s`, 'u8', bytes)
  }

  toBuffer(): Buffer {
    const directorySize = this.#sections.length * DIRECTORY_ENTRY_SIZE
    let offset = align8(HEADER_SIZE + directorySize)
    const placed = this.#sections.map((section) => {
      const at = offset
      offset = align8(offset + section.data.byteLength)
      return { ...section, at }
    })
    const total = offset
    if (total > 0xffffffff) throw new FormatError('container larger than 4 GiB')
    const out = Buffer.alloc(total)
    out.write(MAGIC, 0, 'latin1')
    out.writeUInt8(FORMAT_VERSION, 8)
    out.writeUInt8(KIND[this.#kind], 9)
    out.writeUInt32LE(placed.length, 12)
    out.writeUInt32LE(total, 16)
    placed.forEach((section, i) => {
      const entry = HEADER_SIZE + i * DIRECTORY_ENTRY_SIZE
      out.write(section.name, entry, NAME_SIZE, 'latin1')
      out.writeUInt8(DTYPE[section.dtype], entry + 16)
      out.writeUInt32LE(section.data.length, entry + 20)
      out.writeUInt32LE(section.at, entry + 24)
      out.writeUInt32LE(section.data.byteLength, entry + 28)
      writeLittleEndian(out, section.at, section.dtype, section.data)
    })
    return out
  }
}

function writeLittleEndian(out: Buffer, at: number, dtype: DType, data: ArrayOf[DType]) {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength)
  const size = data.BYTES_PER_ELEMENT
  for (let i = 0; i < data.length; i++) {
    const position = at + i * size
    const value = data[i]
    switch (dtype) {
      case 'u8': view.setUint8(position, value); break
      case 'u16': view.setUint16(position, value, true); break
      case 'u32': view.setUint32(position, value, true); break
      case 'i32': view.setInt32(position, value, true); break
      case 'f64': view.setFloat64(position, value, true); break
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Reader: typed-array views over the given bytes, never a copy.

type SectionInfo = { dtype: DType; count: number; offset: number; length: number }

export class ContainerReader {
  readonly kind: Kind
  readonly version: number
  readonly #bytes: Uint8Array
  readonly #label: string
  readonly #sections = new Map<string, SectionInfo>()
  readonly #decoder = new TextDecoder()

  constructor(bytes: Uint8Array, expectedKind: Kind, label = 'artifact') {
    this.#label = label
    if (endianness() !== 'LE') throw new FormatError('taxatlas indexes need a little-endian host')
    if (bytes.byteOffset % 8 !== 0) throw new FormatError(`${label}: buffer is not 8-byte aligned`)
    if (bytes.length < HEADER_SIZE) {
      throw new FormatError(`${label}: ${bytes.length} bytes is shorter than the ${HEADER_SIZE}-byte header`)
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const magic = Buffer.from(bytes.buffer, bytes.byteOffset, 8).toString('latin1')
    if (magic !== MAGIC) throw new FormatError(`${label}: magic ${JSON.stringify(magic)} is not ${JSON.stringify(MAGIC)}`)
    this.version = view.getUint8(8)
    if (this.version !== FORMAT_VERSION) {
      throw new FormatError(`${label}: format version ${this.version}; this build reads version ${FORMAT_VERSION}`)
    }
    const kindCode = view.getUint8(9)
    const kind = (Object.keys(KIND) as Kind[]).find((name) => KIND[name] === kindCode)
    if (kind !== expectedKind) {
      throw new FormatError(`${label}: kind ${kind ?? kindCode}, expected ${expectedKind}`)
    }
    this.kind = kind
    const total = view.getUint32(16, true)
    if (total !== bytes.length) throw new FormatError(`${label}: header says ${total} bytes, file has ${bytes.length}`)
    const count = view.getUint32(12, true)
    if (HEADER_SIZE + count * DIRECTORY_ENTRY_SIZE > bytes.length) {
      throw new FormatError(`${label}: directory of ${count} sections overruns the file`)
    }
    const dtypeNames = Object.keys(DTYPE) as DType[]
    for (let i = 0; i < count; i++) {
      const entry = HEADER_SIZE + i * DIRECTORY_ENTRY_SIZE
      const name = Buffer.from(bytes.buffer, bytes.byteOffset + entry, NAME_SIZE).toString('latin1').replace(/\0+$/, '')
      const dtype = dtypeNames.find((d) => DTYPE[d] === view.getUint8(entry + 16))
      if (!dtype) throw new FormatError(`${label}: section ${name} has unknown dtype ${view.getUint8(entry + 16)}`)
      const info = {
        dtype,
        count: view.getUint32(entry + 20, true),
        offset: view.getUint32(entry + 24, true),
        length: view.getUint32(entry + 28, true),
      }
      if (info.offset % 8 !== 0 || info.offset + info.length > bytes.length ||
          info.length !== info.count * CONSTRUCTORS[dtype].BYTES_PER_ELEMENT) {
        throw new FormatError(`${label}: section ${name} has an invalid extent`)
      }
      this.#sections.set(name, info)
    }
    this.#bytes = bytes
  }

  has(name: string): boolean {
    return this.#sections.has(name)
  }

  column<T extends DType>(name: string, dtype: T): ArrayOf[T] {
    const info = this.#sections.get(name)
    if (!info) throw new FormatError(`section ${name} is missing`)
    if (info.dtype !== dtype) throw new FormatError(`section ${name} is ${info.dtype}, expected ${dtype}`)
    const Ctor = CONSTRUCTORS[dtype] as unknown as new (b: ArrayBufferLike, o: number, n: number) => ArrayOf[T]
    return new Ctor(this.#bytes.buffer, this.#bytes.byteOffset + info.offset, info.count)
  }

  /** A string column, its offsets checked: from 0, never decreasing, within its bytes. */
  strings(name: string): StringColumn {
    const offsets = this.column(`${name}.o`, 'u32')
    const bytes = this.column(`${name}.s`, 'u8')
    const broken = offsets.length === 0 || offsets[0] !== 0 ? 0 : firstBrokenOffset(offsets, bytes.length)
    if (broken !== -1) throw new FormatError(`${this.#label}: section ${name}.o row ${broken}: not an offset into the ${bytes.length} bytes of ${name}.s`)
    return new StringColumn(offsets, bytes, this.#decoder)
  }
}

/** The first row of a string column's offsets past its bytes or below the offset before it, or -1. */
function firstBrokenOffset(offsets: Uint32Array, length: number): number {
  for (let i = 0; i < offsets.length; i++) {
    if (offsets[i] > length || (i > 0 && offsets[i] < offsets[i - 1])) return i
  }
  return -1
}

/**
 * A column of UTF-8 strings. Each is decoded the first time it is asked for and kept: an index is
 * read for as long as its snapshot serves, and a lookup reads the same names (counties, places,
 * authorities, sources) again and again.
 */
export class StringColumn {
  readonly #decoded: (string | undefined)[] = []

  constructor(
    readonly offsets: Uint32Array,
    readonly bytes: Uint8Array,
    readonly decoder: TextDecoder,
  ) {}

  get length(): number {
    return this.offsets.length - 1
  }

  get(index: number): string {
    return (this.#decoded[index] ??= this.decoder.decode(this.bytes.subarray(this.offsets[index], this.offsets[index + 1])))
  }

  /**
   * Negative, zero or positive as string i sorts before, with or after string j by `<` on the decoded
   * strings (UTF-16 code units), read from the bytes while they are ASCII: an index's sorted columns
   * are checked without decoding (and keeping) every string. Past ASCII, bytes need not sort as the
   * decoded strings do (code points beyond U+FFFF, invalid sequences), so both are decoded.
   */
  compare(i: number, j: number): number {
    const { bytes, offsets } = this
    const a = offsets[i], b = offsets[j]
    const aLength = offsets[i + 1] - a, bLength = offsets[j + 1] - b
    for (let k = 0; k < aLength && k < bLength; k++) {
      const x = bytes[a + k], y = bytes[b + k]
      if ((x | y) >= 0x80) {
        const s = this.get(i), t = this.get(j)
        return s < t ? -1 : s > t ? 1 : 0
      }
      if (x !== y) return x - y
    }
    return aLength - bLength
  }
}

/** Open-ended window bounds, stored as days since 1970-01-01 in i32 columns. */
export const OPEN_FROM = -0x80000000
export const OPEN_TO = 0x7fffffff

const DAY_MS = 86_400_000

// The last date turned each way is remembered: every lookup turns today's date, and reads it many times.
const lastRead = { isoDate: '', day: NaN }
const lastWritten = { day: NaN, isoDate: '' }

/** Days since 1970-01-01 of a YYYY-MM-DD date. */
export function dayNumber(isoDate: string): number {
  if (isoDate !== lastRead.isoDate) {
    lastRead.day = Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS
    lastRead.isoDate = isoDate
  }
  return lastRead.day
}

/** YYYY-MM-DD of a day number (years outside 0–9999 in Date's extended form). */
export function isoFromDayNumber(day: number): string {
  if (day !== lastWritten.day) {
    lastWritten.isoDate = new Date(day * DAY_MS).toISOString().slice(0, 10)
    lastWritten.day = day
  }
  return lastWritten.isoDate
}
