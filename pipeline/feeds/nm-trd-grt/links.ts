// How New Mexico TRD's GRT rates and boundaries CSV is found (docs/data-sources.md#new-mexico): the
// GIS data-download page links each half-year's dataset by the title "Gross Receipts Tax Rates and
// Boundaries: January 1, YYYY to June 30, YYYY" (or July 1 to December 31; its dates are written in
// other ways too: "July 1 2026", "July 2026", "July 1, 2026 to June 30, 2027") to an RGIS
// `dataset.html?uuid=…` page; the dataset's services.json lists its downloads, whose `csv` entry is a
// ZIP holding the CSV (and its XML metadata). File names are not relied on: the period is read from
// the link title, the file from services.json.
import { htmlTitle } from '../../fetch/body-kind.ts'
import type { PageLink } from '../../fetch/html-links.ts'

export type NmGrtDataset = { uuid: string; from: string; through: string; text: string }

/** The title's subject: the start and end dates beside it vary (publisher-evidence E5). */
const SUBJECT = /\bGross Receipts Tax Rates\b/i
/** The period's start, as TaxAP matches it: "January 1, 2026", "July 1 2026", "July 2026". */
const START = /\b(January|July)\s+(?:1,?\s*)?(\d{4})\b/i
/** Its end where the title gives one: "to June 30, 2026", "to June 30, 2027" (a year rather than a half-year: cadence unconfirmed). */
const END = /\bto\s+(January|February|March|April|May|June|July|August|September|October|November|December)\s+(\d{1,2}),?\s*(\d{4})\b/i
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']

export const rgisServicesUrl = (uuid: string): string => `https://gstore.unm.edu/apps/rgis/datasets/${uuid}/services.json`

/**
 * The datasets the page links by a GRT title, each with its period: from the first of the January or
 * July it names, through the end the title gives (else that half-year's end); a titled link without a
 * dataset uuid is an error.
 */
export function grtDatasetLinks(links: PageLink[], base: string): NmGrtDataset[] {
  return links.flatMap((link) => {
    const start = SUBJECT.test(link.text) ? START.exec(link.text) : null
    if (!start) return []
    const [year, firstHalf] = [start[2]!, /^january/i.test(start[1]!)]
    const from = `${year}-${firstHalf ? '01-01' : '07-01'}`
    const end = END.exec(link.text.slice(start.index + start[0].length))
    const through = end ? `${end[3]}-${String(MONTHS.indexOf(end[1]!.toLowerCase()) + 1).padStart(2, '0')}-${end[2]!.padStart(2, '0')}` : `${year}-${firstHalf ? '06-30' : '12-31'}`
    if (through < from) throw new Error(`"${link.text}" ends before it begins`)
    const uuid = new URL(link.href, base).searchParams.get('uuid')
    if (!uuid || !/^[0-9a-f-]{8,}$/i.test(uuid)) throw new Error(`"${link.text}" links ${link.href}, not an RGIS dataset.html?uuid=… page`)
    return [{ uuid, from, through, text: link.text }]
  })
}

/** The `csv` download services.json lists (resolved against its address); anything else is an error naming what came instead. */
export function csvDownloadOf(body: string, servicesUrl: string): string {
  let services: unknown
  try {
    services = JSON.parse(body)
  } catch {
    const title = htmlTitle(Buffer.from(body))
    throw new Error(`${servicesUrl}: not JSON${title !== null ? `, the server answered an HTML page${title ? ` ("${title}")` : ''}` : ''}`)
  }
  const downloads = (services as { downloads?: unknown }).downloads
  if (!Array.isArray(downloads)) throw new Error(`${servicesUrl}: no downloads list: not an RGIS dataset's services.json, or its layout changed`)
  const csv = [...new Set(downloads.flatMap((d) => (d && typeof (d as { csv?: unknown }).csv === 'string' ? [new URL((d as { csv: string }).csv, servicesUrl).href] : [])))]
  const kinds = downloads.flatMap((d) => (d && typeof d === 'object' ? Object.keys(d) : []))
  if (csv.length === 0) throw new Error(`${servicesUrl}: its downloads offer no csv (only ${kinds.join(', ') || 'nothing'})`)
  if (csv.length > 1) throw new Error(`${servicesUrl}: its downloads offer ${csv.length} different csv files (${csv.join(', ')}), not one`)
  return csv[0]!
}
