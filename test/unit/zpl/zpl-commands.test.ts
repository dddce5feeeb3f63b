/**
 * Every entry of the command table, each with an example written here by hand (not derived from
 * the table), and label content that must pass untouched.
 */
import { describe, expect, it } from 'vitest';
import { classifyZplCommand, zplCommandRules, type ZplCommandClass } from '../../../src/shared/zebra/zpl-commands';
import { scanZpl } from '../../../src/shared/zebra/zpl-scanner';

interface Example {
  /** A whole document; the command under test is the one named `name`. */
  zpl: string;
  name: string;
  expected: ZplCommandClass;
  /** Words the reason must contain. */
  reason?: RegExp;
  /** The table entry it exercises (command as the table spells it). */
  rule?: string;
}

const wrap = (inner: string) => `^XA${inner}^FO10,10^FDx^FS^XZ`;

const examples: Example[] = [
  // persisting what the label set
  { zpl: `~SD30${wrap('^JUS')}`, name: '^JU', expected: 'persists-settings', reason: /power-on settings/, rule: '^JUS' },
  { zpl: wrap('^jus'), name: '^JU', expected: 'persists-settings', reason: /power-on settings/, rule: '^JUS' },
  // changing the printer itself
  { zpl: `~JR${wrap('')}`, name: '~JR', expected: 'changes-printer', reason: /resets the printer/, rule: '~JR' },
  { zpl: wrap('^JUF'), name: '^JU', expected: 'changes-printer', reason: /factory settings/, rule: '^JUF' },
  { zpl: wrap('^JUN'), name: '^JU', expected: 'changes-printer', reason: /factory network/, rule: '^JUN' },
  { zpl: wrap('^JUA'), name: '^JU', expected: 'changes-printer', reason: /all of the printer's factory/, rule: '^JUA' },
  { zpl: wrap('^JUR'), name: '^JU', expected: 'changes-printer', reason: /last saved/, rule: '^JUR' },
  { zpl: wrap('^NBC'), name: '^NB', expected: 'changes-printer', reason: /network boot/, rule: '^NB' },
  { zpl: wrap('^NC2'), name: '^NC', expected: 'changes-printer', reason: /primary network device/, rule: '^NC' },
  { zpl: wrap('^ND2,P,10.1.1.9,255.255.255.0,10.1.1.1'), name: '^ND', expected: 'changes-printer', reason: /network settings/, rule: '^ND' },
  { zpl: wrap('^NI7'), name: '^NI', expected: 'changes-printer', reason: /network ID/, rule: '^NI' },
  { zpl: wrap('^NNbench,contact,here,public,private,public'), name: '^NN', expected: 'changes-printer', reason: /SNMP/, rule: '^NN' },
  { zpl: wrap('^NPP'), name: '^NP', expected: 'changes-printer', reason: /primary\/secondary/, rule: '^NP' },
  { zpl: wrap('^NSP,192.168.1.50,255.255.255.0,192.168.1.1'), name: '^NS', expected: 'changes-printer', reason: /wired network/, rule: '^NS' },
  { zpl: wrap('^NT10.0.0.25,example.com'), name: '^NT', expected: 'changes-printer', reason: /SMTP/, rule: '^NT' },
  { zpl: wrap('^NW5'), name: '^NW', expected: 'changes-printer', reason: /web server/, rule: '^NW' },
  { zpl: wrap('^WAD,D'), name: '^WA', expected: 'changes-printer', reason: /antenna/, rule: '^WA' },
  { zpl: wrap('^WE128,1,1,H,key'), name: '^WE', expected: 'changes-printer', reason: /encryption/, rule: '^WE' },
  { zpl: wrap('^WIP,10.0.0.8,255.0.0.0,10.0.0.1'), name: '^WI', expected: 'changes-printer', reason: /wireless network/, rule: '^WI' },
  { zpl: wrap('^WLOFF,user,pass'), name: '^WL', expected: 'changes-printer', reason: /wireless login/, rule: '^WL' },
  { zpl: wrap('^WP0,1234'), name: '^WP', expected: 'changes-printer', reason: /wireless password/, rule: '^WP' },
  { zpl: wrap('^WR1,2,3'), name: '^WR', expected: 'changes-printer', reason: /transmit rate/, rule: '^WR' },
  { zpl: `~WR${wrap('')}`, name: '~WR', expected: 'changes-printer', reason: /wireless card/, rule: '~WR' },
  { zpl: wrap('^WSessid,I,L,100'), name: '^WS', expected: 'changes-printer', reason: /radio/, rule: '^WS' },
  { zpl: wrap('^WX09,psk'), name: '^WX', expected: 'changes-printer', reason: /wireless security/, rule: '^WX' },
  { zpl: wrap('^KP4321'), name: '^KP', expected: 'changes-printer', reason: /password/, rule: '^KP' },
  { zpl: wrap('^KCN,Y,client'), name: '^KC', expected: 'changes-printer', reason: /client identifier/, rule: '^KC' },
  { zpl: wrap('^KNBench,desc'), name: '^KN', expected: 'changes-printer', reason: /renames/, rule: '^KN' },
  { zpl: wrap('^SC9600,8,N,1,X,N'), name: '^SC', expected: 'changes-printer', reason: /serial port/, rule: '^SC' },
  { zpl: wrap('^SXA,A,Y,Y,10.0.0.9'), name: '^SX', expected: 'changes-printer', reason: /alerts/, rule: '^SX' },
  { zpl: wrap('^ST01,01,2030,10,00,00,M'), name: '^ST', expected: 'changes-printer', reason: /clock/, rule: '^ST' },
  { zpl: `~ROC${wrap('')}`, name: '~RO', expected: 'changes-printer', reason: /counters/, rule: '~RO' },
  { zpl: `~JB${wrap('')}`, name: '~JB', expected: 'changes-printer', reason: /optional memory/, rule: '~JB' },
  { zpl: wrap('^JBE'), name: '^JB', expected: 'changes-printer', reason: /flash/, rule: '^JB' },
  { zpl: `~JIE:PROG.BAS${wrap('')}`, name: '~JI', expected: 'changes-printer', reason: /program/, rule: '~JI' },
  { zpl: wrap('^JIE:PROG.BAS,N,N'), name: '^JI', expected: 'changes-printer', reason: /program/, rule: '^JI' },
  { zpl: `~DGE:LOGO.GRF,2,1,FF00${wrap('')}`, name: '~DG', expected: 'changes-printer', reason: /permanent memory/, rule: '~DG' },
  { zpl: `~DGB:LOGO.GRF,2,1,FF00${wrap('')}`, name: '~DG', expected: 'changes-printer', reason: /permanent memory/, rule: '~DG' },
  { zpl: `~DYE:V90,B,T,3,0,abc${wrap('')}`, name: '~DY', expected: 'changes-printer', reason: /permanent memory/, rule: '~DY' },
  { zpl: `~DYR:CERT,A,NRD,4,0,AABB${wrap('')}`, name: '~DY', expected: 'changes-printer', reason: /credentials/, rule: '~DY' },
  { zpl: `~DBE:FONT.FNT,N,20,20,10,10,1,abc,#0041.4.4.0.0.FF${wrap('')}`, name: '~DB', expected: 'changes-printer', reason: /permanent memory/, rule: '~DB' },
  { zpl: `~DTE:FONT,4,AABB${wrap('')}`, name: '~DT', expected: 'changes-printer', reason: /permanent memory/, rule: '~DT' },
  { zpl: `~DUE:FONT,4,AABB${wrap('')}`, name: '~DU', expected: 'changes-printer', reason: /permanent memory/, rule: '~DU' },
  { zpl: `~DSE:FONT.FNT,4,AABB${wrap('')}`, name: '~DS', expected: 'changes-printer', reason: /permanent memory/, rule: '~DS' },
  { zpl: `~DEE:ENC.DAT,4,AABB${wrap('')}`, name: '~DE', expected: 'changes-printer', reason: /encoding table/, rule: '~DE' },
  { zpl: '^XA^DFE:FORM.ZPL^FS^FO10,10^FN1^FS^XZ', name: '^DF', expected: 'changes-printer', reason: /stores a format/, rule: '^DF' },
  { zpl: wrap('^ISE:IMAGE.GRF,N'), name: '^IS', expected: 'changes-printer', reason: /stores an image/, rule: '^IS' },
  { zpl: wrap('^IDE:*.GRF'), name: '^ID', expected: 'changes-printer', reason: /deletes files/, rule: '^ID' },
  { zpl: wrap('^IDB:LOGO.GRF'), name: '^ID', expected: 'changes-printer', reason: /deletes files/, rule: '^ID' },
  { zpl: wrap('^TOR:LOGO.GRF,E:LOGO.GRF'), name: '^TO', expected: 'changes-printer', reason: /copies files/, rule: '^TO' },
  { zpl: `! U1 setvar "ip.addr" "10.0.0.9"\r\n${wrap('')}`, name: '! U1 setvar', expected: 'changes-printer', reason: /setting/, rule: '! U1 setvar' },
  { zpl: `! U setvar "device.friendly_name" "x"\r\n${wrap('')}`, name: '! U setvar', expected: 'changes-printer', reason: /setting/, rule: '! U setvar' },
  { zpl: `! U1 do "device.reset" ""\r\n${wrap('')}`, name: '! U1 do', expected: 'changes-printer', reason: /action/, rule: '! U1 do' },
  { zpl: `! U do "file.delete" "E:LOGO.GRF"\r\n${wrap('')}`, name: '! U do', expected: 'changes-printer', reason: /action/, rule: '! U do' },
  { zpl: `{}{"device.reset":""}\r\n${wrap('')}`, name: '{}', expected: 'changes-printer', reason: /JSON/, rule: '{}' },
  { zpl: `{}{"ip.addr":"10.0.0.9","device.uptime":null}\r\n${wrap('')}`, name: '{}', expected: 'changes-printer', reason: /JSON/, rule: '{}' },

  // label content, including settings that last until power-off and RAM downloads
  { zpl: `~SD30${wrap('')}`, name: '~SD', expected: 'label-content' },
  { zpl: wrap('^PR4,4,4'), name: '^PR', expected: 'label-content' },
  { zpl: `~JO${wrap('')}`, name: '~JO', expected: 'label-content' },
  { zpl: `~JSN${wrap('')}`, name: '~JS', expected: 'label-content' },
  { zpl: wrap('^MNY'), name: '^MN', expected: 'label-content' },
  { zpl: wrap('^MTD'), name: '^MT', expected: 'label-content' },
  { zpl: `~TA000${wrap('')}`, name: '~TA', expected: 'label-content' },
  { zpl: wrap('^LS0'), name: '^LS', expected: 'label-content' },
  { zpl: `~DGR:LOGO.GRF,2,1,FF00${wrap('')}`, name: '~DG', expected: 'label-content' },
  { zpl: `~DGLOGO.GRF,2,1,FF00${wrap('')}`, name: '~DG', expected: 'label-content' },
  { zpl: `~DYR:LOGO,A,G,2,1,FF00${wrap('')}`, name: '~DY', expected: 'label-content' },
  { zpl: wrap('^XGR:LOGO.GRF,1,1'), name: '^XG', expected: 'label-content' },
  { zpl: wrap('^IDR:LOGO.GRF'), name: '^ID', expected: 'label-content' },
  { zpl: wrap('^TOE:LOGO.GRF,R:LOGO.GRF'), name: '^TO', expected: 'label-content' },
  { zpl: '^XA^DFR:FORM.ZPL^FS^XZ', name: '^DF', expected: 'label-content' },
  { zpl: wrap('^JUx'), name: '^JU', expected: 'label-content' },
  { zpl: `! U1 getvar "device.uptime"\r\n${wrap('')}`, name: '! U1 getvar', expected: 'label-content' },
  { zpl: `{}{"odometer.total_label_count":null}\r\n${wrap('')}`, name: '{}', expected: 'label-content' },
  { zpl: wrap('^FX NS, JR and JUS named in a comment without prefixes'), name: '^FX', expected: 'label-content' },
];

function classify(example: Example) {
  const scan = scanZpl(new TextEncoder().encode(example.zpl));
  if (!scan.ok) throw new Error(`${example.zpl}: ${scan.reason}`);
  const command = scan.commands.find((entry) => entry.name === example.name);
  if (!command) throw new Error(`${example.zpl}: no ${example.name} found`);
  return classifyZplCommand(command);
}

describe('the ZPL command table', () => {
  it.each(examples.map((example) => [example.zpl, example] as const))('%s', (_title, example) => {
    const classified = classify(example);
    expect(classified.class).toBe(example.expected);
    if (example.reason) expect(classified.reason).toMatch(example.reason);
    else expect(classified.reason).toBeNull();
  });

  it('has an example above for every entry of the table', () => {
    const exercised = new Set(examples.map((example) => example.rule).filter(Boolean));
    expect(zplCommandRules.map((rule) => rule.command).filter((command) => !exercised.has(command))).toEqual([]);
  });
});
