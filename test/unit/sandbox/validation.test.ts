import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AddressCheckRequestSchema, PickupPointSearchSchema } from '../../../src/shared/api/schemas';
import { HttpError } from '../../../src/sandbox/http/errors';
import { formatIssue, validate } from '../../../src/sandbox/http/validation';

function messages(schema: z.ZodType, data: unknown): string[] {
  try {
    validate(schema, data);
  } catch (error) {
    if (error instanceof HttpError) return error.detail as string[];
    throw error;
  }
  return [];
}

describe('validation messages', () => {
  it('name the field by its full path, in the spec\'s wording', () => {
    expect(messages(AddressCheckRequestSchema, { deliveryAddress: { street: 'A', houseNumber: '1', postalCode: ' ', countryCode: 'NL' } })).toEqual([
      'deliveryAddress.postalCode should not be empty',
    ]);
  });

  it('describe wrong types, ranges and enums', () => {
    expect(messages(PickupPointSearchSchema, { countryCode: 'NL', postalCode: '1', maxResults: 101 })).toEqual(['maxResults must not be greater than 100']);
    expect(messages(PickupPointSearchSchema, { countryCode: 'NL', postalCode: '1', maxResults: 0 })).toEqual(['maxResults must not be less than 1']);
    expect(messages(PickupPointSearchSchema, { countryCode: 'NL', postalCode: '1', maxResults: 'x' })).toEqual(['maxResults must be a number']);
    expect(messages(PickupPointSearchSchema, { countryCode: 'NL', postalCode: '1', maxResults: 2.5 })).toEqual(['maxResults must be an integer']);
    expect(messages(PickupPointSearchSchema, { countryCode: 'NL', postalCode: '1', types: ['BOX'] })).toEqual([
      'types.0 must be one of the following values: PARCEL_LOCKER, PICKUP_DROPOFF_POINT, MAILBOX_POBOX',
    ]);
    expect(messages(z.object({ weight: z.number().positive() }), { weight: -1 })).toEqual(['weight must be a positive number']);
    expect(messages(z.object({ flag: z.boolean() }), {})).toEqual(['flag should not be empty']);
  });

  it('keep messages that already name the field, and top-level ones as they are', () => {
    expect(formatIssue(['dimensions'], 'dimensions must satisfy length >= width >= height')).toBe('dimensions must satisfy length >= width >= height');
    expect(formatIssue(['deliveryAddress', 'street'], 'street should not be empty')).toBe('deliveryAddress.street should not be empty');
    expect(formatIssue([], 'countryCode and postalCode are required unless lat and lng are given')).toBe('countryCode and postalCode are required unless lat and lng are given');
  });

  it('throws a 400 HttpError carrying the spec\'s error body', () => {
    try {
      validate(z.object({ a: z.string() }), {});
      expect.unreachable();
    } catch (error) {
      expect((error as HttpError).body).toEqual({ statusCode: 400, message: ['a should not be empty'], error: 'Bad Request' });
    }
  });
});
