import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'UT',
  name: 'Utah',
  fips: '49',
  klass: 'auto',
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_UT*.csv' },
    statutoryFloor('Utah', 'Utah State Tax Commission + SST quarterly files'),
  ],
  combinedBounds: [0, 15100],
  anchors: [
    { feed: 'avalara-zip5', zip: '84111', expected: '0.08450', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_UT202512.csv row 84111 (SALT LAKE CITY): combined 0.084500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
