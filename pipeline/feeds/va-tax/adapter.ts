// Virginia: Virginia Tax's rate workbook, published under one name and carrying no date.
import { parseVaRateWorkbook } from './workbook.ts'
import { compileVaRates } from './compile.ts'
import { currentFileChoice } from '../../fetch/edition-choice.ts'
import { CURRENT_FILE_RULES, type FeedAdapter } from '../feed-adapter.ts'
import { oneFileAdapter } from '../feed-files.ts'

export const vaTaxAdapter: FeedAdapter<'va-tax'> = oneFileAdapter({
  kind: 'va-tax',
  choose: async (feed) => currentFileChoice('va-tax', feed.url),
  compile: async (context, fetched, rateOn) => {
    const workbook = await parseVaRateWorkbook(fetched.bytes, fetched.name)
    // The workbook carries no date: its rates answer from the day they were fetched.
    const edition = context.settings.now.toISOString().slice(0, 10)
    return compileVaRates({ workbook, stateRate: rateOn(edition), geography: context.geography, edition })
  },
  edition: CURRENT_FILE_RULES,
})
