import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: 'NC',
  name: 'North Carolina',
  fips: '37',
  klass: 'auto',
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_NC*.csv' },
  ],
  combinedBounds: [0, 13750],
  anchors: [
    { feed: 'avalara-zip5', zip: '27601', expected: '0.07250', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_NC202512.csv row 27601 (RALEIGH): combined 0.072500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
