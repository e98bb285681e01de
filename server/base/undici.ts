// undici on first use: it is the largest dependency of the bundled server and only outgoing
// requests need it (webhook deliveries, the census geocoder), so the bundle keeps it in a chunk of
// its own that start-up never loads (docs/architecture.md "Start-up").
export type Undici = typeof import('undici')

let loading: Promise<Undici> | null = null

export function loadUndici(): Promise<Undici> {
  return (loading ??= import('undici'))
}
