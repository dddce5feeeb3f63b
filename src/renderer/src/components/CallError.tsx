import { useTranslation } from 'react-i18next';
import type { StationErrorData } from '../../../shared/errors';
import { errorWords } from '../supervision/error-words';
import { Icon } from './Icon';

/** A failed call in words: what happened, what to do, and the station's own explanation. */
export function CallError({ error, testId }: { error: StationErrorData | null; testId?: string }) {
  const { t, i18n } = useTranslation();
  if (!error) return null;
  const words = errorWords(error, i18n.language, (status) => t(`supervision.statuses.${status}`));
  return (
    <div className="call-error" role="alert" data-testid={testId}>
      <Icon name="stop" size={28} />
      <div>
        <strong>{t(`errors.${error.code}.title`, words)}</strong> — {t(`errors.${error.code}.action`, words)}
        <p className="small">{error.message}</p>
        {error.details && error.details.length > 0 && (
          <ul className="small">
            {error.details.map((detail) => (
              <li key={detail}>{detail}</li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
