// The state rate of the rules table (sources/state-facts.ts): nothing fetched, nothing dropped.
import { compileStatutory, statutoryRates } from './compile.ts'
import { CURRENT_FILE_RULES, type FeedAdapter } from '../feed-adapter.ts'
import { factsOf, fetchChoice } from '../feed-files.ts'

export const statutoryAdapter: FeedAdapter<'statutory'> = {
  kind: 'statutory',
  choose: async () => [],
  fetch: fetchChoice,
  drop: 'none',
  compile: async (descriptor, _feed, _sources, context) =>
    compileStatutory({ state: descriptor.code, stateName: descriptor.name, rates: statutoryRates(factsOf(descriptor)), geography: context.geography }),
  edition: CURRENT_FILE_RULES,
}
