import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'
import { sstReading } from './sst-reading.ts'

export default defineState({
  code: 'NC',
  name: 'North Carolina',
  fips: '37',
  klass: 'auto',
  feeds: [
    {
      kind: 'sst',
      ratesUrl: SST_RATES_URL,
      reading: sstReading([{ type: '79', read: 'district', why: 'Public Transportation Tax rows coded 99xxx, which add to the county rate; not bound to ZIPs without the boundary file' }]),
    },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_NC*.csv' },
    statutoryFloor('North Carolina', 'NCDOR + SST quarterly files'),
  ],
  combinedBounds: [0, 13750],
  anchors: [
    { feed: 'avalara-zip5', zip: '27601', expected: '0.07250', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_NC202512.csv row 27601 (RALEIGH): combined 0.072500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
