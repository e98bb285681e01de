// The contract of a statute table: the local levies a state's statutes set above its state rate (the
// rules table's, sources/state-facts.ts), declared in its descriptor as data, each row dated and
// citing its source (the shared rules table or the publisher evidence). A levy is bound to a county
// (5-digit FIPS) or an incorporated place (7-digit Census GEOID) of the geography; a local tax whose
// rate no source publishes (an Idaho resort city's) is listed apart and answered without it, as a
// lower bound. A table that carries no local tax at all, in a state that has them, is the state's
// statutory floor: the state rate answered everywhere, saying so (pipeline/feeds/statute-table/).
import * as z from 'zod'

/** 5-decimal fraction, as the API prints rates: '0.00500' is 0.5% */
const Rate = z.string().regex(/^0\.\d{5}$/)
const CountyFips = z.string().regex(/^\d{5}$/)
const PlaceGeoid = z.string().regex(/^\d{7}$/)

const dated = {
  /** the first day the levy is in force (null: before any date the table answers for) */
  from: z.iso.date().nullable(),
  /** the last day (null: no end the statute sets) */
  to: z.iso.date().nullable(),
  /** statute, ordinance or publication, and the source key of the evidence or rules table it was read from */
  citation: z.string().min(1),
}

export const Levy = z
  .object({
    /** a county-wide levy (a Puerto Rico municipio is a county equivalent) */
    county: CountyFips.optional(),
    /** a levy inside an incorporated place, in every county part of it */
    place: PlaceGeoid.optional(),
    /** a levy of every county of the state alike (Puerto Rico's municipal IVU): one jurisdiction per county, named as the county */
    everyCounty: z.literal(true).optional(),
    /** the jurisdiction as answers name it: "Allegheny County", "Jackson" */
    name: z.string().min(1),
    /** what the tax is, as its statute names it */
    tax: z.string().min(1),
    rate: Rate,
    ...dated,
  })
  .refine((levy) => [levy.county, levy.place, levy.everyCounty].filter((area) => area !== undefined).length === 1, 'a levy names one area: a county, a place or every county')
  .refine((levy) => !levy.from || !levy.to || levy.from <= levy.to, 'a levy ends before it starts')
export type Levy = z.infer<typeof Levy>

/** A local tax a statute allows in a place, whose rate and scope no source the service reads publishes. */
export const UnpublishedLocalTax = z.object({
  place: PlaceGeoid,
  name: z.string().min(1),
  tax: z.string().min(1),
  /** who has the rate */
  exactSource: z.string().min(1),
  citation: z.string().min(1),
})
export type UnpublishedLocalTax = z.infer<typeof UnpublishedLocalTax>

/** Local taxes levied across the state that the table does not carry: every answer is the state rate alone, a lower bound. */
export const NotCarried = z.object({
  /** the local taxes left out, as an answer names them */
  what: z.string().min(1),
  /** the publisher of their rates */
  exactSource: z.string().min(1),
})
export type NotCarried = z.infer<typeof NotCarried>

export const StatuteTable = z.object({
  /** the day the table was last checked against its sources: what it vouches for */
  verifiedOn: z.iso.date(),
  levies: z.array(Levy).default([]),
  unpublished: z.array(UnpublishedLocalTax).default([]),
  /** the first day every levy's rate is known (earlier dates are not answered from the table); absent: open */
  coverageFrom: z.iso.date().optional(),
  notCarried: NotCarried.optional(),
})
export type StatuteTable = z.infer<typeof StatuteTable>
