// An SST file the listing names but the server no longer has (404, or missing from a mirror
// directory) is asked for once more under the other extension: states switch a file between .csv
// and .zip, and the one listing can lag the switch (publisher-evidence.md A.3, loader rules).
import type { EditionChoice } from '../../fetch/edition-choice.ts'
import { FetchError, fetchSource, type FetchedSource } from '../../fetch/fetch-source.ts'
import type { PipelineSettings } from '../../settings.ts'

/** `GAR2026Q2FEB19.csv` → `GAR2026Q2FEB19.zip`, in the letter case of the extension given; null for other names. */
export function otherExtension(name: string): string | null {
  const match = /\.(csv|zip)$/i.exec(name)
  if (!match) return null
  const swapped = match[1].toLowerCase() === 'csv' ? 'zip' : 'csv'
  const other = match[1] === match[1].toUpperCase() ? swapped.toUpperCase() : swapped
  return name.slice(0, match.index + 1) + other
}

/** Fetches an SST choice; on a 404 once more under the other extension, the choice then saying so. */
export async function fetchSstChoice(choice: EditionChoice, settings: PipelineSettings): Promise<{ fetched: FetchedSource; choice: EditionChoice }> {
  try {
    return { fetched: await fetchSource(choice.request, settings), choice }
  } catch (error) {
    const other = otherExtension(choice.request.fileName)
    if (!other || !(error instanceof FetchError && error.notFound)) throw error
    const request = { ...choice.request, fileName: other, officialUrl: choice.request.officialUrl.replace(/[^/]*$/, encodeURIComponent(other)) }
    try {
      const fetched = await fetchSource(request, settings)
      return { fetched, choice: { ...choice, request, how: `${choice.how}; ${choice.request.fileName} is gone (404), fetched as ${other}` } }
    } catch (retryError) {
      throw new Error(`${(error as Error).message}; retried as ${other}: ${(retryError as Error).message}`)
    }
  }
}
