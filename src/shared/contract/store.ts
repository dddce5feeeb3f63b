/**
 * Where the station keeps its orders, journal and ledgers: this bench's own file (local) or a
 * warehouse's shared PostgreSQL store, chosen by the IT admin. The password crosses the contract
 * only inbound (set, test) and is never sent back: answers say only whether one is stored.
 */
import { z } from 'zod';
import { defineCall, defineEvent } from './define';

export const StoreTlsModeSchema = z.enum(['disable', 'require', 'verify-full']);
export type StoreTlsMode = z.infer<typeof StoreTlsModeSchema>;

/** postgres://user@host:port/database[?sslmode=…&sslrootcert=…], never with a password in it. */
export const StoreAddressTextSchema = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .refine((text) => /^postgres(ql)?:\/\//i.test(text), { message: 'the store address should start with postgres://', params: { subject: 'store-address-form' } });
export const StorePasswordSchema = z.string().min(1).max(1000);

export const StoreChoiceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local') }).strict(),
  z
    .object({
      kind: z.literal('postgres'),
      address: StoreAddressTextSchema,
      /** Overrides the address's sslmode. */
      tls: StoreTlsModeSchema.optional(),
      /** Kept in the OS keychain under the address; absent: the one already stored for it. */
      password: StorePasswordSchema.optional(),
      /**
       * The lead's explicit choice to send the password to a server whose identity is not checked
       * (sslmode require or disable): without it such an address is refused.
       */
      acceptUnverifiedServer: z.boolean().optional(),
    })
    .strict(),
]);
export type StoreChoice = z.infer<typeof StoreChoiceSchema>;

/** The store setting as the station answers it: the address without password. */
export const StoreSettingSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local') }),
  z.object({
    kind: z.literal('postgres'),
    address: z.string(),
    host: z.string(),
    port: z.number().int(),
    database: z.string(),
    user: z.string(),
    tls: StoreTlsModeSchema,
    caFile: z.string().nullable(),
    passwordStored: z.boolean(),
    /** The lead chose to send the password to this server without checking its identity (sslmode require or disable). */
    unverifiedServerAccepted: z.boolean(),
  }),
]);
export type StoreSetting = z.infer<typeof StoreSettingSchema>;

/** Why the shared store is out of reach, for the screen to word. */
export const StoreProblemSchema = z.enum(['unreachable', 'password', 'tls', 'no-password', 'schema', 'certificate', 'unverified', 'other']);
export type StoreProblem = z.infer<typeof StoreProblemSchema>;

/**
 * A lead's permission for this bench to print scans while the shared store is offline, journalling
 * into the bench's own file (merged back when the store returns). `ending`: the store is back and
 * the bench's local labels are being merged; nothing new prints until that is done.
 */
export const LocalPrintingSchema = z.object({
  reason: z.string(),
  allowedBy: z.string(),
  since: z.string(),
  ending: z.boolean(),
});
export type LocalPrintingData = z.infer<typeof LocalPrintingSchema>;

/** local: this bench's file, always there; online/offline: the shared store answers or not. */
export const StoreHealthSchema = z.object({
  state: z.enum(['local', 'online', 'offline']),
  /** When the current state began (ISO time); null for local. */
  since: z.string().nullable(),
  problem: StoreProblemSchema.nullable(),
  /** Set while a lead allowed local-only printing on this bench (only ever while offline, or merging after). */
  localPrinting: LocalPrintingSchema.nullable(),
});
export type StoreHealthData = z.infer<typeof StoreHealthSchema>;

export const StoreStatusSchema = z.object({
  chosen: StoreSettingSchema,
  /** What this run of the station uses: a new choice applies at the next start. */
  inUse: z.object({ kind: z.enum(['local', 'postgres']), address: z.string().nullable() }),
  restartNeeded: z.boolean(),
  health: StoreHealthSchema,
});
export type StoreStatus = z.infer<typeof StoreStatusSchema>;

export const StoreTestSchema = z
  .object({ address: StoreAddressTextSchema, tls: StoreTlsModeSchema.optional(), password: StorePasswordSchema.optional(), acceptUnverifiedServer: z.boolean().optional() })
  .strict();
export type StoreTest = z.infer<typeof StoreTestSchema>;

export const StoreTestResultSchema = z.object({
  server: z.string(),
  /** The newest migration applied in that store; 0 for a fresh database (the first bench to start sets it up). */
  schemaVersion: z.number().int().nonnegative(),
});
export type StoreTestResult = z.infer<typeof StoreTestResultSchema>;

export const AllowLocalPrintingSchema = z
  .object({
    reason: z.string().trim().min(3).max(500),
    /** The lead allowing it; absent: the operator working at this bench. */
    operator: z.string().trim().min(1).max(100).optional(),
  })
  .strict();
export type AllowLocalPrinting = z.infer<typeof AllowLocalPrintingSchema>;

/**
 * A label this bench printed while the shared store was offline, whose order (or bundle page) had
 * another live print in the shared journal when it was merged back: printed twice without anyone
 * deciding so. Times are ISO; the other print may be another bench's, or this bench's from before.
 */
export const OfflineDuplicateSchema = z.object({
  entryId: z.number().int(),
  orderId: z.string().nullable(),
  bundleId: z.string().nullable(),
  bundlePosition: z.number().int().nullable(),
  printedAt: z.string(),
  benchName: z.string().nullable(),
  operator: z.string(),
  localReason: z.string(),
  localAllowedBy: z.string().nullable(),
  mergedAt: z.string(),
  other: z.object({ entryId: z.number().int(), benchName: z.string().nullable(), at: z.string(), state: z.string() }),
});
export type OfflineDuplicate = z.infer<typeof OfflineDuplicateSchema>;

export const OfflineReportSchema = z.object({ duplicates: z.array(OfflineDuplicateSchema) });
export type OfflineReport = z.infer<typeof OfflineReportSchema>;

export const OfflineMergedSchema = z.object({
  /** Labels of this bench's local journal now in the shared journal. */
  labels: z.number().int().nonnegative(),
  /** Of them, printed twice (see OfflineDuplicateSchema). */
  duplicates: z.number().int().nonnegative(),
});
export type OfflineMerged = z.infer<typeof OfflineMergedSchema>;

export const storeCalls = {
  'store.get': defineCall(z.object({}).strict(), StoreStatusSchema),
  /** Saves the choice (applied at the next start); the password goes into the OS keychain. */
  'store.set': defineCall(StoreChoiceSchema, StoreStatusSchema),
  /** Connects and reads the schema version; changes nothing. STORE_UNAVAILABLE facts: server, problem. */
  'store.test': defineCall(StoreTestSchema, StoreTestResultSchema),
  /** A lead lets this bench print scans while the shared store is offline. CONFLICT facts subject 'store-online' when the store answers. */
  'store.allowLocalPrinting': defineCall(AllowLocalPrintingSchema, StoreHealthSchema),
  /** Ends local-only printing before the store is back (its labels are still merged when it returns). */
  'store.endLocalPrinting': defineCall(z.object({}).strict(), StoreHealthSchema),
  /** Labels printed twice while a bench printed locally, newest first, from the shared journal. */
  'store.offlineReport': defineCall(z.object({ limit: z.number().int().min(1).max(1000).optional() }).strict(), OfflineReportSchema),
};

export const storeEvents = {
  /** The shared store went offline or came back. */
  'store.health': defineEvent(StoreHealthSchema),
  /** This bench's local-only labels were merged into the shared journal. */
  'store.offlineMerged': defineEvent(OfflineMergedSchema),
};
