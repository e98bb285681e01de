// Illinois: IDOR's machine-readable rate file, one name for the current edition.
import { RULES_TABLE_AS_OF } from '../../../sources/state-facts.ts'
import { compileOrdmache } from './compile.ts'
import { parseOrdmacheFile } from './rate-file.ts'
import { currentFileChoice } from '../../fetch/edition-choice.ts'
import { CURRENT_FILE_RULES, type FeedAdapter } from '../feed-adapter.ts'
import { oneFileAdapter, textOf } from '../feed-files.ts'

export const idorOrdmacheAdapter: FeedAdapter<'idor-ordmache'> = oneFileAdapter({
  kind: 'idor-ordmache',
  choose: async (feed) => currentFileChoice('idor', feed.url),
  compile: (context, fetched, rateOn) =>
    compileOrdmache({ file: parseOrdmacheFile(textOf(fetched), fetched.name), stateRate: rateOn(RULES_TABLE_AS_OF), geography: context.geography }),
  edition: CURRENT_FILE_RULES,
})
