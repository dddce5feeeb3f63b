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
  .refine((text) => /^postgres(ql)?:\/\//i.test(text), 'the store address should start with postgres://');
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
  }),
]);
export type StoreSetting = z.infer<typeof StoreSettingSchema>;

/** Why the shared store is out of reach, for the screen to word. */
export const StoreProblemSchema = z.enum(['unreachable', 'password', 'tls', 'no-password', 'schema', 'other']);
export type StoreProblem = z.infer<typeof StoreProblemSchema>;

/** local: this bench's file, always there; online/offline: the shared store answers or not. */
export const StoreHealthSchema = z.object({
  state: z.enum(['local', 'online', 'offline']),
  /** When the current state began (ISO time); null for local. */
  since: z.string().nullable(),
  problem: StoreProblemSchema.nullable(),
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
  .object({ address: StoreAddressTextSchema, tls: StoreTlsModeSchema.optional(), password: StorePasswordSchema.optional() })
  .strict();
export type StoreTest = z.infer<typeof StoreTestSchema>;

export const StoreTestResultSchema = z.object({
  server: z.string(),
  /** The newest migration applied in that store; 0 for a fresh database (the first bench to start sets it up). */
  schemaVersion: z.number().int().nonnegative(),
});
export type StoreTestResult = z.infer<typeof StoreTestResultSchema>;

export const storeCalls = {
  'store.get': defineCall(z.object({}).strict(), StoreStatusSchema),
  /** Saves the choice (applied at the next start); the password goes into the OS keychain. */
  'store.set': defineCall(StoreChoiceSchema, StoreStatusSchema),
  /** Connects and reads the schema version; changes nothing. STORE_UNAVAILABLE facts: server, problem. */
  'store.test': defineCall(StoreTestSchema, StoreTestResultSchema),
};

export const storeEvents = {
  /** The shared store went offline or came back. */
  'store.health': defineEvent(StoreHealthSchema),
};
