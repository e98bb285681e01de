// SST rate files of Kansas and Arkansas in the shapes of publisher-evidence E7 (and A.4, A.5): the
// 9-column headerless layout of the real GA/MN/WI files, a state row, a county row for every county
// (the files list them all), and rows of the type the state's reading does not decode, type 79 in
// Kansas (alphanumeric codes such as 11KAN, AEATC), type 69 in Arkansas, an expired one among them.
// The rates, dates and Arkansas's codes are the fixture's own.
import { strToU8, zipSync } from 'fflate'

/** A rate row in the real files' layout: `20,79,11KAN,0.0915,0.0915,0.0915,0.0915,20190101,99991231`. */
export const sstRateRow = (fips: string, type: string, code: string, rate: string, from = '20190101', to = '99991231') => [fips, type, code, rate, rate, rate, rate, from, to].join(',')

/** A state row, each of `counties` (3-digit codes) at 1%, and the state's own rows after them. */
const rateFile = (fips: string, stateRate: string, stateFrom: string, counties: string[], rows: string[][]) =>
  `${[sstRateRow(fips, '45', fips, stateRate, stateFrom), ...counties.map((county) => sstRateRow(fips, '00', county, '0.01')), ...rows.map(([type, code, rate, from, to]) => sstRateRow(fips, type!, code!, rate!, from, to))].join('\r\n')}\r\n`

/** The undecoded rows of the Kansas file in force on 2026-11-21, of three: one ended in 2021. */
export const KS_TYPE_79_IN_FORCE = 2

/** Kansas (FIPS 20): state 6.5%, its counties at 1%, Wichita's city tax, and type-79 rows. */
export const ksRateFileE7 = (counties: string[]): string =>
  rateFile('20', '0.065', '20150701', counties, [
    ['01', '79000', '0.01'],
    ['79', '11KAN', '0.0915'],
    ['79', 'AEATC', '0.0865', '20261001'],
    ['79', 'ALIOL', '0.0800', '20190101', '20211231'],
  ])

/** The undecoded rows of the Arkansas file in force on 2026-11-21, of two. */
export const AR_TYPE_69_IN_FORCE = 1

/** Arkansas (FIPS 05): state 6.5%, its counties at 1%, and type-69 special rows. */
export const arRateFileE7 = (counties: string[]): string =>
  rateFile('05', '0.065', '20130701', counties, [
    ['69', '00001', '0.01'],
    ['69', '00002', '0.005', '20150101', '20191231'],
  ])

/** A rate file as a ZIP holding it, as SST posts many (`KSR2026Q4AUG19.zip`). */
export const zipped = (name: string, text: string): Buffer => Buffer.from(zipSync({ [name]: strToU8(text) }))
