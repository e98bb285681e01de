import { defineState } from './descriptor.ts'

const EVIDENCE = 'publisher-evidence-remaining.md §8'

export default defineState({
  code: 'PR',
  name: 'Puerto Rico',
  fips: '72',
  klass: 'static',
  feeds: [
    {
      kind: 'statute-table',
      verifiedOn: '2026-12-01',
      // The steps before 2015-07-01 are unconfirmed (IVU-wiki, CASETEXT): earlier dates are not answered from the table.
      coverageFrom: '2015-07-01',
      levies: [
        { everyCounty: true, name: 'every municipio', tax: 'municipal IVU', rate: '0.01000', from: '2015-07-01', to: null, citation: `Act 72-2015, uniform in all 78 municipios and administered centrally; rules table PR row (statewide base 11.5%); ${EVIDENCE} (PR-TTR, OST-pr)` },
      ],
    },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_PR*.csv' },
  ],
  combinedBounds: [0, 20500],
  anchors: [
    { feed: 'statute-table', zip: '00901', expected: '0.11500', asOf: '2026-12-01', edition: '2026-12-01', source: `San Juan: IVU 10.5% + municipal 1% (${EVIDENCE} pins)` },
    { feed: 'statute-table', zip: '00680', expected: '0.11500', asOf: '2026-12-01', edition: '2026-12-01', source: `Mayagüez: IVU 10.5% + municipal 1% (${EVIDENCE} pins)` },
    { feed: 'avalara-zip5', zip: '00901', expected: '0.11500', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_PR202512.csv row 00901 (SAN JUAN CO): combined 0.115000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
