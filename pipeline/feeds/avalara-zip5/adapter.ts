// An operator's Avalara ZIP5 drop (an aggregator estimate): the state's newest file in TAXATLAS_DROPS.
import { compileAvalara } from './compile.ts'
import { parseDrop } from '../manual-drops.ts'
import { CURRENT_FILE_RULES, type FeedAdapter } from '../feed-adapter.ts'
import { fetchChoice, withFiles } from '../feed-files.ts'

export const avalaraZip5Adapter: FeedAdapter<'avalara-zip5'> = {
  kind: 'avalara-zip5',
  // nothing is fetched: the drop is read from TAXATLAS_DROPS
  choose: async () => [],
  fetch: fetchChoice,
  drop: 'data',
  async compile(descriptor, _feed, sources, context) {
    const drop = sources.drop!
    const parsed = parseDrop(drop)
    const result = compileAvalara({ ...parsed, state: descriptor.code, geography: context.geography })
    return withFiles({ ...result, notes: [...parsed.notes, ...result.notes] }, [drop.raw])
  },
  edition: CURRENT_FILE_RULES,
}
