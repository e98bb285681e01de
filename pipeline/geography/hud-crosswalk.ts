// HUD USPS ZIP→county crosswalk: one row per ZIP × county, weights are shares of USPS addresses.
import Papa from 'papaparse'
import { readWorkbookSheets } from '../fetch/workbook-sheets.ts'
import type { GeoZipCounty } from '../../snapshot-contract/geography-model.ts'

/** HUD's code for addresses it could not place in a county. */
export const UNASSIGNED_COUNTY = '99999'

export type HudZip = {
  zip: string
  /** USPS preferred state */
  state: string
  /** USPS preferred city, upper case */
  city: string
  /** largest weight first, unassigned (99999) rows removed */
  counties: GeoZipCounty[]
}

type HudRow = {
  ZIP: string
  COUNTY: string
  USPS_ZIP_PREF_CITY: string
  USPS_ZIP_PREF_STATE: string
  RES_RATIO: string
  TOT_RATIO: string
}

const REQUIRED_COLUMNS = ['ZIP', 'COUNTY', 'USPS_ZIP_PREF_CITY', 'USPS_ZIP_PREF_STATE', 'RES_RATIO', 'TOT_RATIO']

export function parseHudCrosswalk(csvText: string): Map<string, HudZip> {
  const parsed = Papa.parse<HudRow>(csvText, { header: true, skipEmptyLines: true })
  return hudZipsOf(parsed.meta.fields ?? [], parsed.data)
}

/** The crosswalk as HUD publishes it (ZIP_COUNTY_MMYYYY.xlsx): the sheet whose header names the columns. */
export async function parseHudCrosswalkWorkbook(bytes: Buffer): Promise<Map<string, HudZip>> {
  const sheets = await readWorkbookSheets(bytes, 'HUD crosswalk workbook')
  const text = (cell: unknown) => (cell === null || cell === undefined ? '' : String(cell))
  for (const { data } of sheets) {
    const header = (data[0] ?? []).map((cell) => text(cell).trim().toUpperCase())
    if (!REQUIRED_COLUMNS.every((c) => header.includes(c))) continue
    const rows = data.slice(1).map((cells) => Object.fromEntries(header.map((name, i) => [name, text(cells[i])])) as HudRow)
    return hudZipsOf(header, rows)
  }
  throw new Error(`HUD crosswalk workbook has no sheet with the columns ${REQUIRED_COLUMNS.join(', ')}`)
}

function hudZipsOf(fields: string[], rows: HudRow[]): Map<string, HudZip> {
  const missing = REQUIRED_COLUMNS.filter((c) => !fields.includes(c))
  if (missing.length) throw new Error(`HUD crosswalk lacks columns: ${missing.join(', ')}`)

  const zips = new Map<string, HudZip>()
  for (const row of rows) {
    const zip = String(row.ZIP).trim().padStart(5, '0')
    const county = String(row.COUNTY).trim().padStart(5, '0')
    if (!/^\d{5}$/.test(zip) || !/^\d{5}$/.test(county)) throw new Error(`bad HUD row: ${JSON.stringify(row)}`)
    let entry = zips.get(zip)
    if (!entry) {
      entry = { zip, state: row.USPS_ZIP_PREF_STATE.trim(), city: row.USPS_ZIP_PREF_CITY.trim().toUpperCase(), counties: [] }
      zips.set(zip, entry)
    }
    if (county === UNASSIGNED_COUNTY) continue
    entry.counties.push({ fips: county, weight: ratio(row.TOT_RATIO), residentialWeight: ratio(row.RES_RATIO) })
  }
  for (const entry of zips.values()) {
    entry.counties.sort((a, b) => b.weight - a.weight || b.residentialWeight - a.residentialWeight || a.fips.localeCompare(b.fips))
  }
  return zips
}

function ratio(text: string): number {
  const value = Number(text)
  if (!Number.isFinite(value) || value < 0 || value > 1.000001) throw new Error(`bad HUD ratio: ${text}`)
  return value
}

/** HUD names files ZIP_COUNTY_MMYYYY (.xlsx as published, .csv converted); the newest vintage among the names, a CSV before a workbook. */
export function newestHudCrosswalkName(fileNames: string[]): string | undefined {
  const vintage = (name: string) => {
    const m = /^ZIP_COUNTY_(\d{2})(\d{4})\.(csv|xlsx)$/i.exec(name)
    return m ? Number(m[2]) * 100 + Number(m[1]) : -1
  }
  const isCsv = (name: string) => (/\.csv$/i.test(name) ? 0 : 1)
  return fileNames.filter((n) => vintage(n) >= 0).sort((a, b) => vintage(b) - vintage(a) || isCsv(a) - isCsv(b))[0]
}
