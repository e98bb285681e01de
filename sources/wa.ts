import { defineState, SST_RATES_URL } from './descriptor.ts'

export default defineState({
  code: 'WA',
  name: 'Washington',
  fips: '53',
  klass: 'auto',
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_WA*.csv' },
  ],
  combinedBounds: [0, 15500],
  anchors: [
    { feed: 'avalara-zip5', zip: '98101', expected: '0.10350', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_WA202512.csv row 98101 (SEATTLE): combined 0.103500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
