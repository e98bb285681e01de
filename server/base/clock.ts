/** Milliseconds since the epoch; injected so tests move time instead of sleeping. */
export type Clock = () => number

export const systemClock: Clock = () => Date.now()

/** `2026-11` for the UTC month the instant falls in (usage is counted per UTC calendar month). */
export const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7)
