// A state's statutes, declared in its descriptor (sources/statute-table.ts): nothing fetched; the
// state's drop, when held, places the ZIPs the geography lacks and is compared with the answers.
import { CURRENT_FILE_RULES, type FeedAdapter } from '../feed-adapter.ts'
import { factsOf, fetchChoice, withUnlistedZips } from '../feed-files.ts'
import { compileStatuteTable } from './compile.ts'

export const statuteTableAdapter: FeedAdapter<'statute-table'> = {
  kind: 'statute-table',
  choose: async () => [],
  fetch: fetchChoice,
  drop: 'supplement',
  compile: async (descriptor, feed, sources, context) =>
    withUnlistedZips(
      compileStatuteTable({ state: descriptor.code, stateName: descriptor.name, facts: factsOf(descriptor), table: feed, geography: context.geography, today: context.settings.now.toISOString().slice(0, 10) }),
      descriptor.code,
      sources,
      context,
    ),
  edition: CURRENT_FILE_RULES,
}
