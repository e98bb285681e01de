import { defineState } from './descriptor.ts'

export default defineState({
  code: 'IL',
  name: 'Illinois',
  fips: '17',
  klass: 'reload',
  feed: { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_IL*.csv' },
  combinedBounds: [0, 15250],
  anchors: [
    { zip: '60601', expected: '0.10250', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_IL202512.csv row 60601 (CHICAGO METRO PIER AND EXPOSITION AUTHORITY DISTRICT): combined 0.102500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
