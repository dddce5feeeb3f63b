// The virtual printer's control routes, over the sandbox's real control HTTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../sandbox/harness';
import { connect, label, quotedValue } from './raw-client';

let h: Harness;
let port: number;
beforeAll(async () => {
  h = await startHarness({ seedSize: 'small', printers: 1, printerLabelsPerSecond: 2 });
  port = h.sandbox.printers[0]!.port;
});
afterAll(() => h.close());

describe('control API: power, identity and records of the virtual printer', () => {
  it('power-cycles a printer: answers once it is back on, with the buffer lost and the counter kept', async () => {
    const client = await connect(port);
    await client.send(label(1) + label(2) + label(3));
    await expect.poll(async () => (await h.control('GET', '/printers/0')).body.status.formatsInBuffer).toBe(3);

    const cycled = await h.control('POST', '/printers/0/power-cycle', { offMs: 50 });

    expect(cycled.status).toBe(200);
    expect(cycled.body).toMatchObject({ poweredOn: true, listening: true, status: { formatsInBuffer: 0 } });
    expect((await client.closed).error?.code).toBe('ECONNRESET');
    const discarded = (await h.control('GET', '/printers/0/discarded')).body.formats as { reason: string }[];
    expect(discarded.filter((format) => format.reason === 'power-cycle')).toHaveLength(3);
    expect((await h.control('POST', '/printers/0/power-cycle', { offMs: -5 })).status).toBe(400);
    expect((await h.control('POST', '/printers/0/power-cycle', { off: 5 })).status).toBe(400);
    expect((await h.control('POST', '/printers/0/power-cycle')).status).toBe(200);
  });

  it('puts another printer at the address: its identity answers over the wire', async () => {
    const replaced = await h.control('PUT', '/printers/Virtual%20Zebra/identity', { model: 'ZT411-300dpi', dpi: 300, printWidthDots: 1248, serial: 'ZT411TEST01', odometerStart: 42 });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ identity: { model: 'ZT411-300dpi', dpi: 300, printWidthDots: 1248, serial: 'ZT411TEST01' }, odometer: 42 });
    const client = await connect(port);
    expect(await client.ask('! U1 getvar "device.unique_id"\r\n', quotedValue)).toBe('"ZT411TEST01"');
    expect(await client.ask('! U1 getvar "odometer.total_label_count"\r\n', quotedValue)).toBe('"42"');
    await client.close();
    expect((await h.control('PUT', '/printers/0/identity', { dpi: 'high' })).status).toBe(400);
    expect((await h.control('PUT', '/printers/0/identity', { colour: 'red' })).status).toBe(400);
  });

  it('lists the raw bytes per connection and the configuration commands that reached the printer', async () => {
    const before = (await h.control('GET', '/printers/0/received')).body.connections as { connectionId: number }[];
    const sent = Buffer.concat([Buffer.from('\xEF\xBB\xBF', 'latin1'), Buffer.from(`~SD25^XA^JUS^NS,192.168.0.9^FO9,9^FDö^FS^XZ`, 'utf8')]);
    const client = await connect(port);
    await client.send(sent);
    await client.close();
    await expect.poll(async () => (await h.control('GET', '/printers/0/received')).body.connections.length).toBe(before.length + 1);
    const connections = (await h.control('GET', '/printers/0/received')).body.connections as { connectionId: number; base64: string }[];
    const latest = connections.at(-1)!;
    expect(Buffer.from(latest.base64, 'base64').equals(sent)).toBe(true);
    expect(before.map((entry) => entry.connectionId)).not.toContain(latest.connectionId);

    const { commands } = (await h.control('GET', '/printers/0/configuration-commands')).body as { commands: { command: string; at: number }[] };
    expect(commands.map((record) => record.command)).toEqual(['^JUS', '^NS,192.168.0.9']);
    expect(commands.every((record) => typeof record.at === 'number')).toBe(true);
  });

  it('answers 404 for a printer that does not exist', async () => {
    expect((await h.control('POST', '/printers/7/power-cycle', {})).status).toBe(404);
    expect((await h.control('GET', '/printers/nope/received')).status).toBe(404);
  });
});
