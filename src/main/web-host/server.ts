/**
 * The web host: serves the built renderer on 127.0.0.1 and carries the contract's calls and
 * events over a WebSocket, for a browser kiosk where Electron can't be installed and for
 * end-to-end tests in a real browser.
 *
 * Every request must carry the per-launch token: the link the host prints has it as `?token=`;
 * a visit with it trades it for a session: a fresh random id in an HttpOnly, SameSite=Strict
 * cookie (never the token itself), and a redirect to a path on this host that drops the token
 * from the address bar. The Host header must name the loopback address (no DNS rebinding), and
 * a WebSocket must carry an Origin that is the host itself (no cross-site socket hijacking).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { CallResult } from '../../shared/contract';
import { describeJsonProblem, parseBoundedJson } from '../../shared/json-shape';
import { ClientMessageSchema, clientMessageLimits, leadingCallId, webSessionCookie, webSocketPath, type ServerMessage } from '../../shared/web-protocol';
import type { ServedStation } from '../contract/unopened-station';
import { contentSecurityPolicy } from '../security/content-security-policy';
import { parseRequestTarget, sameOriginPath } from './request-target';
import { createSignedWebSessions, sessionMaxAgeMs } from './sessions';
import { serveHandover } from './handover-download';
import { serveStaticFile } from './static-files';

export interface WebHostOptions {
  /** The station, or what stands for one that could not open its store (contract/unopened-station.ts). */
  station: ServedStation;
  /** Folder of the built renderer (out/renderer). */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** The data folder's handover/ folder: closing the day's PDFs, offered for download to a signed-in page. */
  handoverDir?: string;
  /** Defaults to 32 random bytes, new at every start. */
  token?: string;
  /**
   * Signs the session cookies; defaults to the token. The command line keeps one in the data
   * folder (session-key.ts), so pages stay signed in across a restart while the link does not.
   */
  sessionKey?: string;
  /** Milliseconds since the epoch, for how old a session is. */
  clock?: () => number;
}

export interface RunningWebHost {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** The address to open: the host's URL with the token. */
  readonly launchUrl: string;
  close(): Promise<void>;
}

const LOOPBACK = '127.0.0.1';
const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

export async function startWebHost(options: WebHostOptions): Promise<RunningWebHost> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const rendererDir = resolve(options.rendererDir);
  const { station } = options;
  let port = 0;

  const securityHeaders = (): Record<string, string> => ({
    'Content-Security-Policy': contentSecurityPolicy({ connectSources: [`ws://${LOOPBACK}:${port}`, `ws://localhost:${port}`] }),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
  });

  const hostAllowed = (request: IncomingMessage) => request.headers.host === `${LOOPBACK}:${port}` || request.headers.host === `localhost:${port}`;
  const tokenMatches = (candidate: string | undefined | null) => {
    if (!candidate) return false;
    const a = Buffer.from(candidate);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  // A host restarted with the same session key keeps its pages signed in (until the session is a shift old).
  const sessions = createSignedWebSessions(options.sessionKey ?? token, { clock: options.clock });
  // The link is traded once: a link seen later in a terminal, a journal or a browser's history opens nothing.
  let linkUsed = false;
  const cookieSession = (request: IncomingMessage) =>
    (request.headers.cookie ?? '')
      .split(';')
      .map((part) => part.trim().split('='))
      .find(([name]) => name === webSessionCookie)?.[1];
  const signedIn = (request: IncomingMessage) => sessions.isValid(cookieSession(request));

  const redirect = (response: ServerResponse, pathname: string) => {
    response.writeHead(303, { ...securityHeaders(), Location: sameOriginPath(pathname) });
    response.end();
  };

  const refuse = (response: ServerResponse, status: number, text: string) => {
    response.writeHead(status, { ...securityHeaders(), 'Content-Type': 'text/plain; charset=utf-8' });
    response.end(text);
  };

  const server = createServer(async (request, response) => {
    try {
      if (!hostAllowed(request)) return refuse(response, 421, 'This station answers on its loopback address only.');
      if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(response, 405, 'Method not allowed.');
      const url = parseRequestTarget(request.url);
      if (url === null) return refuse(response, 400, 'This address is not one the station serves.');
      const offered = url.searchParams.get('token');
      if (offered !== null) {
        if (!tokenMatches(offered)) return refuse(response, 401, 'This link has the wrong token. Use the link the web host printed when it started.');
        if (linkUsed) {
          // A page already signed in with it just goes on.
          if (signedIn(request)) return redirect(response, url.pathname);
          return refuse(response, 401, 'This link was already used to open the station. Use the page it opened, or restart the web host for a new link.');
        }
        linkUsed = true;
        response.writeHead(303, {
          ...securityHeaders(),
          'Set-Cookie': `${webSessionCookie}=${sessions.open()}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${Math.floor(sessionMaxAgeMs / 1000)}`,
          Location: sameOriginPath(url.pathname),
        });
        return response.end();
      }
      if (!signedIn(request)) {
        return refuse(response, 401, 'Open the station with the link the web host printed when it started (it carries a token).');
      }
      if (options.handoverDir && (await serveHandover(options.handoverDir, url.pathname, response, securityHeaders()))) return;
      if (!(await serveStaticFile(rendererDir, url.pathname, response, securityHeaders()))) refuse(response, 404, 'Not found.');
    } catch (error) {
      station.logger.error('web host request failed', { error: error instanceof Error ? error.message : String(error) });
      if (!response.headersSent) refuse(response, 500, 'The station could not answer this request.');
      else response.destroy();
    }
  });

  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  server.on('upgrade', (request, socket, head) => {
    // A browser always sends Origin on a WebSocket; a socket without one is not this page's.
    const origin = request.headers.origin;
    const originAllowed = origin === `http://${LOOPBACK}:${port}` || origin === `http://localhost:${port}`;
    const path = parseRequestTarget(request.url)?.pathname;
    if (!hostAllowed(request) || !originAllowed || path !== webSocketPath || !signedIn(request)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => bridge(ws));
  });

  const bridge = (ws: WebSocket) => {
    const send = (message: ServerMessage) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    const unsubscribe = station.events.subscribe((name, payload) => send({ type: 'event', name, payload }));
    ws.on('close', unsubscribe);
    ws.on('error', unsubscribe);
    ws.on('message', (data, isBinary) => void answer(data.toString(), isBinary));
    const answer = async (text: string, isBinary: boolean) => {
      const parsed = isBinary ? null : parseBoundedJson(text, clientMessageLimits);
      if (parsed && !parsed.ok && parsed.problem.kind !== 'not-json') {
        // A message too deep or too wide for any call is that call's refusal, when its id can be read.
        const id = leadingCallId(text);
        if (id !== null) {
          send({ type: 'result', id, result: { ok: false, error: { code: 'INVALID_INPUT', message: `The request was not valid: ${describeJsonProblem(parsed.problem)}.`, facts: { limit: parsed.problem.limit } } } });
          return;
        }
      }
      const message = parsed?.ok ? ClientMessageSchema.safeParse(parsed.value) : null;
      if (!message?.success) {
        ws.close(1003, 'Messages must be contract calls');
        return;
      }
      const { id, name, input } = message.data;
      let result: CallResult<unknown>;
      try {
        result = await station.dispatcher.dispatch(name, input, { host: 'web' });
      } catch (error) {
        // The dispatcher answers every failure as data; should it ever throw, the page still gets its answer.
        station.logger.error('web host call failed', { call: name, error, stack: error instanceof Error ? error.stack : undefined });
        result = { ok: false, error: { code: 'INTERNAL', message: 'Something went wrong inside the station. The details are in its log.' } };
      }
      send({ type: 'result', id, result });
    };
  };

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LOOPBACK, () => resolvePromise());
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://${LOOPBACK}:${port}`;

  return {
    url,
    port,
    token,
    launchUrl: `${url}/?token=${token}`,
    async close() {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolvePromise) => server.close(() => resolvePromise()));
    },
  };
}
