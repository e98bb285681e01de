import { defineState, AK_RATES_PAGE, statutoryFloor } from './descriptor.ts'

export default defineState({
  code: 'AK',
  name: 'Alaska',
  fips: '02',
  klass: 'auto',
  feeds: [
    { kind: 'ak-arsstc', pageUrl: AK_RATES_PAGE, trial: true },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_AK*.csv' },
    statutoryFloor('Alaska', 'Alaska Remote Seller Sales Tax Commission (ARSSTC) rate table and map for member jurisdictions; non-members publish their own'),
  ],
  combinedBounds: [0, 9000],
  anchors: [
    { feed: 'ak-arsstc', zip: '99901', expected: '0.08000', asOf: '2026-09-01', edition: '2026-09-01', source: 'Ketchikan (99901): Ketchikan Gateway Borough 2.5% + City of Ketchikan 5.5% = 8%, no state tax (publisher-evidence B, AK row: ARSSTC rate sheet, TAP-ak; the 2026-09-01 sheet per TAP-d:ak)' },
    { feed: 'avalara-zip5', zip: '99501', expected: '0.00000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_AK202512.csv row 99501 (ANCHORAGE BOROUGH): combined 0.000000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
