import { z } from 'zod';
import { parseStoreAddress } from './engine/postgres-config';

function isUsableStoreAddress(text: string): boolean {
  try {
    parseStoreAddress(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Which store this bench runs on. Kept in the bench's own file, like every setting: the address
 * must be known before the shared store is reached. The address never carries the password.
 */
export const StoreSettingValueSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local') }),
  // An address that no longer reads (edited by hand) falls back to local rather than stopping the bench.
  z.object({
    kind: z.literal('postgres'),
    address: z.string().min(1).max(500).refine(isUsableStoreAddress),
    /** The lead chose to send the password to this address although its sslmode does not check the server. */
    acceptUnverifiedServer: z.boolean().optional(),
  }),
]);
export type StoreSettingValue = z.infer<typeof StoreSettingValueSchema>;
