import { calls, isCallName, type CallName, type CallOutput, type CallResult, type Calls } from '../../shared/contract';
import { StationError, type StationErrorData } from '../../shared/errors';
import type { z } from 'zod';
import type { Logger } from '../logging/logger';

/** Which host a call arrived through, and who is operating the station. */
export interface CallContext {
  host: 'electron' | 'web';
}

export type Handler<K extends CallName> = (
  input: z.output<Calls[K]['input']>,
  context: CallContext,
) => Promise<CallOutput<K>> | CallOutput<K>;

/** One handler per call of the contract: a missing handler is a type error, not a runtime surprise. */
export type Handlers = { [K in CallName]: Handler<K> };

export interface Dispatcher {
  dispatch(name: unknown, input: unknown, context: CallContext): Promise<CallResult<unknown>>;
}

const describeIssues = (error: z.ZodError): string[] =>
  error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message));

/**
 * Parses every input before a handler sees it and every output before it leaves, and turns
 * every failure into error data with a stable code. It never throws and never rejects.
 */
export function createDispatcher(handlers: Handlers, logger: Logger): Dispatcher {
  return {
    async dispatch(name, input, context) {
      if (!isCallName(name)) {
        return failure({ code: 'UNKNOWN_CALL', message: `The station has no call named ${JSON.stringify(String(name)).slice(0, 80)}.` });
      }
      const definition = calls[name];
      const parsedInput = definition.input.safeParse(input ?? {});
      if (!parsedInput.success) {
        return failure({ code: 'INVALID_INPUT', message: `The request for ${name} was not valid.`, details: describeIssues(parsedInput.error) });
      }
      let value: unknown;
      try {
        const handler = handlers[name] as (input: unknown, context: CallContext) => unknown;
        value = await handler(parsedInput.data, context);
      } catch (error) {
        if (error instanceof StationError) return failure(error.toData());
        logger.error('call failed', { call: name, error: error instanceof Error ? error.message : String(error) });
        return failure({ code: 'INTERNAL', message: 'Something went wrong inside the station. The details are in its log.' });
      }
      const parsedOutput = definition.output.safeParse(value);
      if (!parsedOutput.success) {
        logger.error('call returned data outside the contract', { call: name, issues: describeIssues(parsedOutput.error) });
        return failure({ code: 'INTERNAL', message: 'The station produced an answer it could not vouch for. The details are in its log.' });
      }
      return { ok: true, value: parsedOutput.data };
    },
  };
}

const failure = (error: StationErrorData): CallResult<never> => ({ ok: false, error });
