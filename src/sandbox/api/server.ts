/**
 * The public Delivery API over node:http: two environments under /test and /live, auth exactly as
 * the spec, injected faults and the rate limit in front, the spec's error body on every error.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { readBody, parseJsonBody } from '../http/body';
import { HttpError, errorBody } from '../http/errors';
import { sendJson, sendRaw } from '../http/respond';
import type { LabelDocuments } from '../label-documents';
import type { Random } from '../random';
import type { Settings } from '../settings';
import { apiKeyFormat } from '../world/seed';
import type { EnvironmentName } from '../world/types';
import type { World } from '../world/world';
import type { ApiContext } from './context';
import { createRateLimiter, type RateLimiter } from './rate-limit';
import { matchRoute } from './routes';
import { serveTracking } from './tracking';

export interface ApiServerDeps {
  world: () => World;
  settings: Settings;
  labels: LabelDocuments;
  /** Decides which requests get injected faults. */
  random: Random;
  now: () => number;
}

export interface ApiServer {
  server: Server;
  rateLimiter: RateLimiter;
}

/** The public tracking pages are throttled harder than the API (spec: Limits). */
export const trackingRateLimit = { requestsPerSecond: 2, burst: 10 } as const;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const injectedErrors = [500, 502, 503] as const;

function isEnvironment(name: string | undefined): name is EnvironmentName {
  return name === 'test' || name === 'live';
}

export function createApiServer(deps: ApiServerDeps): ApiServer {
  const { settings, random } = deps;
  const rateLimiter = createRateLimiter(() => settings.rateLimit);
  const trackingLimiter = createRateLimiter(() => trackingRateLimit);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const rawUrl = req.url ?? '/';
    const queryAt = rawUrl.indexOf('?');
    const path = queryAt < 0 ? rawUrl : rawUrl.slice(0, queryAt);
    const segments = path.split('/').slice(1);
    const world = deps.world();

    if (segments[0] === 'track' && segments.length === 2 && segments[1]) {
      serveTracking(req, res, world, trackingLimiter, segments[1], deps.now());
      return;
    }

    const faults = settings.faults;
    // Scoped to creation, a fault hits only POST /orders: a check succeeds and the create times out or drops.
    const faultsApply = faults.faultScope === 'all' || (req.method === 'POST' && segments.length === 2 && segments[1] === 'orders');
    if (faultsApply && (faults.latencyMs > 0 || faults.latencyJitterMs > 0)) await sleep(faults.latencyMs + Math.floor(random.next() * faults.latencyJitterMs));
    let dropAfter = false;
    if (faultsApply && faults.dropRate > 0 && random.chance(faults.dropRate)) {
      const mode = faults.dropMode === 'either' ? (random.chance(0.5) ? 'before' : 'after') : faults.dropMode;
      if (mode === 'before') {
        req.socket.destroy();
        return;
      }
      dropAfter = true;
    }
    if (faultsApply && faults.rateLimitRate > 0 && random.chance(faults.rateLimitRate)) {
      throw new HttpError(429, 'Rate limit exceeded; retry later', { 'retry-after': '1' });
    }
    if (faultsApply && faults.errorRate > 0 && random.chance(faults.errorRate)) {
      const status = random.pick(injectedErrors);
      throw new HttpError(status, status === 503 ? 'Service temporarily unavailable' : 'Internal server error');
    }

    const envName = segments[0];
    const match = isEnvironment(envName) ? matchRoute(req.method ?? '', segments.slice(1)) : undefined;
    if (!isEnvironment(envName) || !match) throw new HttpError(401, 'Unauthorized');
    const env = world.env(envName);

    const header = req.headers['api-key'];
    if (header === undefined || header === '') throw new HttpError(401, 'Missing api-key header');
    const key = typeof header === 'string' && apiKeyFormat(envName).test(header) ? env.keys.get(header) : undefined;
    if (!key || key.revoked) throw new HttpError(401, 'Invalid API key');

    const limit = rateLimiter.take(`${envName}/${key.key}`, deps.now());
    if (!limit.allowed) {
      throw new HttpError(429, `Rate limit of ${settings.rateLimit.requestsPerSecond} requests per second exceeded; retry after ${limit.retryAfterSeconds} s`, {
        'retry-after': String(limit.retryAfterSeconds),
      });
    }

    let body: unknown = undefined;
    if (match.route.body) body = parseJsonBody(await readBody(req, settings.bodyLimitBytes), req.headers['content-type']);

    const ctx: ApiContext = {
      world,
      env,
      key,
      params: match.params,
      query: new URLSearchParams(queryAt < 0 ? '' : rawUrl.slice(queryAt + 1)),
      body,
      settings,
      labels: deps.labels,
      now: deps.now(),
      req,
    };
    const answer = await match.route.handle(ctx);
    if (dropAfter) {
      // The change happened; only the answer is lost (what a client calls "outcome unknown").
      req.socket.destroy();
      return;
    }
    if (answer.raw) sendRaw(res, answer.status, answer.raw, answer.headers);
    else sendJson(res, answer.status, answer.body, answer.headers);
  };

  const server = createServer({ keepAliveTimeout: 5_000, requestTimeout: 30_000, headersTimeout: 10_000 }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) {
        sendJson(res, error.status, error.body, error.headers);
        return;
      }
      // Never crash on a request: an unexpected failure is the spec's 500.
      sendJson(res, 500, errorBody(500, 'Internal server error'));
    });
  });
  server.on('clientError', (_error: Error, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const payload = JSON.stringify(errorBody(400, ['The request could not be parsed as HTTP']));
    socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`);
  });
  return { server, rateLimiter };
}
