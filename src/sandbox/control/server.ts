/**
 * The operator's control interface (the spec's "service operator"): a separate HTTP server on
 * loopback, every request carrying `Authorization: Bearer <token>`. It registers webhooks, moves
 * orders through statuses, issues and revokes keys, changes company label settings, sets fault
 * knobs, resets to the seed, lists today's orders and drives the virtual printers.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ZodError } from 'zod';
import type { LabelDocuments } from '../label-documents';
import type { VirtualZebra } from '../printer/virtual-zebra';
import { readBody, parseJsonBody } from '../http/body';
import { HttpError, errorBody } from '../http/errors';
import { sendJson, sendRaw } from '../http/respond';
import { issueMessages, validate } from '../http/validation';
import type { Random } from '../random';
import { SettingsPatchSchema, applySettingsPatch, type Settings } from '../settings';
import type { WebhookDispatcher } from '../webhooks/dispatcher';
import { newApiKey } from '../world/seed';
import { StatusMoveError } from '../world/statuses';
import { environmentNames, type Company, type EnvironmentName, type EnvironmentState } from '../world/types';
import { orderRecord } from '../world/views';
import type { World } from '../world/world';
import {
  BatchStatusMoveSchema,
  CompanySettingsPatchSchema,
  IssueKeySchema,
  PowerCycleSchema,
  PrinterIdentitySchema,
  PrinterSpeedSchema,
  ResetSchema,
  RevokeKeySchema,
  StatusMoveSchema,
  SuppliedLabelSchema,
  WaitIdleSchema,
  WebhookRegistrationSchema,
} from './schemas';
import { errorText } from '../../shared/error-text';

export interface ControlDeps {
  token: string;
  world: () => World;
  settings: Settings;
  dispatcher: WebhookDispatcher;
  printers: readonly VirtualZebra[];
  /** Label documents, for serving an order's label as supplied. */
  labels: LabelDocuments;
  /** The same object as the CLI's first line. */
  describe: () => unknown;
  /** Back to the seed: new world, empty label cache, fresh rate limits. */
  reset: (keepWebhooks: boolean) => void;
  random: Random;
}

interface Call {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
}

type Answer = { status: number; body: unknown } | { status: number; png: Buffer };
type Handler = (call: Call) => Answer | Promise<Answer>;

interface ControlRoute {
  method: string;
  segments: string[];
  body: boolean;
  handle: Handler;
}

const ok = (body: unknown, status = 200): Answer => ({ status, body });

export function createControlServer(deps: ControlDeps): Server {
  const expected = Buffer.from(`Bearer ${deps.token}`);

  const environment = (name: string | undefined): EnvironmentState => {
    if (!environmentNames.includes(name as EnvironmentName)) throw new HttpError(404, `Unknown environment ${name}; use test or live`);
    return deps.world().env(name as EnvironmentName);
  };

  const companyOf = (env: EnvironmentState, reference: string): Company => {
    const company = env.companies.get(reference) ?? [...env.companies.values()].find((c) => c.name === reference);
    if (!company) throw new HttpError(404, `Unknown company ${reference} in ${env.name}`);
    return company;
  };

  const printerOf = (reference: string): VirtualZebra => {
    const byIndex = /^\d+$/.test(reference) ? deps.printers[Number(reference)] : undefined;
    const printer = byIndex ?? deps.printers.find((p) => p.name === reference);
    if (!printer) throw new HttpError(404, `Unknown printer ${reference}`);
    return printer;
  };

  const orderOf = (env: EnvironmentState, orderId: string) => {
    const order = env.orders.get(orderId);
    if (!order) throw new HttpError(404, `Order ${orderId} not found in ${env.name}`);
    return order;
  };

  const companyView = (company: Company) => ({ id: company.id, name: company.name, settings: { ...company.settings }, locationIds: company.locationIds.map(String) });

  const routes: ControlRoute[] = [];
  const on = (method: string, path: string, handle: Handler, body = false) =>
    routes.push({ method, segments: path.split('/').filter(Boolean), body, handle });

  on('GET', '/', () => ok(deps.describe()));
  on('GET', '/settings', () => ok(deps.settings));
  on('PATCH', '/settings', ({ body }) => ok(applySettingsPatch(deps.settings, validate(SettingsPatchSchema, body))), true);
  on('POST', '/reset', ({ body }) => {
    const { keepWebhooks } = validate(ResetSchema, body);
    deps.reset(keepWebhooks ?? false);
    return ok({ reset: true, keepWebhooks: keepWebhooks ?? false });
  }, true);

  on('GET', '/environments/:env/todays-orders', ({ params }) => ok({ orders: deps.world().todaysOrders(environment(params.env).name) }));
  on('GET', '/environments/:env/companies', ({ params }) => ok({ companies: [...environment(params.env).companies.values()].map(companyView) }));
  on('PATCH', '/environments/:env/companies/:company/settings', ({ params, body }) => {
    const env = environment(params.env);
    const company = companyOf(env, params.company!);
    const patch = validate(CompanySettingsPatchSchema, body);
    if (patch.orientation) company.settings.orientation = patch.orientation;
    if (patch.printSize) company.settings.printSize = patch.printSize;
    return ok(companyView(company));
  }, true);

  on('GET', '/environments/:env/orders', ({ params, query }) => {
    const env = environment(params.env);
    const orderRef = query.get('orderRef');
    const barcode = query.get('barcode');
    const bundleId = query.get('bundleId');
    const orders = [...env.orders.values()].filter(
      (order) => (orderRef === null || order.orderRef === orderRef) && (barcode === null || order.barcode === barcode) && (bundleId === null || order.bundle.bundleId === bundleId),
    );
    return ok({ orders: orders.map((order) => ({ ...orderRecord(order), companyId: order.companyId })) });
  });
  on('GET', '/environments/:env/orders/:orderId', ({ params }) => {
    const env = environment(params.env);
    const order = orderOf(env, params.orderId!);
    // Weight and dimensions as created (the API's order record does not carry them; its webhooks do).
    return ok({ ...orderRecord(order), companyId: order.companyId, carrier: order.carrier, attempt: order.attempt, labelReadyAt: new Date(order.labelReadyAt).toISOString(), weight: order.weight ?? null, dimensions: order.dimensions ?? null });
  });
  on('PUT', '/environments/:env/orders/:orderId/label', ({ params, body }) => {
    const env = environment(params.env);
    const order = orderOf(env, params.orderId!);
    const { base64, pdf } = validate(SuppliedLabelSchema, body);
    const document = Buffer.from(base64, 'base64');
    deps.labels.supply(env, order, document, { pdf });
    return ok({ orderId: order.orderId, format: 'zpl', bytes: document.length });
  }, true);
  on('POST', '/environments/:env/orders/:orderId/status', ({ params, body }) => {
    const env = environment(params.env);
    const order = orderOf(env, params.orderId!);
    const { status } = validate(StatusMoveSchema, body);
    try {
      const previousStatus = deps.world().moveOrder(env, order, status);
      return ok({ orderId: order.orderId, previousStatus, status });
    } catch (error) {
      if (error instanceof StatusMoveError) throw new HttpError(409, error.message);
      throw error;
    }
  }, true);
  on('POST', '/environments/:env/statuses', ({ params, body }) => {
    const env = environment(params.env);
    const { moves } = validate(BatchStatusMoveSchema, body);
    const results = moves.map(({ orderId, status }) => {
      const order = env.orders.get(orderId);
      if (!order) return { orderId, status, moved: false, error: 'order not found' };
      try {
        const previousStatus = deps.world().moveOrder(env, order, status);
        return { orderId, status, moved: true, previousStatus };
      } catch (error) {
        return { orderId, status, moved: false, error: errorText(error) };
      }
    });
    return ok({ moved: results.filter((r) => r.moved).length, results });
  }, true);

  on('GET', '/environments/:env/webhooks', ({ params }) => ok({ webhooks: environment(params.env).webhooks }));
  on('POST', '/environments/:env/webhooks', ({ params, body }) => {
    const env = environment(params.env);
    const request = validate(WebhookRegistrationSchema, body);
    const company = companyOf(env, request.company);
    const registration = { id: `wh_${deps.random.chars(12, 'abcdefghijkmnopqrstuvwxyz23456789')}`, companyId: company.id, statuses: request.statuses, url: request.url };
    env.webhooks.push(registration);
    return ok(registration, 201);
  }, true);
  on('DELETE', '/environments/:env/webhooks/:id', ({ params }) => {
    const env = environment(params.env);
    const index = env.webhooks.findIndex((w) => w.id === params.id);
    if (index < 0) throw new HttpError(404, `Unknown webhook registration ${params.id}`);
    env.webhooks.splice(index, 1);
    return ok({ deleted: params.id });
  });
  on('GET', '/environments/:env/webhook-deliveries', ({ params, query }) => {
    const env = environment(params.env);
    const orderId = query.get('orderId');
    const deliveries = deps.dispatcher.deliveries().filter((d) => d.environment === env.name && (orderId === null || d.orderId === orderId));
    return ok({ deliveries });
  });
  on('POST', '/webhooks/wait-idle', async ({ body }) => {
    const { timeoutMs = 30_000 } = validate(WaitIdleSchema, body);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const idle = await Promise.race([deps.dispatcher.idle().then(() => true), timedOut]);
    clearTimeout(timer);
    return ok({ idle });
  }, true);

  on('GET', '/environments/:env/keys', ({ params }) => ok({ keys: [...environment(params.env).keys.values()] }));
  on('POST', '/environments/:env/keys', ({ params, body }) => {
    const env = environment(params.env);
    const { companies } = validate(IssueKeySchema, body);
    const companyIds = [...new Set(companies.map((reference) => companyOf(env, reference).id))];
    const record = { key: newApiKey(env.name, env.random), companyIds, revoked: false, issuedAt: new Date().toISOString() };
    env.keys.set(record.key, record);
    return ok(record, 201);
  }, true);
  on('POST', '/environments/:env/keys/revoke', ({ params, body }) => {
    const env = environment(params.env);
    const { apiKey } = validate(RevokeKeySchema, body);
    const record = env.keys.get(apiKey);
    if (!record) throw new HttpError(404, `No such key in ${env.name}`);
    record.revoked = true;
    return ok(record);
  }, true);

  on('GET', '/printers', () => ok({ printers: deps.printers.map((printer) => printer.state()) }));
  on('GET', '/printers/:printer', ({ params }) => ok(printerOf(params.printer!).state()));
  on('PATCH', '/printers/:printer/faults', async ({ params, body }) => ok(await printerOf(params.printer!).setFaults(body)), true);
  on('DELETE', '/printers/:printer/faults', async ({ params }) => ok(await printerOf(params.printer!).clearFaults()));
  on('PUT', '/printers/:printer/speed', ({ params, body }) => {
    const printer = printerOf(params.printer!);
    printer.setLabelsPerSecond(validate(PrinterSpeedSchema, body).labelsPerSecond);
    return ok(printer.state());
  }, true);
  on('GET', '/printers/:printer/printed', ({ params }) =>
    ok({ labels: printerOf(params.printer!).printed().map((label) => ({ ...label, printedAt: new Date(label.printedAt).toISOString() })) }),
  );
  on('GET', '/printers/:printer/discarded', ({ params }) => ok({ formats: printerOf(params.printer!).discarded() }));
  on('POST', '/printers/:printer/power-cycle', async ({ params, body }) => {
    const printer = printerOf(params.printer!);
    await printer.powerCycle(validate(PowerCycleSchema, body ?? {}));
    return ok(printer.state());
  }, true);
  on('PUT', '/printers/:printer/identity', async ({ params, body }) => {
    const printer = printerOf(params.printer!);
    await printer.replaceWith(validate(PrinterIdentitySchema, body));
    return ok(printer.state());
  }, true);
  on('GET', '/printers/:printer/received', ({ params }) =>
    ok({ connections: printerOf(params.printer!).received().map(({ connectionId, bytes }) => ({ connectionId, base64: bytes.toString('base64') })) }),
  );
  on('GET', '/printers/:printer/configuration-commands', ({ params }) => ok({ commands: printerOf(params.printer!).configurationCommands() }));
  on('GET', '/printers/:printer/printed/:index/png', async ({ params }) => {
    const printer = printerOf(params.printer!);
    if (!/^\d+$/.test(params.index!)) throw new HttpError(400, ['index must be a non-negative integer']);
    try {
      return { status: 200, png: await printer.renderPng(Number(params.index)) };
    } catch (error) {
      if (error instanceof RangeError) throw new HttpError(404, error.message);
      throw error;
    }
  });

  const match = (method: string, segments: string[]) => {
    for (const route of routes) {
      if (route.method !== method || route.segments.length !== segments.length) continue;
      const params: Record<string, string> = {};
      const fits = route.segments.every((pattern, i) => {
        const actual = segments[i]!;
        if (!pattern.startsWith(':')) return pattern === actual;
        if (actual === '') return false;
        try {
          params[pattern.slice(1)] = decodeURIComponent(actual);
          return true;
        } catch {
          return false;
        }
      });
      if (fits) return { route, params };
    }
    return undefined;
  };

  const authorized = (req: IncomingMessage) => {
    const given = Buffer.from(req.headers.authorization ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (!authorized(req)) throw new HttpError(401, 'Missing or wrong control token (Authorization: Bearer <token>)');
    const rawUrl = req.url ?? '/';
    const queryAt = rawUrl.indexOf('?');
    const path = queryAt < 0 ? rawUrl : rawUrl.slice(0, queryAt);
    const segments = path === '/' ? [] : path.split('/').slice(1);
    const found = match(req.method ?? '', segments);
    if (!found) throw new HttpError(404, `No control endpoint ${req.method} ${path}`);
    const body = found.route.body ? parseJsonBody(await readBody(req, 8 * 1024 * 1024), req.headers['content-type']) : undefined;
    const answer = await found.route.handle({ params: found.params, query: new URLSearchParams(queryAt < 0 ? '' : rawUrl.slice(queryAt + 1)), body });
    if ('png' in answer) sendRaw(res, answer.status, answer.png, {}, 'image/png');
    else sendJson(res, answer.status, answer.body);
  };

  return createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) return sendJson(res, error.status, error.body, error.headers);
      if (error instanceof ZodError) return sendJson(res, 400, errorBody(400, issueMessages(error)));
      sendJson(res, 500, errorBody(500, error instanceof Error ? error.message : 'Internal error'));
    });
  });
}
