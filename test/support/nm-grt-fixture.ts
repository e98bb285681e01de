// New Mexico TRD's GRT rates and boundaries download built from its documented layout
// (publisher-evidence B, NM row; docs/data-sources.md#new-mexico): the data-download page linking
// each half-year's RGIS dataset by its title, the dataset's services.json with its downloads, and
// the csv download, a ZIP holding one CSV (header OBJECTID_1, name, county, locat_cdr, locat_cd1,
// locat_cd2, grt_rate, note_key, bndry_ref, SHAPE_Leng, grt_rate2, Shape_Area; total percents;
// codes NN-NNN; a "Remainder of County - X" row per county but Los Alamos) and one XML. The rates,
// codes and county numbers are the fixture's own; the 4.875% state portion is the evidence's.
import { strToU8, zipSync } from 'fflate'

export const NM_HEADER = ['OBJECTID_1', 'name', 'county', 'locat_cdr', 'locat_cd1', 'locat_cd2', 'grt_rate', 'note_key', 'bndry_ref', 'SHAPE_Leng', 'grt_rate2', 'Shape_Area']
export const NM_STATE_PERCENT = '4.875'
/** Each county's remainder total, by county name as the file spells it (the geography writes DeBaca and Dona Ana). */
export const NM_REMAINDER = '6.8125'
export const NM_REMAINDER_OF: Record<string, string> = { Bernalillo: '7.5625', Sandoval: '6.6875' }
/** Municipalities, tribal areas and a city-county, each by its county as the file names it. */
export const NM_LOCATIONS = {
  albuquerque: { name: 'Albuquerque', county: 'Bernalillo', code: '02-100', rate: '7.8125' },
  rioRanchoSandoval: { name: 'Rio Rancho', county: 'Sandoval', code: '29-524', rate: '7.6875' },
  rioRanchoBernalillo: { name: 'Rio Rancho', county: 'Bernalillo', code: '02-524', rate: '7.9375' },
  bernalilloTown: { name: 'Town of Bernalillo', county: 'Sandoval', code: '29-119', rate: '7.9375' },
  lasCruces: { name: 'Las Cruces', county: 'Doña Ana', code: '07-104', rate: '8.3125' },
  losAlamos: { name: 'Los Alamos County', county: 'Los Alamos', code: '32-032', rate: '7.3750' },
  isleta: { name: 'Pueblo of Isleta', county: 'Bernalillo', code: '02-901', rate: '7.0000', tribal: '02-902' },
  nowhere: { name: 'Atlantis', county: 'Santa Fe', code: '01-999', rate: '8.0000' },
} as const

export type NmRow = { name: string; county: string; code: string; rate: string; tribal?: string }

/** The rows of every county of the geography (by its name in the file's spelling) and the locations; Albuquerque in two polygons. */
export function nmGrtRows(countyNames: string[]): NmRow[] {
  const spelled = (name: string) => ({ DeBaca: 'De Baca', 'Dona Ana': 'Doña Ana' })[name] ?? name
  const remainders = countyNames
    .filter((name) => name !== 'Los Alamos')
    .map((name, i) => ({ name: `Remainder of County - ${spelled(name)}`, county: spelled(name), code: `${String(i + 1).padStart(2, '0')}-001`, rate: NM_REMAINDER_OF[name] ?? NM_REMAINDER }))
  const locations = Object.values(NM_LOCATIONS) as NmRow[]
  return [...remainders, ...locations, NM_LOCATIONS.albuquerque]
}

export type NmCsvOptions = { bom?: boolean; header?: string[] }

/** The CSV as the download holds it: CRLF lines, a row per polygon, tribal rows with both codes. */
export function nmGrtCsv(rows: NmRow[], { bom = false, header = NM_HEADER }: NmCsvOptions = {}): string {
  const lines = rows.map((row, i) => {
    const values: Record<string, string> = {
      OBJECTID_1: String(i + 1), name: row.name, county: row.county, locat_cdr: row.tribal ? '' : row.code, locat_cd1: row.tribal ? row.code : '', locat_cd2: row.tribal ?? '',
      grt_rate: row.rate, note_key: '', bndry_ref: `B${i + 1}`, SHAPE_Leng: '0.5123', grt_rate2: row.tribal ? NM_STATE_PERCENT : '0', Shape_Area: '0.0123',
    }
    return header.map((name) => values[name] ?? '').join(',')
  })
  return `${bom ? '\uFEFF' : ''}${[header.join(','), ...lines].join('\r\n')}\r\n`
}

/** The csv download: a ZIP of the CSV and its XML metadata. */
export const nmGrtZip = (csv: string | Buffer, stem = 'grt_rates_boundaries'): Buffer =>
  Buffer.from(zipSync({ [`${stem}.csv`]: typeof csv === 'string' ? strToU8(csv) : csv, [`${stem}.xml`]: strToU8('<?xml version="1.0"?><metadata><idinfo><citation>GRT rates and boundaries</citation></idinfo></metadata>') }))

/** An RGIS dataset's services.json: one download per format, the csv one among them (`csv` null: none offered). */
export const nmServicesJson = (uuid: string, csv: string | null) =>
  JSON.stringify({
    uuid,
    description: 'Gross Receipts Tax Rates and Boundaries',
    downloads: [{ shp: `https://gstore.unm.edu/apps/rgis/datasets/${uuid}/grt.original.zip` }, ...(csv ? [{ csv }] : []), { kml: `https://gstore.unm.edu/apps/rgis/datasets/${uuid}/grt.derived.kml` }],
    services: [{ wms: `https://gstore.unm.edu/apps/rgis/datasets/${uuid}/services/ogc/wms` }],
  })
