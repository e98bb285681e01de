// HTML pages shaped like the ones the publishers serve (../shared/docs/publisher-evidence.md):
// the SST host's IIS directory listing (A.2), www2.census.gov's Apache "Index of" table (D), the
// CDTFA rates page linking its workbook, and the pages Missouri, Colorado and New Mexico link their
// files from by text (B).

export type ListedFile = { name: string; size: number; modified: Date }

/**
 * IIS directory browsing as captured on www.streamlinedsalestax.org: title and H1 "<host> - <dir>",
 * one `<pre>` line, the parent link, then root-relative uppercase `A HREF`s in alphabetical order,
 * no dates or sizes.
 */
export function iisListingHtml(host: string, dir: string, names: readonly string[]): string {
  const parent = dir.replace(/[^/]+\/$/, '')
  const title = `${host} - ${dir}`
  const entries = [...names]
    .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()))
    .map((name) => `<A HREF="${dir}${name}">${name}</A><br>`)
    .join('')
  return `<html><head><title>${title}</title></head><body><H1>${title}</H1><hr>\r\n\r\n<pre><A HREF="${parent}">[To Parent Directory]</A><br><br>${entries}</pre><hr></body></html>\r\n`
}

/** Apache mod_autoindex's fancy table as www2.census.gov serves it: relative hrefs, date and human size cells. */
export function apacheIndexHtml(dir: string, files: readonly ListedFile[]): string {
  const title = `Index of ${dir.replace(/\/$/, '') || '/'}`
  const parent = dir.replace(/[^/]+\/$/, '')
  const rows = [...files]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(
      (file) =>
        `<tr><td valign="top"><img src="/icons/${/\.zip$/i.test(file.name) ? 'compressed' : 'text'}.gif" alt="[   ]"></td><td><a href="${encodeURIComponent(file.name)}">${file.name}</a></td><td align="right">${apacheDate(file.modified)}  </td><td align="right">${humanSize(file.size)}</td><td>&nbsp;</td></tr>`,
    )
  return [
    '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN">',
    '<html>',
    ' <head>',
    `  <title>${title}</title>`,
    ' </head>',
    ' <body>',
    `<h1>${title}</h1>`,
    '  <table>',
    '   <tr><th valign="top"><img src="/icons/blank.gif" alt="[ICO]"></th><th><a href="?C=N;O=D">Name</a></th><th><a href="?C=M;O=A">Last modified</a></th><th><a href="?C=S;O=A">Size</a></th><th><a href="?C=D;O=A">Description</a></th></tr>',
    '   <tr><th colspan="5"><hr></th></tr>',
    `<tr><td valign="top"><img src="/icons/back.gif" alt="[PARENTDIR]"></td><td><a href="${parent}">Parent Directory</a></td><td>&nbsp;</td><td align="right">  - </td><td>&nbsp;</td></tr>`,
    ...rows,
    '   <tr><th colspan="5"><hr></th></tr>',
    '</table>',
    '</body></html>',
    '',
  ].join('\n')
}

/** The CDTFA "Sales and Use Tax Rates" page: site navigation, then a link to the current workbook among other documents. */
export function cdtfaRatesPageHtml(workbookHrefs: readonly string[]): string {
  const workbooks = workbookHrefs.map((href) => `<li><a href="${href}">Effective Sales and Use Tax Rates by City and County (Excel)</a></li>`).join('\n')
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>California City &amp; County Sales &amp; Use Tax Rates</title></head>
<body>
<nav><a href="/">Home</a> <a href="/taxes-and-fees/">Taxes and Fees</a> <a href="/formspubs/cdtfa105.pdf">CDTFA-105</a></nav>
<main><h1>California City &amp; County Sales &amp; Use Tax Rates</h1>
<ul>
${workbooks}
<li><a href="/taxes-and-fees/rates.aspx">Rates by address</a></li>
</ul></main>
</body></html>
`
}

/** Missouri DOR's rate-tables landing page: a page per year, linked by its path. */
export const moRateTablesPageHtml = (years: readonly number[]) =>
  `<!DOCTYPE html><html><head><title>Sales/Use Tax Rate Tables</title></head><body><ul>${years.map((y) => `<li><a href="/taxation/business/tax-types/sales-use/rate-tables/${y}/">${y} Rate Tables</a></li>`).join('')}</ul></body></html>`

/** A Missouri year page: each chart linked by its period's text (`10/2026 - 12/2026 - XLS`), its PDF copy beside it. */
export const moYearPageHtml = (charts: readonly [text: string, file: string][]) =>
  `<!DOCTYPE html><html><head><title>2026 Rate Tables</title></head><body>${charts.map(([text, file]) => `<p><a href="/forms/${file}">${text}</a> <a href="/forms/${file.replace(/\.xlsx$/, '.pdf')}">${text.replace('XLS', 'PDF')}</a></p>`).join('')}</body></html>`

/** Colorado DOR's rates page: each DR 1002 workbook linked by the half-year in its text, a PDF beside each. */
export const coRatesPageHtml = (links: readonly [text: string, file: string][]) =>
  `<!DOCTYPE html><html><head><title>How to Look Up Sales &amp; Use Tax Rates | Department of Revenue - Taxation</title></head><body><h2>Sales/Use Tax Rates</h2><ul>${links.map(([text, file]) => `<li><a href="/sites/tax/files/documents/${file}">${text}</a> (<a href="/sites/tax/files/documents/${file.replace(/\.xlsx$/, '.pdf')}">${text} PDF</a>)</li>`).join('')}</ul><a href="/GIS-API">GIS API</a></body></html>`

export type NmDataset = { uuid: string; title: string }

export const nmPeriodTitle = (year: number, half: 1 | 2) =>
  `Gross Receipts Tax Rates and Boundaries: ${half === 1 ? `January 1, ${year} to June 30, ${year}` : `July 1, ${year} to December 31, ${year}`}`

/** New Mexico TRD's GIS data-download page: each half-year's dataset linked by its title to RGIS, among other links. */
export const nmDataDownloadPage = (datasets: NmDataset[]) =>
  `<!DOCTYPE html><html><head><title>Data Download | Taxation and Revenue New Mexico</title></head><body><h1>GIS Data Download</h1><ul>${datasets
    .map((d) => `<li><a href="https://rgis.unm.edu/rgis6/dataset.html?uuid=${d.uuid}">${d.title}</a></li>`)
    .join('')}<li><a href="/governments/gross-receipts-location-code-and-tax-rate-map/">Location code and tax rate map</a></li></ul></body></html>`

function apacheDate(date: Date): string {
  const iso = date.toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`
}

function humanSize(bytes: number): string {
  if (bytes < 1024) return String(bytes)
  const units = ['K', 'M', 'G']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)}${units[unit]}`
}
