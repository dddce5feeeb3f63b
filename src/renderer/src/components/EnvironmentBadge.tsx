import { useTranslation } from 'react-i18next';
import type { Environment } from '../../../shared/contract/app';
import { Icon } from './Icon';

/** SANDBOX, TEST or LIVE, with a word under it that says what it means for parcels. */
export function EnvironmentBadge({ environment }: { environment: Environment }) {
  const { t } = useTranslation();
  return (
    <div className={`env-badge env-badge-${environment}`} data-testid="environment-badge">
      {environment === 'live' && <Icon name="warning" size={28} />}
      <span className="env-badge-text">
        <strong data-testid="environment">{t(`environment.${environment}`)}</strong>
        <small>{t(`environment.${environment}Hint`)}</small>
      </span>
    </div>
  );
}
