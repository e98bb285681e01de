import { defineState } from './descriptor.ts'

const EVIDENCE = 'publisher-evidence-remaining.md §4'

export default defineState({
  code: 'PA',
  name: 'Pennsylvania',
  fips: '42',
  klass: 'static',
  feeds: [
    {
      kind: 'statute-table',
      verifiedOn: '2026-12-01',
      levies: [
        // Start date unconfirmed (the evidence gives none): open before the table's dates.
        { county: '42003', name: 'Allegheny County', tax: 'Allegheny County local sales tax (Regional Asset District)', rate: '0.01000', from: null, to: null, citation: `72 P.S. §7202(a) per OST pa_data; PA DOR answer 209 ("a 1 percent local tax is added to purchases made in Allegheny County"); rules table PA row; ${EVIDENCE}.1 (OST-pa, PA-209, PA-brew)` },
        { county: '42101', name: 'Philadelphia', tax: 'Philadelphia local sales tax', rate: '0.01000', from: null, to: '2009-10-07', citation: `raised from 1% to 2% on 2009-10-08; ${EVIDENCE}.1 (OST-pa, PAI)` },
        { county: '42101', name: 'Philadelphia', tax: 'Philadelphia local sales tax', rate: '0.02000', from: '2009-10-08', to: null, citation: `Philadelphia County, coterminous with the city; rules table PA row ("Only Allegheny County (+1%) and Philadelphia (+2%)"); ${EVIDENCE}.1 (OST-pa, PAI, PA-209)` },
      ],
    },
    { kind: 'avalara-zip5', dropPattern: 'TAXRATES_ZIP5_PA*.csv' },
  ],
  combinedBounds: [0, 9000],
  anchors: [
    { feed: 'statute-table', zip: '19102', expected: '0.08000', asOf: '2026-12-01', edition: '2026-12-01', source: `Philadelphia (county 42101): state 6% + Philadelphia 2% (${EVIDENCE}.2 pins)` },
    { feed: 'statute-table', zip: '15222', expected: '0.07000', asOf: '2026-12-01', edition: '2026-12-01', source: `Pittsburgh (Allegheny County 42003): state 6% + Allegheny 1% (${EVIDENCE}.2 pins)` },
    { feed: 'statute-table', zip: '17101', expected: '0.06000', asOf: '2026-12-01', edition: '2026-12-01', source: `Harrisburg (Dauphin County 42043): state 6% only (${EVIDENCE}.2 pins)` },
    { feed: 'avalara-zip5', zip: '19103', expected: '0.08000', asOf: '2025-12-01', edition: '202512', source: 'TAXRATES_ZIP5_PA202512.csv row 19103 (PHILADELPHIA): combined 0.080000 (Avalara estimate, a regression pin rather than a primary-source verification)' },
  ],
})
