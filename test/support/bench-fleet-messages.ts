/**
 * What the fleet's parent and its bench processes say to each other over Node's IPC channel,
 * parsed on arrival at both ends.
 */
import { z } from 'zod';

export const FleetStoreSchema = z.discriminatedUnion('kind', [
  /** One SQLite file every bench opens (the order index, ledgers and webhook intake today). */
  z.object({ kind: z.literal('sqlite'), file: z.string() }),
  /** The warehouse's PostgreSQL server over loopback. */
  z.object({
    kind: z.literal('postgres'),
    connection: z.object({ host: z.literal('127.0.0.1'), port: z.number().int(), user: z.string(), password: z.string(), database: z.string() }),
  }),
]);
export type FleetStore = z.infer<typeof FleetStoreSchema>;

export const BenchConfigSchema = z.object({
  benchName: z.string().min(1),
  dataDir: z.string(),
  store: FleetStoreSchema,
  baseUrl: z.string(),
  apiKey: z.string(),
  printerPort: z.number().int(),
  /**
   * Started as the app starts (station.start): the bench reports to the lead's floor and applies
   * the actions sent to it, with this operator signed in. Absent: composed only, as before.
   */
  floor: z
    .object({
      operator: z.string(),
      silentAfterMs: z.number().int().positive().optional(),
      printerCheckMs: z.number().int().positive().optional(),
      heartbeatMs: z.number().int().positive().optional(),
    })
    .optional(),
  /** Station events the bench sends on to its parent as they happen (a benchmark times them). */
  forwardEvents: z.array(z.string()).optional(),
});
export type BenchConfig = z.infer<typeof BenchConfigSchema>;

/** Parent → bench: one contract call. */
export const BenchCallSchema = z.object({ id: z.number().int(), name: z.string(), input: z.unknown() });
export type BenchCall = z.infer<typeof BenchCallSchema>;

/** Bench → parent. */
export const BenchMessageSchema = z.union([
  z.object({ type: z.literal('ready'), printerId: z.string() }),
  z.object({ type: z.literal('answer'), id: z.number().int(), ok: z.literal(true), value: z.unknown() }),
  z.object({ type: z.literal('answer'), id: z.number().int(), ok: z.literal(false), error: z.object({ code: z.string(), message: z.string() }) }),
  /** A station event the parent asked for, with when the bench heard it (epoch ms). */
  z.object({ type: z.literal('event'), name: z.string(), payload: z.unknown(), at: z.number() }),
]);
export type BenchMessage = z.infer<typeof BenchMessageSchema>;
