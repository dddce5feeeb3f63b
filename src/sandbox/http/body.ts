/** Reading request bodies with a size ceiling, and parsing them as JSON objects. */
import type { IncomingMessage } from 'node:http';
import { describeJsonProblem, jsonShapeProblem, type JsonShapeLimits } from '../../shared/json-shape';
import { HttpError } from './errors';

/**
 * The shape a request body may have, checked on its text before it is parsed: no request of the
 * API nests deeper than a few levels; the control API's batch of status moves holds up to 100,000.
 */
export const bodyJsonLimits: JsonShapeLimits = { maxDepth: 32, maxKeys: 1_000, maxItems: 100_000 };

export function tooLarge(limitBytes: number): HttpError {
  return new HttpError(413, `Request body is larger than ${limitBytes} bytes`, { connection: 'close' });
}

/** The body as bytes; rejects with 413 as soon as it passes the limit (without buffering the rest). */
export function readBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) return Promise.reject(tooLarge(limitBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        cleanup();
        req.pause();
        reject(tooLarge(limitBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    // A client that goes away mid-body leaves no request to answer; settle instead of waiting forever.
    const onClose = () => {
      cleanup();
      reject(new Error('The client closed the connection before the body was complete'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/**
 * The body parsed as JSON. An empty body counts as `{}` (so validation lists the missing fields);
 * a body that is not JSON, or a JSON body with another content type, is a 400.
 */
export function parseJsonBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return {};
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new HttpError(400, ['Content-Type must be application/json']);
  }
  const text = raw.toString('utf8');
  const problem = jsonShapeProblem(text, bodyJsonLimits);
  if (problem) throw new HttpError(400, [`body is refused: ${describeJsonProblem(problem)}`]);
  try {
    return JSON.parse(text);
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    throw new HttpError(400, [`body is not valid JSON: ${detail}`]);
  }
}
