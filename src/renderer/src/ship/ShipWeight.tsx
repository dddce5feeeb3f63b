import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScaleReadingLine } from '../scale/ScaleReadingLine';
import { useScaleState, useShipState, useStores } from '../state/stores-context';

/** Whole grams typed by a packer: digits only, "1250" or "1 250"; null when empty or not a weight. */
export function typedGrams(text: string): number | null {
  const digits = text.replace(/[\s.]/g, '');
  if (!/^\d{1,7}$/.test(digits)) return null;
  const grams = Number(digits);
  return grams >= 1 && grams <= 1_000_000 ? grams : null;
}

/**
 * The parcel's weight on the ship panel: filled from the bench's scale as a stable weight arrives
 * (the packer sees it arrive, then Enter ships), or typed in grams. The live scale line under it
 * says what the scale shows meanwhile (settling, overload, disconnected…).
 */
export function ShipWeight() {
  const { t } = useTranslation();
  const stores = useStores();
  const weight = useShipState((state) => state.weight);
  const reading = useScaleState((state) => state.reading);
  const configured = useScaleState((state) => state.configured);
  const [text, setText] = useState(weight ? String(weight.grams) : '');
  // A weight from the scale or the order is shown as it arrives; a typed one is what was typed.
  useEffect(() => {
    if (weight?.source !== 'typed') setText(weight ? String(weight.grams) : '');
  }, [weight]);
  const invalid = text.trim() !== '' && typedGrams(text) === null;
  return (
    <div className="ship-weight" data-testid="ship-weight-row" data-source={weight?.source ?? 'none'}>
      <label className="form-field ship-weight-field">
        <span>{t('ship.weight.label')}</span>
        <span className="input-with-unit">
          <input
            value={text}
            inputMode="numeric"
            aria-invalid={invalid}
            data-testid="ship-weight"
            onChange={(event) => {
              setText(event.target.value);
              stores.ship.getState().typeWeight(typedGrams(event.target.value));
            }}
            onKeyDown={(event) => {
              if (event.key !== 'Enter' || invalid) return;
              event.preventDefault();
              void stores.ship.getState().enter();
            }}
          />
          <span className="unit">g</span>
        </span>
      </label>
      <div className="ship-weight-notes">
        <p data-testid="ship-weight-source">{invalid ? t('ship.weight.invalid') : t(`ship.weight.source.${weight?.source ?? 'none'}`)}</p>
        {configured && <ScaleReadingLine reading={reading} testId="ship-scale-reading" />}
      </div>
    </div>
  );
}
