import { defineState, SC_INDEX_PAGE, SC_ST500_URL, SC_ST575_URL, statutoryFloor } from './descriptor.ts'

const PINS = 'publisher-evidence-remaining.md §2.5'

export default defineState({
  code: 'SC',
  name: 'South Carolina',
  fips: '45',
  klass: 'auto',
  feeds: [
    { kind: 'sc-dor', indexUrl: SC_INDEX_PAGE, st500Url: SC_ST500_URL, st575Url: SC_ST575_URL },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_SC*.csv' },
    statutoryFloor('South Carolina', 'SC DOR ST-500 / ST-575'),
  ],
  combinedBounds: [0, 15000],
  anchors: [
    { feed: 'sc-dor', zip: '29526', expected: '0.08000', asOf: '2026-05-01', edition: '2026-05-01', source: `Conway (Horry): 8% (${PINS}: U-61965281112)` },
    { feed: 'sc-dor', zip: '29601', expected: '0.06000', asOf: '2026-05-01', edition: '2026-05-01', source: `Greenville County: 6%, no local tax (${PINS}: OST-sc, ST-500 Rev. 3/9/2026)` },
    { feed: 'sc-dor', zip: '29401', expected: '0.09000', asOf: '2026-05-01', edition: '2026-05-01', source: `Charleston County: 9% (${PINS}: OST-sc, ST-500 Rev. 3/9/2026)` },
    { feed: 'sc-dor', zip: '29556', expected: '0.07000', asOf: '2026-04-30', edition: '2026-05-01', source: `Williamsburg County (Kingstree) before its new CP: 7% (${PINS}: U-66757392427, OST-sc, TAP-d:sc)` },
    { feed: 'sc-dor', zip: '29556', expected: '0.08000', asOf: '2026-05-01', edition: '2026-05-01', source: `Williamsburg County (Kingstree) from 2026-05-01: 8% (${PINS}: U-66757392427, OST-sc, TAP-d:sc)` },
    { feed: 'avalara-zip5', zip: '29201', expected: '0.08000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_SC202512.csv row 29201 (RICHLAND): combined 0.080000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
