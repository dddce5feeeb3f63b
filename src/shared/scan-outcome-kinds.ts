/**
 * The kinds of outcome the scan panel shows (the renderer's `ScanOutcome`, which checks at compile
 * time that this list and its union agree), at run time: the layout test brings about each one.
 */
export const scanOutcomeKinds = ['printed', 'waiting', 'duplicate', 'elsewhere', 'ambiguous', 'failed', 'command-unused'] as const;
export type ScanOutcomeKindName = (typeof scanOutcomeKinds)[number];
