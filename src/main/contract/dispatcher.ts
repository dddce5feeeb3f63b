import { calls, isCallName, type CallInput, type CallName, type CallOutput, type CallResult, type Calls } from '../../shared/contract';
import { StationError, type StationErrorData } from '../../shared/errors';
import type { z } from 'zod';
import type { EnvironmentSession, OpenEnvironmentSession } from '../environment-session';
import type { Logger } from '../logging/logger';
import { boundErrorData, errorLimits } from './bounded-errors';
import { errorText } from '../../shared/error-text';

/** Which host a call arrived through, and who is operating the station. */
export interface CallContext {
  host: 'electron' | 'web';
}

/** What a handler receives besides its input: the call's context and its environment session. */
export interface HandlerContext extends CallContext {
  readonly session: EnvironmentSession;
}

export type Handler<K extends CallName> = (
  input: z.output<Calls[K]['input']>,
  context: HandlerContext,
) => Promise<CallOutput<K>> | CallOutput<K>;

/** One handler per call of the contract: a missing handler is a type error, not a runtime surprise. */
export type Handlers = { [K in CallName]: Handler<K> };

/**
 * The handlers of one domain's calls, named by its table in the contract (`HandlersOf<typeof
 * printingCalls>`): a call added to the table is a handler its domain owes, written nowhere else.
 */
export type HandlersOf<DomainCalls> = { [K in keyof DomainCalls & CallName]: Handler<K> };

export interface Dispatcher {
  /** A call as a host received it: its name and input are anything until the contract says otherwise. */
  dispatch(name: unknown, input: unknown, context: CallContext): Promise<CallResult<unknown>>;
}

/** A call made in the station's own process (the command line): the same way through, typed by the contract. */
export function callThrough<K extends CallName>(dispatcher: Dispatcher, name: K, input: CallInput<K>, context: CallContext): Promise<CallResult<CallOutput<K>>> {
  // A value is what the call's output schema parsed (dispatch, below): the contract's output type.
  return dispatcher.dispatch(name, input, context) as Promise<CallResult<CallOutput<K>>>;
}

// Only the issues that can be shown are described; the rest are counted (a million unknown keys
// would otherwise be a million-name message).
const describeIssues = (error: z.ZodError): { details: string[]; omitted: number } => {
  const details = error.issues.slice(0, errorLimits.maxDetails).map((issue) => {
    const path = issue.path.slice(0, 20).map(String).join('.').slice(0, errorLimits.maxDetailChars);
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  return { details, omitted: error.issues.length - details.length };
};

/**
 * A call's name as it came, for a message or a log line. Not String(name): over IPC a name may be
 * any object, even one that cannot become text (its toString is null).
 */
export function describeCallName(name: unknown): string {
  return typeof name === 'string' ? JSON.stringify(name).slice(0, 80) : `of type ${name === null ? 'null' : typeof name}`;
}

/**
 * What a schema named as the cause of a refusal (a refinement's `params.subject`, such as
 * key-space), for the screen to word; the first such issue's.
 */
const subjectOf = (error: z.ZodError): string | null => {
  for (const issue of error.issues) {
    const subject: unknown = issue.code === 'custom' ? issue.params?.subject : undefined;
    if (typeof subject === 'string' && /^[a-z][a-z-]{0,63}$/.test(subject)) return subject;
  }
  return null;
};

/**
 * Parses every input before a handler sees it and every output before it leaves, and turns
 * every failure into error data with a stable code. It never throws and never rejects.
 */
export function createDispatcher(handlers: Handlers, logger: Logger, openSession: OpenEnvironmentSession): Dispatcher {
  return {
    async dispatch(name, input, context) {
      if (!isCallName(name)) {
        return failure({ code: 'UNKNOWN_CALL', message: `The station has no call named ${describeCallName(name)}.` });
      }
      const definition = calls[name];
      const parsedInput = definition.input.safeParse(input ?? {});
      if (!parsedInput.success) {
        const { details, omitted } = describeIssues(parsedInput.error);
        const subject = subjectOf(parsedInput.error);
        return failure({ code: 'INVALID_INPUT', message: `The request for ${name} was not valid.`, details, ...(subject ? { facts: { subject } } : {}) }, omitted);
      }
      let value: unknown;
      try {
        const handler = handlers[name] as (input: unknown, context: HandlerContext) => unknown;
        // One session per call: the environment read once, readied at most once, the journal's place held until the answer.
        const session = openSession();
        try {
          value = await handler(parsedInput.data, { ...context, session });
        } finally {
          session.end();
        }
      } catch (error) {
        if (error instanceof StationError) return failure(error.toData());
        logger.error('call failed', { call: name, error: errorText(error) });
        return failure({ code: 'INTERNAL', message: 'Something went wrong inside the station. The details are in its log.' });
      }
      const parsedOutput = definition.output.safeParse(value);
      if (!parsedOutput.success) {
        logger.error('call returned data outside the contract', { call: name, issues: describeIssues(parsedOutput.error).details });
        return failure({ code: 'INTERNAL', message: 'The station produced an answer it could not vouch for. The details are in its log.' });
      }
      return { ok: true, value: parsedOutput.data };
    },
  };
}

const failure = (error: StationErrorData, omitted = 0): CallResult<never> => ({ ok: false, error: boundErrorData(error, omitted) });
