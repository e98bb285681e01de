import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'NJ',
  name: 'New Jersey',
  fips: '34',
  klass: 'auto',
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_NJ*.csv' },
    statutoryFloor('New Jersey', 'NJ Division of Taxation + SST quarterly files'),
  ],
  combinedBounds: [0, 9625],
  anchors: [
    { feed: 'avalara-zip5', zip: '07102', expected: '0.06625', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_NJ202512.csv row 07102 (IRVINGTON): combined 0.066250 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
