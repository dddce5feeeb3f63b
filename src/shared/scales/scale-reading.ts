/**
 * One reading as a scale said it, whatever its protocol: a weight (in grams, with whether the
 * scale itself called it steady, and whether it is a net weight after a tare), or a condition
 * with a code the screen words. Parsers produce these; the stable-weight filter decides.
 */
import { z } from 'zod';

/** Conditions a scale reports instead of a weight. The screen owns the words for each. */
export const ScaleConditionSchema = z.enum([
  /** The load is moving: no steady weight yet. */
  'motion',
  /** More than the scale's capacity. */
  'overload',
  /** Below zero (a tare taken with a box on, or the pan lifted). */
  'negative',
  /** The scale could not do what was asked right now (MT-SICS "S I", busy or taring). */
  'busy',
  /** The scale reports a fault, needs calibrating or zeroing. */
  'fault',
  /** Bytes that are not this protocol (wrong protocol or baud rate chosen). */
  'bad-data',
  /** No answer: unplugged, switched off, or the wrong port. */
  'disconnected',
]);
export type ScaleCondition = z.infer<typeof ScaleConditionSchema>;

export type ScaleSample =
  | { kind: 'weight'; grams: number; steady: boolean; net: boolean; tareGrams: number | null }
  | { kind: 'condition'; condition: ScaleCondition; detail: string };

export const condition = (kind: ScaleCondition, detail: string): ScaleSample => ({ kind: 'condition', condition: kind, detail });
