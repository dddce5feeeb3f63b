/**
 * Messages of the web host's WebSocket: the same contract calls and events as Electron's IPC,
 * framed as JSON. Both ends parse every message with these schemas.
 */
import { z } from 'zod';
import { StationErrorDataSchema } from './errors';
import type { JsonShapeLimits } from './json-shape';

/**
 * The shape a page's message may have, checked on its text before it is parsed. No call's input
 * nests deeper than a few levels; the longest list a call takes is 5,000 bundle ids.
 */
export const clientMessageLimits: JsonShapeLimits = { maxDepth: 64, maxKeys: 10_000, maxItems: 100_000 };

/**
 * The call's id, read from the head of a message refused for its shape, so the refusal can be
 * answered as that call's result: the page writes `type` and `id` first.
 */
export function leadingCallId(text: string): number | null {
  const id = /^\{"type":"call","id":(\d{1,15}),/.exec(text.slice(0, 64))?.[1];
  return id === undefined ? null : Number(id);
}

export const ClientMessageSchema = z.object({
  type: z.literal('call'),
  id: z.number().int().nonnegative(),
  name: z.string().max(100),
  input: z.unknown(),
});
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

export const ServerMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('result'),
    id: z.number().int().nonnegative(),
    result: z.union([
      z.object({ ok: z.literal(true), value: z.unknown() }),
      z.object({ ok: z.literal(false), error: StationErrorDataSchema }),
    ]),
  }),
  z.object({ type: z.literal('event'), name: z.string(), payload: z.unknown() }),
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;

/** Name of the cookie that carries the session id the per-launch token was traded for (never the token). */
export const webSessionCookie = 'station_session';
/** Path of the WebSocket endpoint. */
export const webSocketPath = '/station';
