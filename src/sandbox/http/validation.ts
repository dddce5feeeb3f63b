/**
 * Turns zod issues into the spec's validation messages: one string per problem, named by the
 * field's full path (`deliveryAddress.postalCode should not be empty`).
 */
import type { z } from 'zod';
import { badRequest } from './errors';

type Issue = z.core.$ZodRawIssue;

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/** Messages for issues whose schema gave none, in the wording of the spec's examples. */
function describeIssue(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return 'should not be empty';
      return `must be ${article(issue.expected === 'int' ? 'integer' : String(issue.expected))}`;
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min <= 1 ? 'should not be empty' : `must be at least ${min} characters long`;
      if (issue.origin === 'array') return `must contain at least ${min} elements`;
      if (min === 0 && issue.inclusive === false) return 'must be a positive number';
      return `must not be less than ${min}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `must be at most ${max} characters long`;
      if (issue.origin === 'array') return `must contain at most ${max} elements`;
      return `must not be greater than ${max}`;
    }
    case 'invalid_value':
      return `must be one of the following values: ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return 'has an invalid format';
    case 'unrecognized_keys':
      return `has unknown properties: ${issue.keys.join(', ')}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return undefined;
  }
}

/** The message prefixed with the field's full path, unless it already names the field. */
export function formatIssue(path: readonly PropertyKey[], message: string): string {
  if (path.length === 0) return message;
  const full = path.map(String).join('.');
  const last = String(path[path.length - 1]);
  if (message.startsWith(`${full} `)) return message;
  if (message.startsWith(`${last} `)) return `${full}${message.slice(last.length)}`;
  return `${full} ${message}`;
}

export function issueMessages(error: z.ZodError): string[] {
  const messages = error.issues.map((issue) => formatIssue(issue.path, issue.message));
  return [...new Set(messages)];
}

/** Parses `data` with `schema` or throws a 400 listing every problem. */
export function validate<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  const result = schema.safeParse(data, { error: describeIssue });
  if (!result.success) throw badRequest(issueMessages(result.error));
  return result.data;
}
