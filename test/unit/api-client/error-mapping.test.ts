import { describe, expect, it } from 'vitest';
import {
  classifyHttpFailure,
  classifyTransportFailure,
  parseServiceErrorBody,
  type CallContext,
  type Operation,
} from '../../../src/main/api/error-mapping';

const apiKey = 'sk_test_1234567890abcdef';
const ctx = (operation: Operation = 'read', subject: CallContext['subject'] = { kind: 'order', id: 'ORD-77' }): CallContext => ({
  operation,
  subject,
  describe: 'GET /orders/label/ORD-77',
  host: 'api.example.test',
  address: 'https://api.example.test/test',
  apiKey,
  timeouts: { connectMs: 3000, responseMs: 10_000, attemptMs: 20_000 },
});
const first = { number: 1, earlierMayHaveReached: false, nowMs: Date.parse('2025-03-01T12:00:00Z') };
const json = (value: unknown) => JSON.stringify(value);

describe('HTTP error statuses', () => {
  it('400 becomes VALIDATION with the service messages as details', () => {
    const body = json({ statusCode: 400, message: ['deliveryName should not be empty', 'locationId should not be empty'], error: 'Bad Request' });
    const { error, retry } = classifyHttpFailure(400, {}, body, ctx(), first);
    expect(error.code).toBe('VALIDATION');
    expect(error.status).toBe(400);
    expect(error.details).toEqual(['deliveryName should not be empty', 'locationId should not be empty']);
    expect(error.message).toContain('deliveryName should not be empty');
    expect(retry).toBe('none');
  });

  it('401 becomes KEY_REJECTED and tells the user to check the key', () => {
    const { error, retry } = classifyHttpFailure(401, {}, '', ctx(), first);
    expect(error.code).toBe('KEY_REJECTED');
    expect(error.message).toMatch(/Check the key/);
    expect(retry).toBe('none');
  });

  it('403 becomes FORBIDDEN naming what was refused', () => {
    const { error } = classifyHttpFailure(403, {}, '<html>Forbidden</html>', ctx(), first);
    expect(error.code).toBe('FORBIDDEN');
    expect(error.message).toContain('Order ORD-77');
  });

  it('404 becomes ORDER_NOT_FOUND naming the order or the bundle', () => {
    expect(classifyHttpFailure(404, {}, '', ctx(), first).error.message).toBe('Order ORD-77 was not found (HTTP 404).');
    const bundle = classifyHttpFailure(404, {}, 'Not Found', ctx('read', { kind: 'bundle', id: 'B-9' }), first).error;
    expect(bundle.code).toBe('ORDER_NOT_FOUND');
    expect(bundle.message).toBe('Bundle B-9 was not found (HTTP 404).');
  });

  it("406 becomes PICKUP_POINT_REJECTED carrying the service's message", () => {
    const message = 'No carrier offering pickup point delivery is available for this address';
    const { error } = classifyHttpFailure(406, {}, json({ statusCode: 406, message, error: 'Not Acceptable' }), ctx('create-order', { kind: 'new-order' }), first);
    expect(error.code).toBe('PICKUP_POINT_REJECTED');
    expect(error.serviceMessage).toBe(message);
    expect(error.details).toEqual([message]);
    expect(error.message).toContain(message);
  });

  it('429 becomes RATE_LIMITED, retryable, with the Retry-After wait', () => {
    const result = classifyHttpFailure(429, { 'retry-after': '7' }, '', ctx(), first);
    expect(result.error.code).toBe('RATE_LIMITED');
    expect(result.retry).toBe('transient');
    expect(result.retryAfterMs).toBe(7000);
    expect(result.error.retryAfterMs).toBe(7000);
    expect(result.error.message).toContain('Try again in 7 s');
  });

  it.each([500, 502, 503, 504])('%i becomes SERVER_ERROR, retryable, whatever the body', (status) => {
    for (const body of ['', '<!doctype html><h1>Bad gateway</h1>', '{"statusCode":500', 'null', '[]']) {
      const { error, retry } = classifyHttpFailure(status, {}, body, ctx(), first);
      expect(error.code).toBe('SERVER_ERROR');
      expect(error.status).toBe(status);
      expect(retry).toBe('transient');
    }
  });

  it('an unlisted 4xx is a permanent refusal quoting the service', () => {
    const { error, retry } = classifyHttpFailure(409, {}, json({ message: 'Order can no longer be cancelled' }), ctx('cancel-order'), first);
    expect(error.code).toBe('VALIDATION');
    expect(error.message).toContain('Order can no longer be cancelled');
    expect(retry).toBe('none');
  });

  it('a refused cancel after an ambiguous attempt says the order may already be cancelled', () => {
    const { error } = classifyHttpFailure(400, {}, json({ statusCode: 400, message: ['already cancelled'] }), ctx('cancel-order'), {
      ...first,
      number: 2,
      earlierMayHaveReached: true,
    });
    expect(error.message).toMatch(/earlier attempt may already have cancelled it/);
  });

  it('a redirect or other unexpected status is MALFORMED_RESPONSE', () => {
    expect(classifyHttpFailure(302, {}, '', ctx(), first).error.code).toBe('MALFORMED_RESPONSE');
  });
});

describe('POST /orders is never reported as safely failed when it may have been created', () => {
  const create = ctx('create-order', { kind: 'new-order', orderRef: 'REF-42' });

  it.each([500, 502, 503, 504])('%i is OUTCOME_UNKNOWN, not retried, telling the user to check first', (status) => {
    const { error, retry } = classifyHttpFailure(status, { 'retry-after': '1' }, '', create, first);
    expect(error.code).toBe('OUTCOME_UNKNOWN');
    expect(error.status).toBe(status);
    expect(error.message).toMatch(/may or may not have been created/);
    expect(error.message).toContain('REF-42');
    expect(retry).toBe('none');
  });

  it('429 is RATE_LIMITED, not repeated, and says the order was not created', () => {
    const { error, retry } = classifyHttpFailure(429, { 'retry-after': '2' }, '', create, first);
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.message).toContain('The order was not created');
    expect(retry).toBe('none');
  });

  it('a timeout or a broken connection after sending is OUTCOME_UNKNOWN', () => {
    expect(classifyTransportFailure({ kind: 'timeout', stage: 'response', cause: null }, create, first).error.code).toBe('OUTCOME_UNKNOWN');
    expect(classifyTransportFailure({ kind: 'connection-lost', code: 'ECONNRESET', cause: null }, create, first).error.code).toBe('OUTCOME_UNKNOWN');
    expect(classifyTransportFailure({ kind: 'too-large', limitBytes: 1024 }, create, first).error.code).toBe('OUTCOME_UNKNOWN');
  });

  it('a refused connection is NETWORK: nothing was sent, so the order was not created', () => {
    const { error, retry } = classifyTransportFailure({ kind: 'connect', code: 'ECONNREFUSED', timedOut: false, permanent: false, cause: null }, create, first);
    expect(error.code).toBe('NETWORK');
    expect(error.message).toContain('The order was not created (nothing was sent)');
    expect(retry).toBe('none');
  });
});

describe('transport failures on requests that are safe to repeat', () => {
  it('a refused connection is NETWORK and retryable, naming the address for the screen', () => {
    const result = classifyTransportFailure({ kind: 'connect', code: 'ECONNREFUSED', timedOut: false, permanent: false, cause: null }, ctx(), first);
    expect(result.error.code).toBe('NETWORK');
    expect(result.error.message).toContain('api.example.test');
    expect(result.error.facts).toEqual({ address: 'https://api.example.test/test' });
    expect(result.retry).toBe('transient');
  });

  it('an untrusted certificate is NETWORK and not retried', () => {
    const result = classifyTransportFailure({ kind: 'connect', code: 'DEPTH_ZERO_SELF_SIGNED_CERT', timedOut: false, permanent: true, cause: null }, ctx(), first);
    expect(result.error.code).toBe('NETWORK');
    expect(result.retry).toBe('none');
  });

  it('a connect timeout and a response timeout are TIMEOUT and retryable', () => {
    const connect = classifyTransportFailure({ kind: 'connect', code: 'UND_ERR_CONNECT_TIMEOUT', timedOut: true, permanent: false, cause: null }, ctx(), first);
    expect([connect.error.code, connect.retry]).toEqual(['TIMEOUT', 'transient']);
    const response = classifyTransportFailure({ kind: 'timeout', stage: 'response', cause: null }, ctx(), first);
    expect([response.error.code, response.retry]).toEqual(['TIMEOUT', 'transient']);
    expect(response.error.message).toContain('10 s');
    expect([connect.error.facts, response.error.facts]).toEqual([{ address: 'https://api.example.test/test' }, { address: 'https://api.example.test/test' }]);
  });

  it('a reset is NETWORK and retryable', () => {
    const result = classifyTransportFailure({ kind: 'connection-lost', code: 'UND_ERR_SOCKET', cause: null }, ctx(), first);
    expect([result.error.code, result.retry]).toEqual(['NETWORK', 'transient']);
  });

  it('an oversized answer is MALFORMED_RESPONSE', () => {
    expect(classifyTransportFailure({ kind: 'too-large', limitBytes: 64 * 1024 * 1024 }, ctx(), first).error.code).toBe('MALFORMED_RESPONSE');
  });
});

describe('error bodies', () => {
  it('reads the spec form and loose JSON with a message', () => {
    expect(parseServiceErrorBody(json({ statusCode: 400, message: ['a', 'b'], error: 'Bad Request' }))).toEqual({ messages: ['a', 'b'], single: false });
    expect(parseServiceErrorBody(json({ message: 'one thing' }))).toEqual({ messages: ['one thing'], single: true });
  });

  it.each(['', '<html><body>502</body></html>', 'null', '42', '"text"', '{"message":7}', '{"message":[]}', '{"detail":"x"}'])(
    'ignores a body it cannot use: %s',
    (body) => {
      expect(parseServiceErrorBody(body)).toBeUndefined();
    },
  );

  it('keeps only string messages and bounds their number and length', () => {
    const parsed = parseServiceErrorBody(json({ message: ['ok', 5, null, 'x'.repeat(2000), ...Array.from({ length: 50 }, (_, i) => `m${i}`)] }));
    expect(parsed?.messages[0]).toBe('ok');
    expect(parsed?.messages[1]).toHaveLength(500);
    expect(parsed?.messages).toHaveLength(20);
  });

  it('never repeats the API key, even if the service echoes it', () => {
    const body = json({ statusCode: 400, message: [`api-key ${apiKey} is malformed`] });
    const { error } = classifyHttpFailure(400, {}, body, ctx(), first);
    expect(JSON.stringify(error.toData())).not.toContain(apiKey);
    expect(error.message).toContain('[redacted]');
  });
});
