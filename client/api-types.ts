// Generated from the server's zod schemas by client/codegen/api-types-source.ts: do not edit.
// Regenerate with `npm run build` in client/ (test/client-package.test.ts fails when it is stale).

export type Account = {
  account_id: string
  name: string
  /** trial, starter, growth or enterprise */
  tier: string
  created_at: string
  /** end of the 14-day trial; null on paid tiers */
  trial_ends_at: string | null
  trial_expired: boolean
  /** the id of the key used for this request (never the key) */
  api_key_id: string
  quota: {
    /** the UTC month counted (2026-11), or "trial" for the trial allowance */
    period: string
    /** lookups allowed in the period; null = unlimited */
    limit: number | null
    used: number
    remaining: number | null
    /** start of the next UTC month; null for a trial */
    resets_at: string | null
  }
  rate_limit: {
    /** sustained rate per API key */
    requests_per_second: number
    /** requests allowed at once */
    burst: number
  }
}

export type BackfillReport = {
  format: 'ndjson' | 'json'
  /** rows read (blank NDJSON lines are not rows) */
  received: number
  /** rows stored by this request */
  accepted: number
  /** valid rows already stored (or repeated earlier in the upload); left as stored */
  duplicate: number
  rejected: number
  /** the first 1000 rejected rows */
  rejected_rows: {
    /** NDJSON line number; for a JSON array, the 1-based position */
    line: number
    transaction_id: string | null
    errors: ValidationIssue[]
  }[]
  rejected_rows_truncated: boolean
  /** accepted transaction dates (UTC): 24 months back through today */
  window: {
    from: string
    to: string
  }
  /** first and last date among the valid rows */
  valid_dates: {
    earliest: string
    latest: string
  } | null
}

export type ChangesNotice = {
  /** one of the account's webhook endpoints was disabled: its deliveries stopped */
  type: 'webhook_disabled'
  webhook_id: string
  url: string
  disabled_at: string
  /** why, and how to enable it again */
  message: string
}

export type CreatedWebhook = Webhook & {
  /** the signing secret: shown only here, in this answer */
  secret: string
}

export type FreshnessEnvelope = {
  generated_at: string
  states: {
    code: string
    name: string
    klass: 'auto' | 'reload' | 'static'
    status: 'ok' | 'changed' | 'stale' | 'failed' | 'manual' | 'unknown' | 'anchor_regression' | 'static' | 'maintenance'
    last_refreshed_at: string | null
    effective_through: string | null
    last_fetch: string | null
    source_period: string | null
    rows: number
    /** ZIPs whose new source figure failed validation and was not published (each keeps its previous answer when it had one) */
    withheld_rows: number
    /** rows of the state's file in service left out of every answer: set aside (they do not fit its layout or units) or of a kind whose meaning is not decoded; answers they may concern carry a rows_left_out warning */
    left_out_rows: number
    /** the kind of source file read: sst, cdtfa, idor-ordmache, tx-comptroller, fl-dor-surtax, az-dor-tpt, va-tax, mo-dor, al-dor, co-dor, nm-trd-grt, ak-arsstc, ny-dtf-pub718, sc-dor, la-remote-sellers (official files), avalara-zip5 (an aggregator drop), statutory, statute-table (the rules table) */
    feed: 'sst' | 'cdtfa' | 'idor-ordmache' | 'tx-comptroller' | 'fl-dor-surtax' | 'az-dor-tpt' | 'va-tax' | 'mo-dor' | 'al-dor' | 'co-dor' | 'nm-trd-grt' | 'ak-arsstc' | 'ny-dtf-pub718' | 'sc-dor' | 'la-remote-sellers' | 'avalara-zip5' | 'statutory' | 'statute-table'
    /** official (the revenue department), aggregator (an estimate by Avalara) or statute (no source file) */
    source_kind: 'official' | 'aggregator' | 'statute'
    /** the edition of the data in service, as its publisher names it */
    edition: string | null
    /** why the feed in service is not the state's preferred (official) one; null when it is */
    fallback_reason: string | null
    /** an edition the publisher lists that could not be used on the last refresh: newer than `edition`, or of the preferred feed while a fallback serves. The data of `edition` is served meanwhile, and changes the pending edition announces are not yet in the changes feed; null when none */
    pending_edition: PendingEdition | null
  }[]
  /** this server's refresh schedule; null when it runs no refresh of its own (the operator runs them: a cron line, the GitHub workflow), so no date of the next one is known here */
  refresh_schedule: RefreshSchedule | null
}

export type Health = {
  /** ok (200) or degraded (503): see store and snapshot */
  status: 'ok' | 'degraded'
  /** the snapshot being served */
  snapshot_id: string
  /** when the pipeline built it */
  snapshot_generated_at: string
  /** when this process started serving it */
  snapshot_loaded_at: string
  /** the store this node uses: the embedded DuckDB file, or PostgreSQL shared by all nodes */
  store_engine: 'duckdb' | 'postgres'
  store: StoreHealth
  snapshot: SnapshotHealth
  history: HistoryHealth
  logs: LogsHealth
  webhooks: WebhooksHealth
}

/** the older editions the served snapshot holds for as_of lookups; dates only a left-out edition held are answered as not held. Lookups of the data in service do not depend on them, so this does not make /healthz 503 */
export type HistoryHealth = {
  status: 'ok'
} | {
  status: 'degraded'
  /** what is wrong, for an operator */
  reason: string
  /** when it started */
  since: string
  /** files of the snapshot's older editions failed verification: their editions are left out until a SIGHUP finds them sound */
  problem: 'damaged'
  left_out: {
    /** the file in the snapshot directory, e.g. history-2026-01.bin */
    file: string
    edition: string
    /** the states the edition holds */
    states: string[]
    reason: string
    since: string
  }[]
}

export type LineItem = {
  id: string | null
  quantity: string
  product_identifier: string | null
  description: string | null
  product_tax_code: string | null
  /** decimal string, e.g. "19.99"; negative for a refund */
  unit_price: string
  /** decimal string, e.g. "19.99"; negative for a refund */
  discount: string
  /** decimal string, e.g. "19.99"; negative for a refund */
  sales_tax: string
}

export type LineItemInput = {
  id?: string | number | boolean | null
  /** defaults to 1 */
  quantity?: string | number
  product_identifier?: string | number | boolean | null
  /** at most 255 characters */
  description?: string | number | boolean | null
  product_tax_code?: string | number | boolean | null
  /** a decimal string or number, e.g. "19.99"; at most 4 decimal places */
  unit_price?: string | number
  /** the line discount, total (not per unit) */
  discount?: string | number
  /** a decimal string or number, e.g. "19.99"; at most 4 decimal places */
  sales_tax?: string | number
}

/** whether log lines reach standard output; lookups never wait for them, so this does not make /healthz 503 */
export type LogsHealth = {
  status: 'ok'
  /** log lines dropped since start-up */
  dropped_lines: number
} | {
  status: 'degraded'
  /** what is wrong, for an operator */
  reason: string
  /** when it started */
  since: string
  /** the last write of log lines to standard output failed (a full disk, a file-size limit, a closed pipe); its lines were dropped */
  problem: 'write_failed'
  /** log lines dropped since start-up */
  dropped_lines: number
}

/** Spec 2.2. */
export type LookupMeta = {
  resolved_via: 'static_statewide' | 'zip5' | 'address_locator' | 'place_gazetteer' | 'postal_city' | 'coordinates' | 'census_geocoder' | 'zip4' | 'address_range'
  /** exact: statutory statewide rate, or the binding an SST boundary file gives the ZIP+4 sent; high: official source, one jurisdiction; medium: aggregator estimate or a ZIP whose candidates differ, resolved by weight; low: nearest centroid or county-only answer; none: never on a 200 */
  confidence: 'exact' | 'high' | 'medium' | 'low' | 'none'
  /** latest start date of the rates answered, where the publisher dates its rows (SST); else null */
  effective_date: string | null
  effective_date_basis: 'publisher_effective_date' | 'edition_only' | 'no_published_date'
  /** deprecated: the SST rate file quarter as YYYYQ (20262); null elsewhere */
  period: string | null
  /** the feed the answer comes from: sst, cdtfa, idor-ordmache, tx-comptroller, fl-dor-surtax, az-dor-tpt, va-tax, mo-dor, al-dor, co-dor, nm-trd-grt, ak-arsstc, ny-dtf-pub718, sc-dor, la-remote-sellers (official files), avalara-zip5 (an aggregator drop), statutory, statute-table (the rules table); a fallback says why in the feed_fallback warning */
  feed: 'sst' | 'cdtfa' | 'idor-ordmache' | 'tx-comptroller' | 'fl-dor-surtax' | 'az-dor-tpt' | 'va-tax' | 'mo-dor' | 'al-dor' | 'co-dor' | 'nm-trd-grt' | 'ak-arsstc' | 'ny-dtf-pub718' | 'sc-dor' | 'la-remote-sellers' | 'avalara-zip5' | 'statutory' | 'statute-table'
  warnings: LookupWarning[]
  normalization?: Normalization
}

export type LookupWarning = string | {
  code: 'aggregator_estimate' | 'feed_fallback' | 'rate_varies_by_address' | 'local_tax_not_included' | 'rows_left_out' | 'unplaced_jurisdictions' | 'state_data_status' | 'ambiguous_zip5' | 'sub_zip_district' | 'neighbour_region' | 'place_input_mismatch' | 'place_name_ambiguous' | 'postal_city' | 'county_only' | 'place_without_zip' | 'nearest_zip' | 'zip4_not_used' | 'zip4_not_covered' | 'zip4_ambiguous' | 'zip4_unrated_district' | 'address_ambiguous' | 'address_unrated_district' | 'zip_answer_carried_over' | 'zip_figure_rejected' | 'zip_placed_by_region_name' | 'zip_placed_by_prefix' | 'zip_not_known' | 'date_after_data' | 'data_not_yet_effective' | 'earlier_snapshot' | 'earlier_edition' | 'statutory_rate_undated' | 'state_from_input' | 'geocoder_no_match' | 'geocoder_place_unmatched'
  message: string
  [field: string]: unknown
}

export type NexusAddressInput = {
  id?: string | number | boolean | null
  country?: string | number | boolean | null
  zip?: string | number | null
  state?: string | number | boolean | null
  city?: string | number | boolean | null
  street?: string | number | boolean | null
}

export type NexusHealth = {
  /** today, UTC */
  as_of: string
  window: {
    from: string
    to: string
    basis: 'rolling_12_months'
  }
  /** the warning band used, e.g. "0.25" */
  band: string
  states: StateNexusHealth[]
  /** the states in the warning band */
  alerts: {
    state: string
    name: string
    status: 'approaching'
    message: string
  }[]
  /** states whose threshold is met but that are not in your registration list */
  exceeded_unregistered: string[]
}

export type NexusRegistrations = {
  regions: {
    state: string
    name: string
    /** YYYY-MM-DD as set; null when not given */
    registered_since: string | null
    updated_at: string
  }[]
}

export type NexusRegistrationsInput = {
  regions: {
    /** 2-letter code or state name */
    state: string
    /** YYYY-MM-DD */
    registered_since?: string | null
  }[]
}

/** Spec 2.3; present only when something was normalized. */
export type Normalization = {
  normalized: true
  applied: {
    rule_id: string
    field: string
    raw: string
    normalized: string
    confidence: 'unambiguous' | 'heuristic'
    detail: {
      [field: string]: unknown
    }
  }[]
}

export type Order = {
  transaction_id: string
  provider: string
  kind: 'order' | 'refund'
  /** the instant, UTC: 2026-05-14T10:20:30.000Z */
  transaction_date: string
  transaction_reference_id: string | null
  to_country: string
  to_zip: string
  to_state: string
  to_city: string | null
  to_street: string | null
  from_country: string | null
  from_zip: string | null
  from_state: string | null
  from_city: string | null
  from_street: string | null
  /** including shipping, excluding sales tax */
  amount: string
  /** decimal string, e.g. "19.99"; negative for a refund */
  shipping: string
  /** decimal string, e.g. "19.99"; negative for a refund */
  sales_tax: string
  customer_id: string | null
  exemption_type: string | null
  marketplace: boolean
  line_items: LineItem[] | null
  source: 'api' | 'backfill' | 'taxjar'
  created_at: string
  updated_at: string
}

/** Tax for an order. Money as decimal strings, rates as 5-decimal strings. */
export type OrderTax = {
  /** amount plus shipping */
  order_total_amount: string
  /** the items after discounts */
  amount: string
  /** dollars as a decimal string, e.g. "16.50" */
  shipping: string
  /** dollars as a decimal string, e.g. "16.50" */
  taxable_amount: string
  /** the sum of the lines' and the shipping's tax_collectable */
  amount_to_collect: string
  /** the location's combined rate; 0 without nexus or under an exemption */
  rate: string
  has_nexus: boolean
  /** registrations: the registration list plus the from address */
  nexus_basis: 'nexus_addresses' | 'registrations'
  tax_source: ('origin' | 'destination') | null
  sourcing: RatesSourcing | null
  exemption: {
    type: string
    reason: string
  } | null
  freight_taxable: boolean
  shipping_rule: {
    applied: 'proportional' | 'taxable' | 'exempt' | 'unverified'
    /** the rules table's shipping_rule */
    rule: string
  }
  /** where the order is taxed */
  location: {
    zip: string
    state: string
    county: string
    city: string
  }
  rates: {
    state: string
    county: string
    city: string
    district: string
    combined: string
  }
  /** the taxing authorities of the location */
  components: RateRow[]
  /** every line's and the shipping's part, summed per level */
  levels: {
    state: {
      /** dollars as a decimal string, e.g. "16.50" */
      taxable_amount: string
      rate: string
      /** dollars as a decimal string, e.g. "16.50" */
      tax_collectable: string
    }
    county: {
      /** dollars as a decimal string, e.g. "16.50" */
      taxable_amount: string
      rate: string
      /** dollars as a decimal string, e.g. "16.50" */
      tax_collectable: string
    }
    city: {
      /** dollars as a decimal string, e.g. "16.50" */
      taxable_amount: string
      rate: string
      /** dollars as a decimal string, e.g. "16.50" */
      tax_collectable: string
    }
    district: {
      /** dollars as a decimal string, e.g. "16.50" */
      taxable_amount: string
      rate: string
      /** dollars as a decimal string, e.g. "16.50" */
      tax_collectable: string
    }
  }
  /** one per line item sent (none when the order sent only an amount) */
  lines: {
    /** the most taxed at any level */
    taxable_amount: string
    /** the exact tax rounded half up to the cent; the levels add up to it */
    tax_collectable: string
    /** the rates applied, summed over the levels that tax something */
    rate: string
    levels: {
      state: {
        /** dollars as a decimal string, e.g. "16.50" */
        taxable_amount: string
        rate: string
        /** dollars as a decimal string, e.g. "16.50" */
        tax_collectable: string
      }
      county: {
        /** dollars as a decimal string, e.g. "16.50" */
        taxable_amount: string
        rate: string
        /** dollars as a decimal string, e.g. "16.50" */
        tax_collectable: string
      }
      city: {
        /** dollars as a decimal string, e.g. "16.50" */
        taxable_amount: string
        rate: string
        /** dollars as a decimal string, e.g. "16.50" */
        tax_collectable: string
      }
      /** special districts, summed */
      district: {
        /** dollars as a decimal string, e.g. "16.50" */
        taxable_amount: string
        rate: string
        /** dollars as a decimal string, e.g. "16.50" */
        tax_collectable: string
      }
    }
    id: string | null
    quantity: number
    /** dollars as a decimal string, e.g. "16.50" */
    unit_price: string
    /** dollars as a decimal string, e.g. "16.50" */
    discount: string
    product_tax_code: string | null
    /** the category name; null for general goods */
    category: string | null
  }[]
  shipping_tax: {
    /** the most taxed at any level */
    taxable_amount: string
    /** the exact tax rounded half up to the cent; the levels add up to it */
    tax_collectable: string
    /** the rates applied, summed over the levels that tax something */
    rate: string
    levels: {
      state: {
        /** dollars as a decimal string, e.g. "16.50" */
        taxable_amount: string
        rate: string
        /** dollars as a decimal string, e.g. "16.50" */
        tax_collectable: string
      }
      county: {
        /** dollars as a decimal string, e.g. "16.50" */
        taxable_amount: string
        rate: string
        /** dollars as a decimal string, e.g. "16.50" */
        tax_collectable: string
      }
      city: {
        /** dollars as a decimal string, e.g. "16.50" */
        taxable_amount: string
        rate: string
        /** dollars as a decimal string, e.g. "16.50" */
        tax_collectable: string
      }
      /** special districts, summed */
      district: {
        /** dollars as a decimal string, e.g. "16.50" */
        taxable_amount: string
        rate: string
        /** dollars as a decimal string, e.g. "16.50" */
        tax_collectable: string
      }
    }
  }
  confidence: 'exact' | 'high' | 'medium' | 'low' | 'none'
  resolved_via: 'static_statewide' | 'zip5' | 'address_locator' | 'place_gazetteer' | 'postal_city' | 'coordinates' | 'census_geocoder' | 'zip4' | 'address_range'
  effective_date: string | null
  effective_date_basis: 'publisher_effective_date' | 'edition_only' | 'no_published_date'
  warnings: (LookupWarning | {
    code: string
    message: string
  })[]
}

export type OrderTaxInput = {
  /** US; an address outside the US is not a seller location for sourcing */
  from_country?: string | number | boolean | null
  from_zip?: string | number | null
  from_state?: string | number | boolean | null
  from_city?: string | number | boolean | null
  from_street?: string | number | boolean | null
  /** US (default); other countries are refused */
  to_country?: string | number | boolean | null
  /** required: 5 digits or ZIP+4 */
  to_zip?: string | number
  /** required: 2-letter code or state name */
  to_state?: string | number | boolean | null
  to_city?: string | number | boolean | null
  to_street?: string | number | boolean | null
  /** the order total excluding shipping; with line_items, their total after (or before) discounts */
  amount?: string | number
  /** required: the shipping charge, stated separately */
  shipping?: string | number
  /** a customer of /taxjar/v2/customers: its exemption applies */
  customer_id?: string | number | boolean | null
  /** wholesale, government, marketplace, other (no tax) or non_exempt (taxed even for an exempt customer) */
  exemption_type?: string | number | boolean | null
  /** the seller's nexus locations; when sent they replace the registration list */
  nexus_addresses?: NexusAddressInput[] | null
  line_items?: TaxLineItemInput[] | null
  /** sent by platform plugins (woo, magento); ignored */
  plugin?: string | number | boolean | null
}

export type PendingEdition = {
  /** the edition as its publisher names it */
  edition: string
  /** the feed that lists it */
  feed: 'sst' | 'cdtfa' | 'idor-ordmache' | 'tx-comptroller' | 'fl-dor-surtax' | 'az-dor-tpt' | 'va-tax' | 'mo-dor' | 'al-dor' | 'co-dor' | 'nm-trd-grt' | 'ak-arsstc' | 'ny-dtf-pub718' | 'sc-dor' | 'la-remote-sellers' | 'avalara-zip5' | 'statutory' | 'statute-table'
  /** failed: it could not be fetched, read or checked; anchor_regression: its rates broke a known-good anchor */
  outcome: 'failed' | 'anchor_regression'
  /** what went wrong, as the refresh recorded it */
  reason: string
}

/** Spec 2.1. Every rate is a string with exactly 5 decimals. */
export type Rate = {
  /** the 5-digit ZIP answered */
  zip: string
  /** 2-letter upper-case state code */
  state: string
  /** state level; in CA the statewide 7.25% (6% state + 1.25% uniform local) */
  state_rate: string
  /** upper-case county name; "" when unknown */
  county: string
  county_rate: string
  /** upper-case taxing place name; "" when unincorporated or no place is modelled */
  city: string
  city_rate: string
  /** sum of special-district rates; in CA every district tax above the statewide 7.25% */
  combined_district_rate: string
  /** exactly state_rate + county_rate + city_rate + combined_district_rate */
  combined_rate: string
  /** from the state's rules: delivery charges follow the goods */
  freight_taxable: boolean
  country: 'US'
  /** always 0.00000 */
  country_rate: string
}

export type RateChange = {
  /** 2-letter code */
  state: string
  jurisdiction: {
    level: 'state' | 'county' | 'city' | 'district'
    /** the source's code for the jurisdiction */
    code: string
    /** as the source names it; null when the source gives no name */
    name: string | null
  }
  /** starts: no rate before (old_rate null); ends: no rate from the effective date on (new_rate null) */
  kind: 'rate_change' | 'starts' | 'ends'
  /** 5-decimal fraction in force the day before; null when the jurisdiction starts */
  old_rate: string | null
  /** 5-decimal fraction in force from the effective date; null when the jurisdiction ends */
  new_rate: string | null
  /** YYYY-MM-DD, the first day of the new rate */
  effective: string
  /** the effective date is after today (UTC) */
  upcoming: boolean
  /** ZIPs with a candidate jurisdiction stack that includes it */
  zip_count: number
  /** those ZIPs, in order; with include=zips */
  zips?: string[]
  source: {
    /** the source file whose rows announced the new rate */
    file: string
    /** where it was fetched, when that is a web address */
    url: string | null
    /** its edition as the publisher names it, when known */
    edition: string | null
  }
  first_seen: {
    /** the earliest snapshot whose data for the state held the change */
    snapshot: string
    /** when that snapshot was generated, if known */
    published_at: string | null
    /** false when that snapshot is the oldest held with data of the state: an earlier one no longer held may have seen it first */
    exact: boolean
  }
  /** the account's exposure: with impact=true, and in every rate_changes.announced delivery */
  impact?: RateChangeImpact
}

export type RateChangeImpact = {
  /** the 90 days of transactions counted, by transaction date (UTC), ending today */
  window: {
    from: string
    to: string
  }
  /** the account's orders and refunds of those days placed in the jurisdiction (as a return places them: the destination ZIP with the city sent, or the seller's ZIP for an origin-sourced sale) */
  transactions: number
  /** their sales less refunds */
  gross_sales: string
  /** what the jurisdiction's level taxes of them (exemptions, exempt products and the state's freight rule applied) */
  taxable_sales: string
  /** taxable_sales × (new_rate − old_rate), rounded to the cent: the tax the new rate would have added (negative: taken off) on those sales */
  tax_difference: string
  /** what of it rests on a ZIP's default candidate: the ZIP spans several jurisdictions and the city sent named none of them */
  default_choice: {
    transactions: number
    /** exact decimal string, e.g. "1234.50"; negative where refunds exceed sales */
    gross_sales: string
  }
  /** transactions in ZIPs the change touches that were placed outside the jurisdiction (another candidate of the ZIP): not counted above, and in it if the place was wrong */
  other_candidates: {
    transactions: number
    /** exact decimal string, e.g. "1234.50"; negative where refunds exceed sales */
    gross_sales: string
  }
}

export type RateChanges = {
  /** the snapshot in service that answered */
  snapshot: string
  /** the states listed */
  states: string[]
  /** query: the states parameter; nexus: the account's registration list; all: every state the snapshot holds */
  states_from: 'query' | 'nexus' | 'all'
  /** YYYY-MM-DD (UTC), the day `upcoming` is counted from */
  today: string
  changes: RateChange[]
  /** pass as cursor for the next page; null on the last page */
  next_cursor: string | null
  /** what the account must know about its subscriptions to these changes: each webhook endpoint disabled */
  notices: ChangesNotice[]
}

export type RateRow = {
  level: 'state' | 'county' | 'city' | 'district'
  name: string
  /** the source's code for the authority */
  code: string
  rate: string
  effective_from: string | null
  effective_to: string | null
  /** file (or statute label) the rate was read from */
  source_file: string
  source_kind: 'official' | 'aggregator' | 'statute'
}

export type RatesSourcing = {
  /** origin: the seller's location was answered (an in-state sale in an origin-sourcing state) */
  applied: 'destination' | 'origin'
  /** the destination state's intrastate sourcing rule */
  rule: ('origin' | 'destination' | 'mixed' | 'n/a') | null
  reason: string
}

export type RefreshSchedule = {
  /** the cron expression of this server's own refresh runs (TAXATLAS_REFRESH_SCHEDULE), in UTC; "0 3 * * 0" is every Sunday at 03:00 */
  cron: string
  /** when the next run starts, ISO 8601 UTC */
  next_run_at: string | null
}

/** the sales left untaxed, by why: the exemption_type wholesale, government or other (the transaction's, else its exempt customer's), marketplace (sold through a marketplace facilitator), shipping (the state does not tax a separately stated charge), products (line items whose product category the state exempts), local_item_cap (the part of an item above a cap on local taxes) */
export type ReturnExemptSales = {
  /** exact decimal string, e.g. "1234.50" (2 to 4 decimals); negative where refunds exceed sales */
  wholesale: string
  /** exact decimal string, e.g. "1234.50" (2 to 4 decimals); negative where refunds exceed sales */
  government: string
  /** exact decimal string, e.g. "1234.50" (2 to 4 decimals); negative where refunds exceed sales */
  other: string
  /** exact decimal string, e.g. "1234.50" (2 to 4 decimals); negative where refunds exceed sales */
  marketplace: string
  /** exact decimal string, e.g. "1234.50" (2 to 4 decimals); negative where refunds exceed sales */
  shipping: string
  /** exact decimal string, e.g. "1234.50" (2 to 4 decimals); negative where refunds exceed sales */
  products: string
  /** exact decimal string, e.g. "1234.50" (2 to 4 decimals); negative where refunds exceed sales */
  local_item_cap: string
}

export type ReturnNotice = {
  /** rates_not_held, aggregator_rates, product_code_not_applied, shipping_rule_unverified, mixed_sourcing, or a lookup warning code about the places */
  code: string
  message: string
  /** the transactions it concerns, when counted */
  transactions: number | null
}

export type ReturnRow = {
  jurisdiction: {
    level: 'state' | 'county' | 'city' | 'district'
    /** the source's code for the jurisdiction (as GET /v1/changes names it) */
    code: string
    name: string | null
  }
  /** the code the state's return names the jurisdiction by, where the source gives it; null where it does not */
  filing_code: {
    code: string
    /** the code system, e.g. "SST jurisdiction code", "IDOR location code" */
    system: string
  } | null
  /** 5-decimal fraction: the rate in force (a rate that changed within the period, or a reduced rate, is a row of its own) */
  rate: string
  /** orders and refunds counted in this row */
  transactions: number
  /** sales less refunds (amount: shipping included, sales tax excluded) */
  gross_sales: string
  exempt_sales: ReturnExemptSales
  /** exact decimal string, e.g. "1234.50" (2 to 4 decimals); negative where refunds exceed sales */
  taxable_sales: string
  /** taxable_sales at this rate, rounded to the cent */
  tax_due: string
  /** the sales tax recorded on the transactions, split between a transaction's rows in proportion to their tax due */
  tax_collected: string
  /** tax_collected less tax_due: above zero collected more than due, below zero less */
  difference: string
  /** what of this row rests on a ZIP's default candidate: the ZIP spans several jurisdictions and the city sent named none of them */
  default_choice: {
    transactions: number
    /** exact decimal string, e.g. "1234.50" (2 to 4 decimals); negative where refunds exceed sales */
    gross_sales: string
  }
}

export type ReturnSource = {
  from: string
  to: string
  /** the snapshot in service, an older edition it holds, an earlier snapshot, or none held (those days' transactions are unassigned) */
  data: 'served' | 'held_edition' | 'earlier_snapshot' | 'none'
  snapshot: string | null
  edition: string | null
  feed: string | null
  source_kind: ('official' | 'aggregator' | 'statute') | null
}

export type ReturnTotals = {
  transactions: number
  /** every transaction of the period, unassigned ones included: the sum of their amounts */
  gross_sales: string
  /** at the state level */
  exempt_sales: ReturnExemptSales
  /** at the state level */
  taxable_sales: string
  /** the sum of the rows' tax_due */
  tax_due: string
  /** every transaction's sales tax as recorded, unassigned ones included */
  tax_collected: string
  /** exact decimal string, e.g. "1234.50" (2 to 4 decimals); negative where refunds exceed sales */
  difference: string
}

export type SalesTaxReturn = {
  state: string
  name: string
  period: {
    from: string
    to: string
  }
  /** the snapshot in service that answered */
  snapshot: string
  /** the state first, then counties, cities and districts, each by code and rate; local jurisdictions at a zero rate are left out */
  rows: ReturnRow[]
  /** transactions no jurisdiction could be given, by reason: counted in the totals, never dropped */
  unassigned: UnassignedReturnRow[]
  totals: ReturnTotals
  /** which rate data answered which days of the period */
  sources: ReturnSource[]
  notices: ReturnNotice[]
}

export type SavedOrder = {
  /** created (201); updated or unchanged (200) for a known transaction */
  result: 'created' | 'updated' | 'unchanged'
  order: Order
}

export type SnapshotHealth = {
  status: 'ok'
} | {
  status: 'degraded'
  /** what is wrong, for an operator */
  reason: string
  /** when it started */
  since: string
  /** fallback: an earlier snapshot serves since start-up; current_refused / current_missing: CURRENT names no valid snapshot; damaged_on_disk: the served files changed on disk */
  problem: 'fallback' | 'current_refused' | 'current_missing' | 'damaged_on_disk'
}

export type StateNexusHealth = {
  state: string
  name: string
  /** counted orders minus counted refunds in the window */
  order_total: string
  /** counted orders in the window (refunds do not add) */
  transaction_count: number
  /** what the state's rule leaves out (exempt or marketplace sales), net of refunds */
  not_counted_total: string
  not_counted_count: number
  dollar_threshold: string | null
  transaction_threshold: number | null
  threshold_combination: 'sales_only' | 'sales_or_transactions' | 'sales_and_transactions' | 'none'
  /** the state's own look-back, as recorded (the totals here are always the rolling 12 months) */
  measurement_period: string
  /** which sales the state counts, as recorded */
  sales_counted: string
  /** whether marketplace-facilitated sales count, as recorded */
  marketplace_sales_counted: string
  counting: {
    exempt_sales: 'counted' | 'resale_excluded' | 'excluded'
    marketplace_sales: 'counted' | 'excluded'
  }
  /** total and count as fractions of the thresholds (4 decimals, floored) */
  threshold_share: {
    dollars: number | null
    transactions: number | null
  }
  status: 'under_threshold' | 'approaching' | 'exceeded' | 'no_threshold'
  near_threshold: boolean
  /** listed in your registration list (PUT /v1/portability/nexus) */
  registered: boolean
  registered_since: string | null
}

export type StoreHealth = {
  status: 'ok'
} | {
  /** the first attempt at opening it runs; key requests wait for it */
  status: 'opening'
} | {
  status: 'degraded'
  /** what is wrong, for an operator */
  reason: string
  /** when it started */
  since: string
  /** locked/missing/unreadable/unavailable: cannot be opened (retried); file_lost: removed, replaced, truncated or overwritten while open; write_refused: its disk refused the last write; invalidated: DuckDB gave up on it after a failed checkpoint (reopened in place, retried) */
  problem: 'locked' | 'missing' | 'unreadable' | 'unavailable' | 'file_lost' | 'write_refused' | 'invalidated'
}

export type TaxLineItemInput = {
  id?: string | number | boolean | null
  /** a whole number of items; default 1 */
  quantity?: string | number
  /** a code of GET /taxjar/v2/categories; none: general goods */
  product_tax_code?: string | number | boolean | null
  /** required: the price of one item */
  unit_price?: string | number
  /** the line discount, total (not per unit); default 0 */
  discount?: string | number
  /** accepted and ignored (an order line field) */
  product_identifier?: string | number | boolean | null
  /** accepted and ignored (an order line field) */
  description?: string | number | boolean | null
  /** accepted and ignored (an order line field) */
  sales_tax?: string | number
}

/** Spec 2.4 (mode=full). */
export type TaxLookupFull = {
  rate: Rate
  /** as in simple mode; normalization is top-level here */
  meta: {
    resolved_via: 'static_statewide' | 'zip5' | 'address_locator' | 'place_gazetteer' | 'postal_city' | 'coordinates' | 'census_geocoder' | 'zip4' | 'address_range'
    /** exact: statutory statewide rate, or the binding an SST boundary file gives the ZIP+4 sent; high: official source, one jurisdiction; medium: aggregator estimate or a ZIP whose candidates differ, resolved by weight; low: nearest centroid or county-only answer; none: never on a 200 */
    confidence: 'exact' | 'high' | 'medium' | 'low' | 'none'
    /** latest start date of the rates answered, where the publisher dates its rows (SST); else null */
    effective_date: string | null
    effective_date_basis: 'publisher_effective_date' | 'edition_only' | 'no_published_date'
    /** deprecated: the SST rate file quarter as YYYYQ (20262); null elsewhere */
    period: string | null
    /** the feed the answer comes from: sst, cdtfa, idor-ordmache, tx-comptroller, fl-dor-surtax, az-dor-tpt, va-tax, mo-dor, al-dor, co-dor, nm-trd-grt, ak-arsstc, ny-dtf-pub718, sc-dor, la-remote-sellers (official files), avalara-zip5 (an aggregator drop), statutory, statute-table (the rules table); a fallback says why in the feed_fallback warning */
    feed: 'sst' | 'cdtfa' | 'idor-ordmache' | 'tx-comptroller' | 'fl-dor-surtax' | 'az-dor-tpt' | 'va-tax' | 'mo-dor' | 'al-dor' | 'co-dor' | 'nm-trd-grt' | 'ak-arsstc' | 'ny-dtf-pub718' | 'sc-dor' | 'la-remote-sellers' | 'avalara-zip5' | 'statutory' | 'statute-table'
    warnings: LookupWarning[]
  }
  rows: RateRow[]
  resolved_place: {
    zip: string
    /** as sent; read against the state's SST boundary file ranges where it has them (resolved_via zip4), else not used */
    zip4: string | null
    state: string
    county: {
      fips: string
      name: string
    } | null
    city: {
      geoid: string | null
      name: string
    } | null
    /** USPS preferred city of the ZIP */
    usps_city: string
    /** the point sent (coordinates mode) or geocoded (census_geocoder), else the ZIP centroid */
    lat: number | null
    lng: number | null
    resolved_via: 'static_statewide' | 'zip5' | 'address_locator' | 'place_gazetteer' | 'postal_city' | 'coordinates' | 'census_geocoder' | 'zip4' | 'address_range'
  }
  ambiguous_zip5: {
    ambiguous: boolean
    candidates: ZipCandidate[]
  }
  billing: {
    tier: string
    account_id: string
    quota: {
      period: string
      limit: number | null
      /** lookups counted in the period, this one included */
      used: number
      remaining: number | null
    }
    lookup_counted: boolean
  }
  warnings: LookupWarning[]
  normalization?: Normalization
}

export type TaxLookupSimple = {
  rate: Rate
  meta: LookupMeta
}

export type TransactionInput = {
  /** required; letters, digits, _ and - (as TaxJar) */
  transaction_id?: string | number
  /** required; 2026-05-14, 2026/05/14, or an ISO date-time (no offset = UTC) */
  transaction_date?: string
  /** channel, default "api"; amazon, ebay, etsy, facebook and walmart mark marketplace sales */
  provider?: string | number | boolean | null
  /** for a refund: the id of the order refunded */
  transaction_reference_id?: string | number | boolean | null
  /** US (default); other countries are refused */
  to_country?: string | number | boolean | null
  /** required; 5 digits or ZIP+4 */
  to_zip?: string | number
  /** required; 2-letter code or state name */
  to_state?: string | number | boolean | null
  to_city?: string | number | boolean | null
  to_street?: string | number | boolean | null
  from_country?: string | number | boolean | null
  from_zip?: string | number | null
  from_state?: string | number | boolean | null
  from_city?: string | number | boolean | null
  from_street?: string | number | boolean | null
  /** required; order total including shipping, excluding sales tax */
  amount?: string | number
  /** default 0 */
  shipping?: string | number
  /** default 0; must be 0 for wholesale, government and other exemptions */
  sales_tax?: string | number
  customer_id?: string | number | boolean | null
  /** wholesale, government, marketplace, other or non_exempt */
  exemption_type?: string | number | boolean | null
  line_items?: LineItemInput[] | null
  /** default: refund when amount is negative, else order */
  kind?: 'order' | 'refund'
  /** true for a sale made through a marketplace facilitator (also implied by provider or exemption_type) */
  marketplace?: boolean
}

export type UnassignedReturnRow = {
  reason: 'unknown_zip' | 'state_data_missing' | 'rates_not_held' | 'origin_without_from_zip' | 'no_state_rate'
  /** why, for the first transaction met */
  message: string
  transactions: number
  /** exact decimal string, e.g. "1234.50" (2 to 4 decimals); negative where refunds exceed sales */
  gross_sales: string
  /** exact decimal string, e.g. "1234.50" (2 to 4 decimals); negative where refunds exceed sales */
  tax_collected: string
  /** up to 20 of the ZIPs concerned */
  zips: string[]
}

export type ValidationIssue = {
  /** where: ["query", "zip"], ["body", "orders", 0, "amount"] */
  loc: (string | number)[]
  msg: string
  /** the zod issue code, e.g. invalid_type, too_small */
  type: string
  input?: unknown
  ctx?: {
    [field: string]: unknown
  }
}

export type Webhook = {
  id: string
  url: string
  status: 'enabled' | 'disabled'
  created_at: string
  /** the first failed attempt since the last delivered one; null while deliveries succeed */
  failing_since: string | null
  disabled_at: string | null
  /** why taxatlas stopped sending (every attempt failed for the set period) */
  disabled_reason: string | null
  /** after a rotation: until when the replaced secret still signs, beside the current one (a second v1= in Taxatlas-Signature); null when only the current one signs */
  previous_secret_expires_at: string | null
}

export type WebhookAttempt = {
  /** its number, from 1 (Taxatlas-Attempt) */
  attempt: number
  started_at: string
  /** the HTTP status answered; null when none came (timeout, refused connection, an address refused) */
  status: number | null
  /** from the start of the attempt to its answer or failure; null for the one attempt known of a delivery made before attempts were kept */
  duration_ms: number | null
  /** why it failed; null when answered 2xx */
  error: string | null
}

export type WebhookChanges = {
  url?: string
  /** a new secret: every attempt from now on, of pending deliveries too, is signed with it, and with the replaced one (a second v1=) until previous_secret_expires_at */
  secret?: string
  /** with a secret: how long the replaced secret keeps signing beside it, 0 to 168 hours (default: the server's TAXATLAS_WEBHOOK_SECRET_OVERLAP_HOURS, 24); 0 stops it at once (a leaked secret) */
  previous_secret_expires_in_hours?: number
  /** true: enable a disabled endpoint again (deliveries that failed are not sent again; GET /v1/changes?since lists what was missed) */
  enabled?: true
}

export type WebhookDelivery = {
  /** the delivery id, sent as Taxatlas-Delivery and as the body's id on every attempt */
  id: string
  /** the event it carries, the body's event_id: shared by the event's deliveries to each endpoint and by any redelivery */
  event_id: string
  /** rate_changes.announced, or ping for a test delivery (POST /v1/webhooks/{id}/pings) */
  event_type: 'rate_changes.announced' | 'ping'
  /** the delivery this one sent again (POST …/deliveries/{delivery_id}/attempts); null otherwise */
  redelivery_of: string | null
  /** the snapshot whose new changes it carries (for a ping, the one in service when it was asked for) */
  snapshot: string
  /** pending (being tried), delivered (an attempt was answered 2xx; never sent again), failed (the endpoint was disabled before it was delivered; a ping or redelivery whose one attempt failed) */
  status: 'pending' | 'delivered' | 'failed'
  change_count: number
  attempts: number
  created_at: string
  last_attempt_at: string | null
  /** the HTTP status of the last attempt; null when none came (timeout, refused connection) */
  last_status: number | null
  last_error: string | null
  /** when it is tried again; null once delivered or failed */
  next_attempt_at: string | null
  delivered_at: string | null
}

export type WebhookDeliveryDetail = WebhookDelivery & {
  /** every attempt, oldest first */
  attempt_history: WebhookAttempt[]
}

export type WebhookInput = {
  /** https URL on a public address */
  url: string
  /** the key of the HMAC-SHA256 signature in Taxatlas-Signature (16 to 256 characters); generated when omitted */
  secret?: string
}

export type WebhookPing = {
  /** the delivery id (Taxatlas-Delivery) */
  id: string
  /** the ping's event id */
  event_id: string
  type: 'ping'
  /** when the ping was asked for, ISO 8601 UTC */
  created_at: string
  /** the endpoint pinged */
  webhook_id: string
  /** the endpoint's URL as registered */
  url: string
  /** the snapshot in service when the ping was asked for */
  snapshot: string
  message: string
}

export type WebhookRateChanges = {
  /** the delivery id (Taxatlas-Delivery): the same on every attempt of this delivery, so a receiver can drop a repeat */
  id: string
  /** the event's id, shared by its deliveries to each endpoint and by any redelivery of them */
  event_id: string
  type: 'rate_changes.announced'
  /** when the event was made, ISO 8601 UTC */
  created_at: string
  /** the endpoint it was made for */
  webhook_id: string
  /** the snapshot that announced the changes */
  snapshot: string
  /** the snapshot announced before it: the changes were first seen after that one */
  previous_snapshot: string
  /** the changes new in this snapshot, in the account's states, in the order of /v1/changes, each with the account's exposure to it (impact, as /v1/changes?impact=true gives it) */
  changes: RateChange[]
}

/** whether this node's webhook attempts fail for a reason of ours; lookups do not depend on them, so this does not make /healthz 503 */
export type WebhooksHealth = {
  status: 'ok'
  /** webhook attempts failed for a reason of ours since start-up */
  own_failures: number
} | {
  status: 'degraded'
  /** what is wrong, for an operator */
  reason: string
  /** when it started */
  since: string
  /** the last webhook attempt failed for a reason of ours, not the receiver's (the HTTP client could not load, our code threw): not held against the endpoint, tried again */
  problem: 'own_failure'
  /** webhook attempts failed for a reason of ours since start-up */
  own_failures: number
}

export type ZipCandidate = {
  county: string
  county_fips: string | null
  city: string
  city_geoid: string | null
  /** share of the ZIP's addresses, 0..1; where no measured share is held, a ranking (2/3 for the preferred of two) */
  weight: number
  /** why it is a candidate: published (the source's own answer), zip_point / usps_city (the place holding the ZIP's Census point / named by its USPS city), usual_rate (the rate the other ZIPs of the city, or of the county's unincorporated area, agree on), sub_zip_district / neighbour_region (an aggregator row answering part of the ZIP, set aside), aggregator_figure (an official state's ZIP answered by the aggregator drop's combined rate because the official answer is only a lower bound) / lower_bound (that official answer, kept), zip_area (a place holding part of the ZIP's land, weighted by that part), known_layers (the state and county layers of a ZIP whose source figure failed the legal bounds) */
  basis: 'published' | 'zip_point' | 'usps_city' | 'within_zip' | 'usual_rate' | 'sub_zip_district' | 'neighbour_region' | 'aggregator_figure' | 'lower_bound' | 'zip_area' | 'known_layers' | 'boundary_share'
  /** the files (or statute labels) its rates come from */
  source: string
  selected: boolean
  state_rate: string
  county_rate: string
  city_rate: string
  combined_district_rate: string
  combined_rate: string
}
