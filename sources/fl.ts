import { defineState, FL_SURTAX_PAGE, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'FL',
  name: 'Florida',
  fips: '12',
  klass: 'auto',
  feeds: [
    { kind: 'fl-dor-surtax', pageUrl: FL_SURTAX_PAGE, trial: true },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_FL*.csv' },
    statutoryFloor('Florida', 'Florida DOR Form DR-15DSS (annual, by county) + address/jurisdiction database'),
  ],
  combinedBounds: [0, 15000],
  anchors: [
    { feed: 'fl-dor-surtax', zip: '33401', expected: '0.06500', asOf: '2026-01-01', edition: '2026-01-01', source: 'Palm Beach County (West Palm Beach, 33401): state 6% + discretionary surtax 0.5% in CY2026 (publisher-evidence B, FL row, OST st:fl_data "CY2026 changes: … Palm Beach 0.5%")' },
    { feed: 'fl-dor-surtax', zip: '34102', expected: '0.06000', asOf: '2026-01-01', edition: '2026-01-01', source: 'Collier County (Naples, 34102): state 6%, no discretionary surtax in CY2026 (publisher-evidence B, FL row, OST st:fl_data "CY2026 changes: Collier none")' },
    { feed: 'avalara-zip5', zip: '33131', expected: '0.07000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_FL202512.csv row 33131 (MIAMI): combined 0.070000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
