import { defineState, SST_RATES_URL, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'ND',
  name: 'North Dakota',
  fips: '38',
  klass: 'auto',
  feeds: [
    { kind: 'sst', ratesUrl: SST_RATES_URL },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_ND*.csv' },
    statutoryFloor('North Dakota', 'ND Office of State Tax Commissioner + SST quarterly files'),
  ],
  combinedBounds: [0, 14000],
  anchors: [
    { feed: 'avalara-zip5', zip: '58102', expected: '0.07750', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_ND202512.csv row 58102 (FARGO): combined 0.077500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
