import { useTranslation } from 'react-i18next';
import type { StationErrorData } from '../../../shared/errors';
import { errorText, shownDetails } from '../supervision/error-words';
import { Icon } from './Icon';

/**
 * A failed call in words: what happened and what to do, worded here from the code and its facts.
 * The station's English message is for logs and the CLI, never shown.
 */
export function CallError({ error, testId }: { error: StationErrorData | null; testId?: string }) {
  const { t, i18n } = useTranslation();
  if (!error) return null;
  const { title, action } = errorText(error, t, i18n.language);
  const details = shownDetails(error);
  return (
    <div className="call-error" role="alert" data-testid={testId} data-code={error.code}>
      <Icon name="stop" size={28} />
      <div>
        <strong data-testid={testId ? `${testId}-title` : undefined}>{title}</strong> — <span data-testid={testId ? `${testId}-action` : undefined}>{action}</span>
        {details.length > 0 && (
          <ul className="small">
            {details.map((detail) => (
              <li key={detail}>{detail}</li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
