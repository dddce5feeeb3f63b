import { z } from 'zod';
import { defineCall } from './define';
import { KeyedEnvironmentSchema } from './settings';

/**
 * The API key crosses the contract in one direction only: into keys.set, on its way to the OS
 * keychain. No output here has a field that could hold it.
 */
export const ApiKeyInputSchema = z
  .string()
  .trim()
  // Each refusal names its cause as a subject the screen words (the dispatcher hands it on as a fact).
  .refine((key) => key.length <= 512, { message: 'the API key is too long: copy only the key', params: { subject: 'key-long' }, abort: true })
  .refine((key) => !/\s/.test(key), { message: 'the API key has a space or a line break inside: copy it again, as one word', params: { subject: 'key-space' }, abort: true })
  .refine((key) => key.length >= 8, { message: 'the API key is too short: copy the whole key', params: { subject: 'key-short' }, abort: true })
  .refine((key) => /^[\x21-\x7e]+$/.test(key), { message: 'the API key should be one word of letters, digits and symbols', params: { subject: 'key-characters' } });

export const KeyVerificationSchema = z.object({
  outcome: z.enum(['accepted', 'rejected', 'forbidden']),
  checkedAt: z.string(),
  message: z.string(),
});

export const EnvironmentKeyStatusSchema = z.object({
  environment: KeyedEnvironmentSchema,
  keySet: z.boolean(),
  /** The last check against the API, null when the key was never checked or changed since. */
  verification: KeyVerificationSchema.nullable(),
});

export const KeysStatusSchema = z.object({
  keychain: z.object({ available: z.boolean(), message: z.string().nullable() }),
  environments: z.array(EnvironmentKeyStatusSchema),
});

const environmentInput = z.object({ environment: KeyedEnvironmentSchema }).strict();

export const keysCalls = {
  'keys.status': defineCall(z.object({}).strict(), KeysStatusSchema),
  /** Stores the key in the OS keychain; with verify, only once the API has accepted it. */
  'keys.set': defineCall(
    z.object({ environment: KeyedEnvironmentSchema, key: ApiKeyInputSchema, verify: z.boolean().optional() }).strict(),
    EnvironmentKeyStatusSchema,
  ),
  /** Checks the stored key with a harmless API call (a pickup point search). */
  'keys.verify': defineCall(environmentInput, KeyVerificationSchema),
  'keys.remove': defineCall(environmentInput, z.object({ environment: KeyedEnvironmentSchema, removed: z.boolean() })),
};
