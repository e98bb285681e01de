import { describe, expect, it } from 'vitest'
import { ContainerReader, ContainerWriter, dayNumber, FORMAT_VERSION, FormatError, HEADER_SIZE, isoFromDayNumber } from '../snapshot-contract/format.ts'

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
