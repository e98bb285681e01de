// The User-Agent sent to publishers whose firewalls refuse clients that do not present themselves as
// a browser: tax.colorado.gov answers them 403 (publisher-evidence B, CO row), and TaxAP sends one to
// dor.mo.gov (E2) and azdor.gov. Only the requests of those feeds carry it.
export const BROWSER_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'
