import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'
import { sstReading } from './sst-reading.ts'

export default defineState({
  code: 'OK',
  name: 'Oklahoma',
  fips: '40',
  klass: 'auto',
  feeds: [
    {
      kind: 'sst',
      ratesUrl: SST_RATES_URL,
      reading: sstReading([{ type: '63', codes: '98\\d{3}', read: 'excluded', why: 'composite city+county rates for remote sellers (98193 = Tulsa city 3.65% + Tulsa County 0.367%): adding them counts the local tax twice' }]),
    },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_OK*.csv' },
    statutoryFloor('Oklahoma', 'Oklahoma Tax Commission + SST quarterly files'),
  ],
  combinedBounds: [0, 13500],
  anchors: [
    { feed: 'avalara-zip5', zip: '73102', expected: '0.08625', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_OK202512.csv row 73102 (OKLAHOMA CITY): combined 0.086250 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
