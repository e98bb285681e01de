// The error an unusable setting stops a command with; its message names each variable at fault.
export class SettingsError extends Error {}

/** One SettingsError listing every issue as `  VARIABLE: message`. */
export function settingsError(issues: readonly { path: readonly PropertyKey[]; message: string }[]): SettingsError {
  return new SettingsError(`invalid settings:\n${issues.map((i) => `  ${i.path.map(String).join('.')}: ${i.message}`).join('\n')}`)
}
