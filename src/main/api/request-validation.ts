/**
 * Local checks before anything is sent: a request the service would reject with 400 is refused here
 * with the same kind of messages, without spending a request (or, for POST /orders, risking one).
 */
import type { z } from 'zod';
import { DeliveryApiError } from './delivery-api-error';

// Messages read like the service's own ("deliveryAddress.postalCode should not be empty").
function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : String(part))).join('.').replace(/\.\[/g, '[');
  if (path === '') return issue.message;
  const last = issue.path.at(-1);
  if (typeof last === 'string' && issue.message.startsWith(`${last} `)) return `${path}${issue.message.slice(last.length)}`;
  if (/^(should|must) /.test(issue.message)) return `${path} ${issue.message}`;
  return `${path}: ${issue.message}`;
}

export function invalidRequest(what: string, details: string[]): DeliveryApiError {
  return new DeliveryApiError('VALIDATION', `The ${what} is not valid: ${details.join('; ')}. Nothing was sent.`, { details });
}

/** Parses a request with its zod schema; on failure a VALIDATION error listing every problem. */
export function validateRequest<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw invalidRequest(what, result.error.issues.map(describeIssue));
}

const maxIdLength = 200;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is being refused
const controlCharacters = /[\u0000-\u001f\u007f]/;

/** An id that goes into a URL path (order id, bundle id, location id): non-empty, printable, bounded. */
export function validatePathId(value: unknown, name: string): string {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : typeof value === 'string' ? value.trim() : undefined;
  if (text === undefined) throw invalidRequest(name, [`${name} should be a string`]);
  if (text === '') throw invalidRequest(name, [`${name} should not be empty`]);
  if (text.length > maxIdLength) throw invalidRequest(name, [`${name} should be at most ${maxIdLength} characters`]);
  if (controlCharacters.test(text)) throw invalidRequest(name, [`${name} should not contain control characters`]);
  return text;
}
