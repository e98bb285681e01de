import { defineState, TX_EDI_PAGE, TX_RATES_FILE, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'TX',
  name: 'Texas',
  fips: '48',
  klass: 'auto',
  feeds: [
    { kind: 'tx-comptroller', pageUrl: TX_EDI_PAGE, fileUrl: TX_RATES_FILE, trial: true },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_TX*.csv' },
    statutoryFloor('Texas', 'Texas Comptroller (rate locator, quarterly rate files)'),
  ],
  combinedBounds: [0, 15250],
  anchors: [
    { feed: 'avalara-zip5', zip: '77002', expected: '0.08250', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_TX202512.csv row 77002 (HOUSTON): combined 0.082500 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
