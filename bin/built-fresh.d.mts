/** The CLI built at install time. */
export const builtCli: string;
/** True when the build exists and no source it was built from changed since. */
export function isFresh(): boolean;
