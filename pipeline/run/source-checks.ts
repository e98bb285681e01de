// What was fetched, compared with what is in service before anything is parsed: an edition older
// than the one served, or a file far larger or smaller than the one it would replace, is refused.
import type { Feed } from '../../sources/descriptor.ts'
import type { StateRecord } from '../../snapshot-contract/manifest.ts'
import { isOlderEdition, sourceRole } from './edition-rules.ts'
import type { StateSources } from './load-state.ts'

/** `feed`: the feed the sources were fetched for; data in service from another feed is not compared with them. */
export function assertSourcesAcceptable(feed: Feed, sources: StateSources, inService: StateRecord | null, sizeJumpLimit: number): void {
  if (!inService?.edition || inService.feed !== feed.kind) return
  const [main] = sources.choices
  if (main && !main.pinned && isOlderEdition(feed.kind, main.edition, inService.edition)) {
    throw new Error(`newest listed edition ${main.edition} (${main.request.fileName}) is older than edition ${inService.edition} in service: not replacing newer data`)
  }
  for (const fetched of sources.fetched) {
    const role = sourceRole(fetched.name)
    const served = inService.sources.find((source) => sourceRole(source.name) === role)
    if (!served || served.size === 0 || fetched.size === 0) continue
    const ratio = Math.max(fetched.size / served.size, served.size / fetched.size)
    if (ratio >= sizeJumpLimit) {
      throw new Error(
        `${fetched.name} is ${fetched.size.toLocaleString('en-US')} bytes, ${ratio.toFixed(1)} times ${fetched.size > served.size ? 'the' : 'less than the'} ` +
          `${served.size.toLocaleString('en-US')} bytes of ${served.name} in service: refused (TAXATLAS_SIZE_JUMP_LIMIT=${sizeJumpLimit})`,
      )
    }
  }
}
