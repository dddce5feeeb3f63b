import type { z } from 'zod';

export interface CallDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly input: I;
  readonly output: O;
}

export interface EventDefinition<P extends z.ZodType = z.ZodType> {
  readonly payload: P;
}

export const defineCall = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O): CallDefinition<I, O> => ({ input, output });

export const defineEvent = <P extends z.ZodType>(payload: P): EventDefinition<P> => ({ payload });
