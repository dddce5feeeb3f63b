/**
 * The three classes of ZPL commands, in one table (mirrored in docs/printing.md, "Which ZPL the
 * station sends"). A carrier's label may do anything a label legitimately does, including settings
 * that last until the printer is switched off (darkness, speed, media type, backfeed, downloads to
 * its RAM). It may not decide the bench's power-on settings, and it may not change the printer
 * itself: those belong to whoever administers the bench.
 */
import type { ZplCommand } from './zpl-scanner';

export type ZplCommandClass =
  /** Sent unchanged. */
  | 'label-content'
  /** Removed from the bytes sent (only the command itself); the label prints and the journal says so. */
  | 'persists-settings'
  /** The label is not printed; the packer is told which command and why. */
  | 'changes-printer';

export interface ZplCommandRule {
  /** Command with the standard prefixes (see ZplCommand.name); `^JU` rules name their parameter too. */
  command: string;
  class: Exclude<ZplCommandClass, 'label-content'>;
  /** When the rule applies; by default always. */
  when?: 'non-volatile-drive' | 'non-volatile-destination' | 'sets-a-value' | 'printer-file-type';
  /** Why, in the words the packer sees after the command's name. */
  reason: string;
}

/**
 * Every command not listed here is label content. Drives: R: is the printer's RAM (gone at
 * power-off); E: (flash), B: (optional memory) and A: (memory card) keep what is written to them.
 */
export const zplCommandRules: readonly ZplCommandRule[] = [
  { command: '^JUS', class: 'persists-settings', reason: "would save the label's settings as the printer's power-on settings" },

  { command: '~JR', class: 'changes-printer', reason: 'resets the printer' },
  { command: '^JUF', class: 'changes-printer', reason: "restores the printer's factory settings" },
  { command: '^JUN', class: 'changes-printer', reason: "restores the printer's factory network settings" },
  { command: '^JUA', class: 'changes-printer', reason: "restores all of the printer's factory settings, network included" },
  { command: '^JUR', class: 'changes-printer', reason: "replaces the printer's current settings with its last saved ones" },
  { command: '^NB', class: 'changes-printer', reason: "changes the printer's network boot settings" },
  { command: '^NC', class: 'changes-printer', reason: "changes the printer's primary network device" },
  { command: '^ND', class: 'changes-printer', reason: "changes the printer's network settings" },
  { command: '^NI', class: 'changes-printer', reason: "changes the printer's network ID" },
  { command: '^NN', class: 'changes-printer', reason: "changes the printer's SNMP settings" },
  { command: '^NP', class: 'changes-printer', reason: "changes the printer's primary/secondary network device" },
  { command: '^NS', class: 'changes-printer', reason: "changes the printer's wired network settings" },
  { command: '^NT', class: 'changes-printer', reason: "changes the printer's SMTP settings" },
  { command: '^NW', class: 'changes-printer', reason: "changes the printer's web server settings" },
  { command: '^WA', class: 'changes-printer', reason: "changes the printer's wireless antenna settings" },
  { command: '^WE', class: 'changes-printer', reason: "changes the printer's wireless encryption keys" },
  { command: '^WI', class: 'changes-printer', reason: "changes the printer's wireless network settings" },
  { command: '^WL', class: 'changes-printer', reason: "changes the printer's wireless login" },
  { command: '^WP', class: 'changes-printer', reason: "changes the printer's wireless password" },
  { command: '^WR', class: 'changes-printer', reason: "changes the printer's wireless transmit rate" },
  { command: '~WR', class: 'changes-printer', reason: "resets the printer's wireless card" },
  { command: '^WS', class: 'changes-printer', reason: "changes the printer's wireless radio settings" },
  { command: '^WX', class: 'changes-printer', reason: "changes the printer's wireless security settings" },
  { command: '^KP', class: 'changes-printer', reason: "changes the printer's front-panel password" },
  { command: '^KC', class: 'changes-printer', reason: "changes the printer's network client identifier" },
  { command: '^KN', class: 'changes-printer', reason: "renames the printer on the network" },
  { command: '^SC', class: 'changes-printer', reason: "changes the printer's serial port settings" },
  { command: '^SX', class: 'changes-printer', reason: "changes the printer's network alerts" },
  { command: '^ST', class: 'changes-printer', reason: "sets the printer's clock" },
  { command: '~RO', class: 'changes-printer', reason: "resets the printer's counters" },
  { command: '~JB', class: 'changes-printer', reason: "erases the printer's optional memory" },
  { command: '^JB', class: 'changes-printer', reason: "erases the printer's flash memory" },
  { command: '~JI', class: 'changes-printer', reason: 'starts a program on the printer (ZBI)' },
  { command: '^JI', class: 'changes-printer', reason: 'starts a program on the printer (ZBI)' },
  { command: '~DG', class: 'changes-printer', when: 'non-volatile-drive', reason: "writes a graphic to the printer's permanent memory" },
  { command: '~DY', class: 'changes-printer', when: 'non-volatile-drive', reason: "writes a file (graphic, font or firmware) to the printer's permanent memory" },
  { command: '~DY', class: 'changes-printer', when: 'printer-file-type', reason: "installs a file that changes the printer (credentials, menus, web pages)" },
  { command: '~DB', class: 'changes-printer', when: 'non-volatile-drive', reason: "writes a font to the printer's permanent memory" },
  { command: '~DT', class: 'changes-printer', when: 'non-volatile-drive', reason: "writes a font to the printer's permanent memory" },
  { command: '~DU', class: 'changes-printer', when: 'non-volatile-drive', reason: "writes a font to the printer's permanent memory" },
  { command: '~DS', class: 'changes-printer', when: 'non-volatile-drive', reason: "writes a font to the printer's permanent memory" },
  { command: '~DE', class: 'changes-printer', when: 'non-volatile-drive', reason: "writes an encoding table to the printer's permanent memory" },
  { command: '^DF', class: 'changes-printer', when: 'non-volatile-drive', reason: "stores a format in the printer's permanent memory" },
  { command: '^IS', class: 'changes-printer', when: 'non-volatile-drive', reason: "stores an image in the printer's permanent memory" },
  { command: '^ID', class: 'changes-printer', when: 'non-volatile-drive', reason: "deletes files from the printer's permanent memory" },
  { command: '^TO', class: 'changes-printer', when: 'non-volatile-destination', reason: "copies files into the printer's permanent memory" },
  { command: '! U1 setvar', class: 'changes-printer', reason: 'changes a printer setting (Set-Get-Do)' },
  { command: '! U setvar', class: 'changes-printer', reason: 'changes a printer setting (Set-Get-Do)' },
  { command: '! U1 do', class: 'changes-printer', reason: 'makes the printer carry out an action (Set-Get-Do)' },
  { command: '! U do', class: 'changes-printer', reason: 'makes the printer carry out an action (Set-Get-Do)' },
  { command: '{}', class: 'changes-printer', when: 'sets-a-value', reason: 'changes a printer setting or carries out an action (Set-Get-Do in JSON)' },
];

const nonVolatileDrives = new Set(['E', 'B', 'A']);
/** ~DY extensions that are not label graphics or fonts but change how the printer behaves. */
const printerFileTypes = new Set(['NRD', 'PAC', 'C', 'F', 'H']);

/** The drive a command's first parameter names (`E:LOGO.GRF`); R: when none is named. */
function driveOf(parameter: string): string {
  const match = /^\s*([A-Za-z]):/.exec(parameter);
  return match ? match[1]!.toUpperCase() : 'R';
}

function ruleApplies(rule: ZplCommandRule, command: ZplCommand): boolean {
  switch (rule.when) {
    case undefined:
      return true;
    case 'non-volatile-drive':
      return nonVolatileDrives.has(driveOf(command.params));
    case 'non-volatile-destination':
      // ^TOs:o.x,d:o.x — the second parameter is where the copy goes (R: when omitted).
      return nonVolatileDrives.has(driveOf(command.params.split(',')[1] ?? ''));
    case 'printer-file-type':
      return printerFileTypes.has((command.params.split(',')[2] ?? '').trim().toUpperCase());
    case 'sets-a-value':
      return jsonSetsAValue(command.params);
  }
}

/** `{}{"name":null}` reads a setting; any other value sets it or carries out an action. Unreadable JSON counts as setting. */
function jsonSetsAValue(text: string): boolean {
  const body = text.replace(/^\{\}\s*/, '');
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return true;
    return Object.values(parsed).some((value) => value !== null);
  } catch {
    return true;
  }
}

/** The name a rule is looked up by: `^JU` with its one-letter parameter, otherwise the command itself. */
function lookupName(command: ZplCommand): string {
  if (command.name === '^JU') return `^JU${command.params.trim().charAt(0).toUpperCase()}`;
  return command.name;
}

export interface ClassifiedCommand {
  command: ZplCommand;
  class: ZplCommandClass;
  /** The rule's reason; null for label content. */
  reason: string | null;
}

const rulesByCommand = new Map<string, ZplCommandRule[]>();
for (const rule of zplCommandRules) rulesByCommand.set(rule.command, [...(rulesByCommand.get(rule.command) ?? []), rule]);

export function classifyZplCommand(command: ZplCommand): ClassifiedCommand {
  for (const rule of rulesByCommand.get(lookupName(command)) ?? []) {
    if (ruleApplies(rule, command)) return { command, class: rule.class, reason: rule.reason };
  }
  return { command, class: 'label-content', reason: null };
}
