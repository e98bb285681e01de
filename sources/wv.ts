import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'WV',
  name: 'West Virginia',
  fips: '54',
  klass: 'auto',
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_WV*.csv' },
    statutoryFloor('West Virginia', 'WV Tax Division municipal list + SST quarterly files'),
  ],
  combinedBounds: [0, 15000],
  anchors: [
    { feed: 'avalara-zip5', zip: '25301', expected: '0.07000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_WV202512.csv row 25301 (CHARLESTON): combined 0.070000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
