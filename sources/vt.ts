import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'
import { sstReading } from './sst-reading.ts'

export default defineState({
  code: 'VT',
  name: 'Vermont',
  fips: '50',
  klass: 'auto',
  feeds: [
    {
      kind: 'sst',
      ratesUrl: SST_RATES_URL,
      reading: sstReading([{ type: '02', read: 'city', why: "the town's 1% local option, typed 02 by one reader and 01 by another (unconfirmed): both read as one local option layer" }]),
    },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_VT*.csv' },
    statutoryFloor('Vermont', 'Vermont Dept. of Taxes + SST quarterly files'),
  ],
  combinedBounds: [0, 15000],
  anchors: [
    { feed: 'avalara-zip5', zip: '05401', expected: '0.07000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_VT202512.csv row 05401 (BURLINGTON): combined 0.070000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
