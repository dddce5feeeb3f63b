/**
 * The webhook receiver: an HTTP endpoint for the Delivery Service's status-change events, off
 * until switched on. Each environment has its own secret path segment (`/webhooks/<secret>`),
 * which is how an event is known to be the service's and which environment it belongs to. The
 * receiver answers once the event's transaction committed (status-events.ts batches the events
 * arriving together into one transaction, so this stays quick, as the spec asks): a 2xx is never
 * given for an event a crash or an unreachable store could still lose (503 asks for it again). Bad input gets a 4xx and is forgotten; no
 * request can stop the receiver: a body's JSON shape is checked on its text before it is parsed
 * (webhookJsonLimits), nothing walks it by recursion, and a fault while handling one request is
 * that request's 500. GET /healthz, from the receiver's own machine, reports its health.
 *
 * Optionally only listed source addresses may post (settings: webhooks.allowedSources, CIDR);
 * anyone else gets 403 before the body is read. The address is the connection's own: headers
 * such as X-Forwarded-For are not trusted. An event dated in the future beyond the clock skew is
 * answered 422 (not received) and recorded for a lead, see status-events.ts.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { BlockList, isIPv4, type AddressInfo, type Socket } from 'node:net';
import { WebhookPayloadSchema } from '../../shared/api/schemas';
import type { Environment } from '../../shared/contract/app';
import { StationError } from '../../shared/errors';
import { describeJsonProblem, parseBoundedJson, someJsonText, type JsonShapeLimits } from '../../shared/json-shape';
import type { StrayErrors } from '../../shared/stray-errors';
import type { Logger } from '../logging/logger';
import type { StationSettings } from '../settings/station-settings';
import type { StatusEventCounters, StatusEventProcessor } from './status-events';

const environments: Environment[] = ['sandbox', 'test', 'live'];

export interface WebhookReceiverStatus {
  running: boolean;
  enabled: boolean;
  host: string;
  /** The port bound while running, else the configured one. */
  port: number;
  /** The address path per environment, to register with the service operator. */
  paths: { environment: Environment; path: string }[];
  /** `failed`: requests the receiver itself failed on (answered 500), also counted in `rejected`. */
  requests: { accepted: number; rejected: number; failed: number };
  events: StatusEventCounters & { waiting: number };
  lastEventAt: string | null;
  /** Why the receiver is not running when it should be (the port is taken, for example). */
  problem: string | null;
  problemCode?: 'port-in-use' | 'cannot-listen' | null;
}

export interface WebhookReceiver {
  /** Starts listening and remembers that it should run. */
  start(): Promise<WebhookReceiverStatus>;
  /** Stops listening and remembers that it should not run. */
  stop(): Promise<WebhookReceiverStatus>;
  /** Starts the receiver if settings say it should run (at station start). */
  resume(): Promise<void>;
  /** Listens for this process only, without remembering it (the CLI's `webhooks serve`); host and port may be overridden. */
  open(overrides?: { host?: string; port?: number }): Promise<WebhookReceiverStatus>;
  status(): WebhookReceiverStatus;
  /** Resolves once every event accepted so far is in the order index. */
  drained(): Promise<void>;
  /** Closes the socket without changing the setting (station shutdown). */
  close(): Promise<void>;
}

export interface WebhookReceiverDeps {
  settings: StationSettings;
  processor: StatusEventProcessor;
  logger: Logger;
  clock?: () => Date;
  /** Whether the store answers now (a `SELECT 1`), for the health check. */
  storeReachable: () => Promise<boolean>;
  /** The process's errors nobody caught, as its host counts them; the health check shows the count. */
  strayErrors?: StrayErrors;
}

/** What GET /healthz answers: 200 when the receiver can take events into its store, 503 when it cannot. */
export interface WebhookReceiverHealth {
  status: 'ok' | 'store-unreachable';
  /** Seconds since the receiver began listening. */
  uptimeSeconds: number;
  requests: WebhookReceiverStatus['requests'];
  events: WebhookReceiverStatus['events'];
  lastEventAt: string | null;
  /** Errors of the process nobody caught (logged with their stacks); null where the host does not count them. */
  strayErrors: number | null;
  store: 'reachable' | 'unreachable';
}

/**
 * What a webhook body may be shaped like, checked on its text before it is parsed. The service's
 * event is one object two levels deep with some thirty fields; these leave room for fields it may
 * add while refusing what only a hostile sender makes (docs/warehouse.md, "What the receiver accepts").
 */
export const webhookJsonLimits: JsonShapeLimits = { maxDepth: 16, maxKeys: 256, maxItems: 1024 };

/** Where an admin on the receiver's own machine reads its health (docs/warehouse.md). */
export const healthPath = '/healthz';

/** How long the health check waits for the store to answer before calling it unreachable. */
const storeCheckMs = 2_000;

export function webhookPath(secret: string): string {
  return `/webhooks/${secret}`;
}

export function createWebhookReceiver(deps: WebhookReceiverDeps): WebhookReceiver {
  const clock = deps.clock ?? (() => new Date());
  let server: Server | null = null;
  let boundPort: number | null = null;
  let problem: string | null = null;
  let problemCode: 'port-in-use' | 'cannot-listen' | null = null;
  let lastEventAt: string | null = null;
  let listeningSince: Date | null = null;
  const requests = { accepted: 0, rejected: 0, failed: 0 };

  const secretsByEnvironment = () => environments.map((environment) => ({ environment, secret: Buffer.from(deps.settings.webhookSecret(environment)) }));

  const environmentForSecret = (candidate: string, secrets: { environment: Environment; secret: Buffer }[]): Environment | null => {
    const given = Buffer.from(candidate);
    let found: Environment | null = null;
    // Compare against every secret in constant time, so timing tells nothing about any of them.
    for (const { environment, secret } of secrets) {
      if (given.length === secret.length && timingSafeEqual(given, secret)) found = environment;
    }
    return found;
  };

  const answer = (response: ServerResponse, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    if (status >= 400) requests.rejected += 1;
    if (response.headersSent || response.destroyed) return;
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
    response.end(JSON.stringify(body));
  };

  // Whatever goes wrong inside one request is that request's 500, logged with its stack; it never
  // reaches the process, so the next sender is answered as if nothing happened.
  const failed = (response: ServerResponse, error: unknown) => {
    requests.failed += 1;
    deps.logger.error('webhook request failed', { error, stack: error instanceof Error ? error.stack : undefined });
    answer(response, 500, { error: 'Internal Server Error' }, { connection: 'close' });
  };
  const guarded = (response: ServerResponse, work: () => void) => () => {
    try {
      work();
    } catch (error) {
      failed(response, error);
    }
  };

  // From this machine: over loopback, or to a receiver bound to one of the machine's own addresses from that same address.
  const fromThisMachine = (socket: Socket) => {
    const peer = socket.remoteAddress;
    return peer === '127.0.0.1' || peer === '::1' || peer === '::ffff:127.0.0.1' || (peer !== undefined && peer === socket.localAddress);
  };

  const health = async (): Promise<WebhookReceiverHealth> => {
    const reachable = await Promise.race([
      deps.storeReachable().catch(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), storeCheckMs).unref()),
    ]);
    const { requests: counted, events } = status();
    return {
      status: reachable ? 'ok' : 'store-unreachable',
      uptimeSeconds: listeningSince ? Math.max(0, Math.floor((clock().getTime() - listeningSince.getTime()) / 1000)) : 0,
      requests: counted,
      events,
      lastEventAt,
      strayErrors: deps.strayErrors ? deps.strayErrors.count() : null,
      store: reachable ? 'reachable' : 'unreachable',
    };
  };

  const answerHealth = (request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    health().then(
      (report) => {
        if (response.headersSent || response.destroyed) return;
        response.writeHead(report.status === 'ok' ? 200 : 503, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : JSON.stringify(report));
      },
      (error: unknown) => failed(response, error),
    );
  };

  const handle = (request: IncomingMessage, response: ServerResponse, secrets: { environment: Environment; secret: Buffer }[], bodyLimit: number, sources: BlockList | null) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    // The health check is for an admin on this machine: from anywhere else it is a path like any unknown one.
    if (path === healthPath && (request.method === 'GET' || request.method === 'HEAD') && fromThisMachine(request.socket)) {
      answerHealth(request, response);
      return;
    }
    if (sources && !sourceAllowed(sources, request.socket.remoteAddress)) {
      request.resume();
      answer(response, 403, { error: 'Forbidden' }, { connection: 'close' });
      return;
    }
    const match = /^\/webhooks\/([A-Za-z0-9_-]{1,200})$/.exec(path);
    const environment = match?.[1] ? environmentForSecret(match[1], secrets) : null;
    if (!environment) {
      // Wrong secret or no such path look the same, so a prober learns nothing.
      request.resume();
      answer(response, 404, { error: 'Not Found' });
      return;
    }
    if (request.method !== 'POST') {
      request.resume();
      answer(response, 405, { error: 'Method Not Allowed' }, { allow: 'POST' });
      return;
    }
    const contentType = request.headers['content-type'] ?? '';
    if (!/^application\/json\b/i.test(contentType)) {
      request.resume();
      answer(response, 415, { error: 'Unsupported Media Type', message: 'the body should be application/json' });
      return;
    }
    const declared = Number(request.headers['content-length'] ?? '0');
    if (Number.isFinite(declared) && declared > bodyLimit) {
      answer(response, 413, { error: 'Payload Too Large', message: `the body should be at most ${bodyLimit} bytes` }, { connection: 'close' });
      request.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > bodyLimit) {
        tooLarge = true;
        answer(response, 413, { error: 'Payload Too Large', message: `the body should be at most ${bodyLimit} bytes` }, { connection: 'close' });
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('error', () => undefined);
    request.on(
      'end',
      guarded(response, () => {
        if (!tooLarge) receive(environment, Buffer.concat(chunks).toString('utf8'), response);
      }),
    );
  };

  const receive = (environment: Environment, text: string, response: ServerResponse) => {
    const parsed = parseBoundedJson(text, webhookJsonLimits);
    if (!parsed.ok) {
      answer(response, 400, { error: 'Bad Request', message: describeJsonProblem(parsed.problem) });
      return;
    }
    if (someJsonText(parsed.value, (part) => part.includes('\u0000'))) {
      // The store cannot keep a NUL in text: stored, the event would fail for ever (and a 503 would have the service send it for ever).
      answer(response, 400, { error: 'Bad Request', message: 'the event holds a NUL character' });
      return;
    }
    const payload = WebhookPayloadSchema.safeParse(parsed.value);
    if (!payload.success) {
      const issues = payload.error.issues.slice(0, 5).map((issue) => `${issue.path.slice(0, 8).join('.') || 'body'}: ${issue.message}`);
      answer(response, 400, { error: 'Bad Request', message: issues });
      return;
    }
    const { outcome, written } = deps.processor.enqueue(environment, payload.data);
    if (outcome === 'busy') {
      answer(response, 503, { error: 'Service Unavailable', message: 'busy; send again later' }, { 'retry-after': '5' });
      return;
    }
    // Answered once the event is in the store: a 2xx is a promise that it will not be lost.
    written
      .then(
        () => {
          if (outcome === 'future') {
            answer(response, 422, { error: 'Unprocessable Entity', message: 'updatedAt is in the future beyond the allowed clock skew' });
            return;
          }
          requests.accepted += 1;
          lastEventAt = clock().toISOString();
          answer(response, 200, { received: true });
        },
        (error: unknown) => {
          deps.logger.warn('webhook event not stored; the service is asked to send it again', { error: error instanceof Error ? error.message : String(error) });
          answer(response, 503, { error: 'Service Unavailable', message: 'the store cannot take the event now; send again later' }, { 'retry-after': '5' });
        },
      )
      .catch((error: unknown) => failed(response, error));
  };

  let overrides: { host?: string; port?: number } = {};
  const listen = async (): Promise<void> => {
    if (server) return;
    const config = { ...deps.settings.webhookReceiver(), ...overrides };
    const secrets = secretsByEnvironment();
    const sources = allowList(config.allowedSources ?? [], deps.logger);
    // Node enforces the header and request timeouts only when it checks its connections: every
    // connectionsCheckingInterval (30 s by default), so without a short one a slow sender holds
    // its connection six times longer than the limits say.
    const limits = { requestTimeout: 10_000, headersTimeout: 5_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: 500, maxHeaderSize: 16 * 1024 };
    const headerDeadlines = new WeakMap<Socket, NodeJS.Timeout>();
    const created = createServer(limits, (request, response) => {
      clearTimeout(headerDeadlines.get(request.socket));
      // The request's own deadline as well (Node's check may come late on a busy machine): a body
      // not complete by then ends the connection.
      const deadline = setTimeout(() => {
        if (!request.complete) request.socket.destroy();
      }, limits.requestTimeout);
      deadline.unref();
      // A kept-alive connection carries request after request: what this one hangs on it goes
      // when the request is answered, or the connection would hold every request's for its life.
      const socket = request.socket;
      const closed = () => clearTimeout(deadline);
      socket.once('close', closed);
      response.once('finish', () => {
        clearTimeout(deadline);
        socket.off('close', closed);
      });
      guarded(response, () => handle(request, response, secrets, config.bodyLimitBytes, sources))();
    });
    created.on('connection', (socket: Socket) => {
      // The first request's headers by their deadline, whatever Node's check is doing meanwhile.
      const deadline = setTimeout(() => {
        if (!socket.destroyed) socket.destroy();
      }, limits.headersTimeout);
      deadline.unref();
      headerDeadlines.set(socket, deadline);
      socket.once('close', () => clearTimeout(deadline));
    });
    created.on('clientError', (_error, socket) => {
      requests.rejected += 1;
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
      else socket.destroy();
    });
    await new Promise<void>((resolve, reject) => {
      created.once('error', reject);
      created.listen(config.port, config.host, () => {
        created.off('error', reject);
        resolve();
      });
    }).catch((error: NodeJS.ErrnoException) => {
      problemCode = error.code === 'EADDRINUSE' ? 'port-in-use' : 'cannot-listen';
      problem =
        error.code === 'EADDRINUSE'
          ? `Port ${config.port} is already in use on ${config.host}. Choose another port for the webhook receiver in Setup.`
          : `The webhook receiver could not listen on ${config.host}:${config.port} (${error.code ?? error.message}).`;
      throw new StationError('NOT_CONFIGURED', problem, undefined, { cause: error, facts: { subject: problemCode, host: config.host, port: config.port } });
    });
    created.on('error', (error) => deps.logger.error('webhook receiver socket error', { error: error.message }));
    server = created;
    boundPort = (created.address() as AddressInfo).port;
    listeningSince = clock();
    problem = null;
    problemCode = null;
    deps.logger.info('webhook receiver listening', { host: config.host, port: boundPort });
  };

  const unlisten = async (): Promise<void> => {
    const current = server;
    if (!current) return;
    server = null;
    boundPort = null;
    listeningSince = null;
    await new Promise<void>((resolve) => {
      current.close(() => resolve());
      current.closeAllConnections();
    });
  };

  const status = (): WebhookReceiverStatus => {
    const config = { ...deps.settings.webhookReceiver(), ...(server ? overrides : {}) };
    const counters = deps.processor.counters();
    return {
      running: server !== null,
      enabled: config.enabled,
      host: config.host,
      port: boundPort ?? config.port,
      paths: environments.map((environment) => ({ environment, path: webhookPath(deps.settings.webhookSecret(environment)) })),
      requests: { ...requests },
      events: { ...counters, waiting: deps.processor.queueLength() },
      lastEventAt,
      problem,
      problemCode,
    };
  };

  return {
    async start() {
      if (Object.keys(overrides).length > 0) await unlisten();
      overrides = {};
      await listen();
      deps.settings.setWebhookReceiver({ enabled: true });
      return status();
    },
    async stop() {
      await unlisten();
      deps.settings.setWebhookReceiver({ enabled: false });
      return status();
    },
    async resume() {
      if (!deps.settings.webhookReceiver().enabled) return;
      overrides = {};
      try {
        await listen();
      } catch (error) {
        deps.logger.warn('webhook receiver did not start', { error: error instanceof Error ? error.message : String(error) });
      }
    },
    async open(given = {}) {
      await unlisten();
      overrides = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
      await listen();
      return status();
    },
    status,
    drained: () => deps.processor.drained(),
    close: unlisten,
  };
}

/** The allow-list as a BlockList, or null when any source may post. */
function allowList(ranges: readonly string[], logger: Logger): BlockList | null {
  if (ranges.length === 0) return null;
  const list = new BlockList();
  for (const range of ranges) {
    const [address = '', prefix] = range.split('/');
    const type = isIPv4(address) ? 'ipv4' : 'ipv6';
    try {
      list.addSubnet(address, prefix === undefined ? (type === 'ipv4' ? 32 : 128) : Number(prefix), type);
    } catch (error) {
      // An entry that cannot be read admits no one (the list stays closed to everyone else).
      logger.warn('webhook source range ignored', { range, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return list;
}

function sourceAllowed(list: BlockList, remote: string | undefined): boolean {
  if (!remote) return false;
  // A dual-stack socket reports an IPv4 peer as ::ffff:a.b.c.d.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remote);
  if (mapped?.[1]) return list.check(mapped[1], 'ipv4');
  return list.check(remote, isIPv4(remote) ? 'ipv4' : 'ipv6');
}
