import { useTranslation } from 'react-i18next';
import type { ScaleReadingData } from '../../../shared/contract/scales';

/** What the scale shows, in words: the weight (stable, settling, zero, net with tare) or its condition. */
export function ScaleReadingLine({ reading, testId }: { reading: ScaleReadingData; testId: string }) {
  const { t } = useTranslation();
  const grams = (value: number) => `${Math.round(value)} g`;
  let text: string;
  let tone: 'success' | 'warning' | 'danger' | 'neutral' = 'neutral';
  switch (reading.state) {
    case 'none':
      text = t('scale.none');
      break;
    case 'stable':
      tone = reading.zero ? 'neutral' : 'success';
      text = reading.zero ? t('scale.zero') : reading.net ? t('scale.net', { weight: grams(reading.grams), tare: reading.tareGrams !== null ? grams(reading.tareGrams) : '—' }) : t('scale.stable', { weight: grams(reading.grams) });
      break;
    case 'settling':
      tone = 'warning';
      text = t('scale.settling', { weight: grams(reading.grams) });
      break;
    case 'condition':
      tone = reading.condition === 'motion' || reading.condition === 'busy' ? 'warning' : 'danger';
      text = t(`scale.conditions.${reading.condition}`);
      break;
  }
  return (
    <span className={`scale-reading tone-text-${tone}`} data-testid={testId} data-state={reading.state} data-condition={reading.state === 'condition' ? reading.condition : undefined} aria-live="polite">
      {text}
    </span>
  );
}
