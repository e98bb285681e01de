// How New Mexico TRD's GRT rates and boundaries CSV is found (docs/data-sources.md#new-mexico): the
// GIS data-download page links each half-year's dataset by the title "Gross Receipts Tax Rates and
// Boundaries: January 1, YYYY to June 30, YYYY" (or July 1 to December 31) to an RGIS
// `dataset.html?uuid=…` page; the dataset's services.json lists its downloads, whose `csv` entry is a
// ZIP holding the CSV (and its XML metadata). File names are not relied on: the period is read from
// the link title, the file from services.json.
import { htmlTitle } from '../../fetch/body-kind.ts'
import type { PageLink } from '../../fetch/html-links.ts'

export type NmGrtDataset = { uuid: string; from: string; through: string; text: string }

const TITLE = /^Gross Receipts Tax Rates and Boundaries:\s*(January|July)\s+1,\s*(\d{4})\s+to\s+(June\s+30|December\s+31),\s*(\d{4})$/i
const HALVES = { january: { from: '01-01', through: '06-30', end: /^june/i }, july: { from: '07-01', through: '12-31', end: /^december/i } } as const

export const rgisServicesUrl = (uuid: string): string => `https://gstore.unm.edu/apps/rgis/datasets/${uuid}/services.json`

/** The half-year datasets the page links by title, each with its period; a titled link without a dataset uuid is an error. */
export function grtDatasetLinks(links: PageLink[], base: string): NmGrtDataset[] {
  return links.flatMap((link) => {
    const match = TITLE.exec(link.text)
    if (!match) return []
    const half = HALVES[match[1]!.toLowerCase() as keyof typeof HALVES]
    if (!half.end.test(match[3]!) || match[2] !== match[4]) throw new Error(`"${link.text}" is no half-year of the GRT schedule (January 1 to June 30, or July 1 to December 31, of one year)`)
    const uuid = new URL(link.href, base).searchParams.get('uuid')
    if (!uuid || !/^[0-9a-f-]{8,}$/i.test(uuid)) throw new Error(`"${link.text}" links ${link.href}, not an RGIS dataset.html?uuid=… page`)
    return [{ uuid, from: `${match[2]}-${half.from}`, through: `${match[2]}-${half.through}`, text: link.text }]
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
