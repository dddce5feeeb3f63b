import type { TFunction } from 'i18next';
import { defaultStationName } from '../../../shared/contract/settings';

/** A bench's name as the screen shows it: a bench nobody named yet is called so in the screen's language. */
export function stationNameWords(name: string, t: TFunction): string {
  return name === defaultStationName ? t('app.defaultStationName') : name;
}
