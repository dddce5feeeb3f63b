// The record of commands that change the printer itself or persist settings: every such command
// that reaches the printer is listed, label content never is.
import { describe, expect, it } from 'vitest';
import { usePrinters } from './printer-fixture';

const { startPrinter, open } = usePrinters();

// Each: what is sent, and what the record must show for it (null: label content, not recorded).
const CASES: [sent: string, recorded: string | null][] = [
  ['^XA^JUF^XZ', '^JUF'],
  ['^XA^JUN^XZ', '^JUN'],
  ['^XA^JUA^XZ', '^JUA'],
  ['^XA^JUR^XZ', '^JUR'],
  ['^XA~SD22^JUS^FO1,1^FDx^FS^XZ', '^JUS'],
  ['^XA^NC1^XZ', '^NC1'],
  ['^XA^NSS,10.0.0.9,255.255.255.0,10.0.0.1^XZ', '^NSS,10.0.0.9,255.255.255.0,10.0.0.1'],
  ['^XA^ND2,P,10.0.0.9^XZ', '^ND2,P,10.0.0.9'],
  ['^XA^NBC^XZ', '^NBC'],
  ['^XA^NNbench,contact,location^XZ', '^NNbench,contact,location'],
  ['^XA^NP^XZ', '^NP'],
  ['^XA^KP5678^XZ', '^KP5678'],
  ['^XA^KCY,,,^XZ', '^KCY,,,'],
  ['^XA^KNnew name^XZ', '^KNnew name'],
  ['^XA^IDE:LOGO.GRF^FS^XZ', '^IDE:LOGO.GRF'],
  ['^XA^IDB:*.*^FS^XZ', '^IDB:*.*'],
  ['^XA^DFE:FORM.ZPL^FS^FO1,1^FN1^FS^XZ', '^DFE:FORM.ZPL'],
  ['^XA^ISE:LABEL.GRF,N^FS^XZ', '^ISE:LABEL.GRF,N'],
  ['~DGE:LOGO.GRF,2,1,FFFF', '~DGE:LOGO.GRF,2,1,'],
  ['~DYE:FONT,B,T,3,0,abc', '~DYE:FONT,B,T,3,0,'],
  ['~DYR:V84.ZPL,B,B,4,0,\x00^XA', '~DYR:V84.ZPL,B,B,4,0,'],
  ['! U1 setvar "ip.addr" "10.0.0.9"\r\n', '! U1 setvar "ip.addr" "10.0.0.9"'],
  ['! U1 do "device.reset" ""\r\n', '! U1 do "device.reset" ""'],
  ['{}{"ip.dhcp.enable":"off"}', '{}{"ip.dhcp.enable":"off"}'],
  // Label content: settings that last until power-off, RAM downloads and deletes, queries.
  ['~SD25', null],
  ['~JO~TA000~JSN', null],
  ['^XA^PR4^MD10^PW812^LL1218^POI^LH10,10^FO1,1^FDx^FS^PQ2^XZ', null],
  ['~DGR:LOGO.GRF,2,1,FFFF^XA^XGR:LOGO.GRF,1,1^FS^IDR:LOGO.GRF^FS^XZ', null],
  ['^XA^DFR:FORM.ZPL^FS^XZ', null],
  ['! U1 getvar "device.unique_id"\r\n', null],
  ['{}{"device.friendly_name":null}', null],
];

describe('configuration record', () => {
  it('lists every command that changes the printer or persists settings, in order, and no label content', async () => {
    const { printer, port } = await startPrinter();
    const client = await open(port);
    for (const [sent] of CASES) await client.send(Buffer.from(sent, 'latin1'));
    // A query answered after everything else proves everything before it has been read.
    expect(await client.ask('! U1 getvar "device.languages"\r\n', (reply) => reply.endsWith('"zpl"'))).toMatch(/"zpl"$/);
    await expect.poll(() => printer.stats().formatsReceived).toBe(CASES.filter(([sent]) => sent.includes('^XZ')).length);

    const expected = CASES.flatMap(([, recorded]) => (recorded === null ? [] : [recorded]));
    expect(printer.configurationCommands().map((record) => record.command)).toEqual(expected);
  });

  it('stamps each record with the printer clock', async () => {
    let now = 1_700_000_000_000;
    const { printer, port } = await startPrinter({ now: () => now });
    const client = await open(port);
    await client.send('^XA^JUN^XZ');
    await expect.poll(() => printer.configurationCommands().length).toBe(1);
    now += 5000;
    await client.send('^XA^JUS^XZ');
    await expect.poll(() => printer.configurationCommands().length).toBe(2);
    expect(printer.configurationCommands()).toEqual([
      { command: '^JUN', at: 1_700_000_000_000 },
      { command: '^JUS', at: 1_700_000_005_000 },
    ]);
  });

  it.each([
    ['~JR', 'outside a format'],
    ['^XA~JR^XZ', 'inside a format'],
  ])('records %s (%s), and the printer restarts as at power-on: unsaved settings are gone, saved ones stay', async (reset) => {
    const { printer, port } = await startPrinter();
    const client = await open(port);
    await client.send('~SD25\r\n^XA^PR2^JUS^XZ\r\n^XA^PR6^MTD^XZ');
    await expect.poll(() => printer.state().settings).toMatchObject({ darkness: 25, speedIps: 6, printMethod: 'direct thermal' });
    const closed = new Promise((resolve) => client.socket.once('close', resolve));
    await client.send(reset);
    await closed;
    await expect.poll(() => printer.configurationCommands().map((record) => record.command)).toEqual(['^JUS', '~JR']);
    await expect.poll(() => printer.state().poweredOn).toBe(true);
    // ~SD25 was saved by the ^JUS after it; ^PR6 and ^MTD came after the save.
    expect(printer.state().settings).toMatchObject({ darkness: 25, speedIps: 2, printMethod: 'thermal transfer' });
  });

  it('answers the JSON form of SGD with the values asked for', async () => {
    const { port } = await startPrinter({ name: 'Bench 7', serial: 'D8J2245' });
    const client = await open(port);
    const reply = await client.ask('{}{"device.unique_id":null,"device.friendly_name":null}', (text) => text.endsWith('}'));
    expect(JSON.parse(reply)).toEqual({ 'device.unique_id': 'D8J2245', 'device.friendly_name': 'Bench 7' });
  });
});
