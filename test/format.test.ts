import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ContainerReader, ContainerWriter, dayNumber, FORMAT_VERSION, FormatError, HEADER_SIZE, isoFromDayNumber, StringColumn } from '../snapshot-contract/format.ts'
import { SectionChecks } from '../snapshot-contract/section-checks.ts'

const sample = () =>
  new ContainerWriter('rates')
    .column('a', 'u32', [1, 2, 0xffffffff])
    .column('b', 'i32', [-5, 7])
    .column('c', 'f64', [0.5, Number.NaN])
    .strings('names', ['Fulton', '', 'Añasco'])
    .toBuffer()

describe('index container format', () => {
  it('round-trips columns and strings through typed-array views', () => {
    const bytes = sample()
    const reader = new ContainerReader(bytes, 'rates')
    expect(Array.from(reader.column('a', 'u32'))).toEqual([1, 2, 0xffffffff])
    expect(Array.from(reader.column('b', 'i32'))).toEqual([-5, 7])
    expect(reader.column('c', 'f64')[0]).toBe(0.5)
    const names = reader.strings('names')
    expect([names.get(0), names.get(1), names.get(2)]).toEqual(['Fulton', '', 'Añasco'])
    // a view, not a copy: the column shares the file's memory
    expect(reader.column('a', 'u32').buffer).toBe(bytes.buffer)
  })

  it('writes the same bytes for the same input', () => {
    expect(sample().equals(sample())).toBe(true)
  })

  it('aligns every section to 8 bytes', () => {
    const bytes = sample()
    const count = bytes.readUInt32LE(12)
    for (let i = 0; i < count; i++) expect(bytes.readUInt32LE(HEADER_SIZE + i * 32 + 24) % 8).toBe(0)
  })

  it('refuses an empty file, a wrong magic, a newer version, a wrong kind and a truncated file, each with its own message', () => {
    const good = sample()
    expect(() => new ContainerReader(Buffer.alloc(0), 'rates')).toThrow(/shorter than the 32-byte header/)
    const magic = Buffer.from(good)
    magic.write('PMTILES', 0, 'latin1')
    expect(() => new ContainerReader(magic, 'rates')).toThrow(/magic/)
    const future = Buffer.from(good)
    future.writeUInt8(FORMAT_VERSION + 1, 8)
    expect(() => new ContainerReader(future, 'rates')).toThrow(new RegExp(`format version ${FORMAT_VERSION + 1}`))
    expect(() => new ContainerReader(good, 'places')).toThrow(/kind rates, expected places/)
    const truncated = Buffer.from(good.subarray(0, good.length - 8))
    expect(() => new ContainerReader(truncated, 'rates')).toThrow(FormatError)
  })
})

describe('string columns compared from their bytes', () => {
  const sign = (n: number) => Math.sign(n)
  const decodedOrder = (column: StringColumn, i: number, j: number) => (column.get(i) < column.get(j) ? -1 : column.get(i) > column.get(j) ? 1 : 0)
  const everyPair = (column: StringColumn) => {
    for (let i = 0; i < column.length; i++) {
      for (let j = 0; j < column.length; j++) expect(sign(column.compare(i, j)), `${JSON.stringify(column.get(i))} vs ${JSON.stringify(column.get(j))}`).toBe(decodedOrder(column, i, j))
    }
  }
  const columnOf = (values: Uint8Array[]) => {
    const offsets = new Uint32Array(values.length + 1)
    values.forEach((value, i) => (offsets[i + 1] = offsets[i]! + value.length))
    const bytes = new Uint8Array(offsets[values.length]!)
    values.forEach((value, i) => bytes.set(value, offsets[i]))
    return new StringColumn(offsets, bytes, new TextDecoder())
  }

  it('order strings as < orders the decoded strings: ASCII, accents, characters past U+FFFF and U+E000–U+FFFF, prefixes', () => {
    // U+FFFD sorts after U+1F600 by code point but before it by UTF-16 code unit, as the readers compare
    const names = ['', 'a', 'ab', 'abc', 'b', 'Añasco', 'Anasco', 'A\u{1F600}', 'A\uFFFD', 'A\uE000', 'A\u{10000}', 'z', 'é', 'e\u0301']
    everyPair(new ContainerReader(new ContainerWriter('places').strings('n', names).toBuffer(), 'places').strings('n'))
    const strings = fc.array(fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.string()), { maxLength: 8 })
    fc.assert(fc.property(strings, (values) => everyPair(new ContainerReader(new ContainerWriter('places').strings('n', values).toBuffer(), 'places').strings('n'))), { numRuns: 500 })
  })

  it('and bytes that are not UTF-8 (a truncated sequence, a stray continuation byte) as their decoded replacement characters', () => {
    // 0xC3 alone decodes to U+FFFD, which sorts after "é" (0xC3 0xA9) though its next byte is lower
    everyPair(columnOf([Uint8Array.of(0x61, 0xc3, 0x41), Uint8Array.of(0x61, 0xc3, 0xa9), Uint8Array.of(0x61, 0xc3), Uint8Array.of(0x61, 0x80), Uint8Array.of(0x61)]))
    fc.assert(fc.property(fc.array(fc.uint8Array({ maxLength: 6 }), { maxLength: 6 }), (values) => everyPair(columnOf(values))), { numRuns: 500 })
  })
})

describe('a sorted string column', () => {
  const column = (values: string[]) => new ContainerReader(new ContainerWriter('places').strings('p.key', values).toBuffer(), 'places').strings('p.key')

  it('passes the check when sorted, repeats and non-ASCII names included', () => {
    expect(() => new SectionChecks('places.bin').sortedStrings('p.key', column(['', 'a', 'a', 'añasco', 'b', 'b\u{1F600}', 'b\uFFFD']))).not.toThrow()
  })

  it('is refused at its first row out of order, naming the section, the row and both strings', () => {
    const check = new SectionChecks('places.bin')
    expect(() => check.sortedStrings('p.key', column(['a', 'c', 'b']))).toThrow(new FormatError('places.bin: section p.key row 2: "b" is out of order after "c"'))
    expect(() => check.sortedStrings('p.key', column(['b\uFFFD', 'b\u{1F600}']))).toThrow(/row 1: "b\u{1F600}" is out of order after "b\uFFFD"/u)
  })
})

describe('day numbers', () => {
  it('turn a date into its day number and back, leap days and century years included, whichever date was read before', () => {
    const dates = ['1900-02-28', '1900-03-01', '2000-02-29', '2024-02-29', '2100-03-01', '1969-12-31', '1970-01-01', '2026-11-28']
    // each date read after every other, so a remembered earlier date would show
    for (const before of dates) {
      for (const iso of dates) {
        dayNumber(before)
        expect(isoFromDayNumber(dayNumber(iso))).toBe(iso)
      }
    }
    expect(dayNumber('1970-01-02') - dayNumber('1970-01-01')).toBe(1)
    expect(dayNumber('2025-01-01') - dayNumber('2024-01-01')).toBe(366)
    expect(dayNumber('2101-01-01') - dayNumber('2100-01-01')).toBe(365)
  })
})
