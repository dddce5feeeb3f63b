/**
 * A printer's settings, roll and printhead in the lead's words: each value as the printer reported
 * it, with its unit, or "not reported".
 */
import type { TFunction } from 'i18next';
import type { HeadFaultData, PrinterSettingsData, RollFitData, SettingChangeData } from '../../../../shared/contract/printers';

const MM_PER_INCH = 25.4;

/** One sentence per way the roll does not fit the A6 label; empty when it fits or nobody knows. */
export function rollWarnings(roll: RollFitData | null, t: TFunction): string[] {
  if (!roll || roll.fits !== false) return [];
  return roll.issues.map((issue) => t(`printerCare.roll.${issue.issue}`, { printerMm: Math.round(issue.printerMm), labelMm: Math.round(issue.labelMm) }));
}

export function headFaultWords(fault: HeadFaultData, t: TFunction): string {
  return t(`printerCare.head.faults.${fault}`);
}

/** A length in dots as dots and millimetres at the printer's resolution. */
export function dotsWords(dots: number | null, dpi: number | null, t: TFunction): string {
  if (dots === null) return t('printerCare.notReported');
  return dpi ? t('printerCare.dotsValue', { dots, mm: Math.round((dots * MM_PER_INCH) / dpi) }) : t('printerCare.dotsOnly', { dots });
}

type SettingName = SettingChangeData['setting'];

/** A setting's value as the printer reported it, before or after a change. */
export function settingValueWords(setting: SettingName, value: string | number | null, t: TFunction): string {
  if (value === null) return t('printerCare.notReported');
  switch (setting) {
    case 'speed':
      return t('printerCare.speedValue', { ips: value });
    case 'mediaType':
      return t(`printerCare.mediaTypes.${String(value)}`);
    case 'tracking':
      return t(`printerCare.trackings.${String(value)}`);
    case 'reprintAfterError':
      return t(`printerCare.reprints.${String(value)}`);
    case 'headCleaned':
      return t('printerCare.inchesValue', { inches: value });
    default:
      return String(value);
  }
}

/** "Darkness: 15 → 22", one per setting changed (the saving itself is said apart); the same marks in every language. */
export function changeLines(changes: readonly SettingChangeData[], t: TFunction): string[] {
  return changes
    .filter((change) => change.setting !== 'save')
    .map((change) => `${t(`printerCare.settingNames.${change.setting}`)}: ${settingValueWords(change.setting, change.before, t)} → ${settingValueWords(change.setting, change.after, t)}`);
}

/** The values the settings form starts from: what the printer reported. */
export interface SettingsDraft {
  darkness: number | null;
  speed: number | null;
  mediaType: PrinterSettingsData['mediaType'];
  tracking: PrinterSettingsData['tracking'];
  reprintAfterError: PrinterSettingsData['reprintAfterError'];
}

export const draftOf = (settings: PrinterSettingsData): SettingsDraft => ({
  darkness: settings.darkness === null ? null : Math.round(settings.darkness),
  speed: settings.speedIps === null ? null : Math.round(settings.speedIps),
  mediaType: settings.mediaType,
  tracking: settings.tracking,
  reprintAfterError: settings.reprintAfterError,
});

/** Only what the lead changed from what the printer reported: nothing else is sent to it. */
export function changedOnly(read: SettingsDraft, draft: SettingsDraft) {
  return {
    ...(draft.darkness !== null && draft.darkness !== read.darkness ? { darkness: draft.darkness } : {}),
    ...(draft.speed !== null && draft.speed !== read.speed ? { speed: draft.speed } : {}),
    ...(draft.mediaType !== null && draft.mediaType !== read.mediaType ? { mediaType: draft.mediaType } : {}),
    ...(draft.tracking !== null && draft.tracking !== read.tracking ? { tracking: draft.tracking } : {}),
    ...(draft.reprintAfterError !== 'unknown' && draft.reprintAfterError !== read.reprintAfterError ? { reprintAfterError: draft.reprintAfterError === 'on' } : {}),
  };
}
