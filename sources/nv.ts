import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'
import { sstReading } from './sst-reading.ts'

export default defineState({
  code: 'NV',
  name: 'Nevada',
  fips: '32',
  klass: 'auto',
  feeds: [
    {
      kind: 'sst',
      ratesUrl: SST_RATES_URL,
      reading: sstReading([
        { type: '45', read: 'state', why: 'the state row carries 0%: each county row carries the full combined rate, the state share included' },
        { type: '63', read: 'excluded', why: "Tourism Improvement District rows restate their county's combined rate (and bind only to street ranges): adding one counts the rate twice" },
      ]),
    },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_NV*.csv' },
    statutoryFloor('Nevada', 'Nevada Dept. of Taxation + SST quarterly files'),
  ],
  combinedBounds: [0, 15850],
  anchors: [
    { feed: 'avalara-zip5', zip: '89101', expected: '0.08375', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_NV202512.csv row 89101 (CLARK): combined 0.083750 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
