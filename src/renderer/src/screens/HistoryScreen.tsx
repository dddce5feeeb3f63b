import { useTranslation } from 'react-i18next';
import { Icon, type IconName } from '../components/Icon';
import { formatDateTime } from '../i18n/format';
import { toneOf, type ScanOutcome } from '../scan/scan-outcome';
import { useScanState } from '../state/stores-context';
import { ScreenHeading } from './ScreenHeading';

const toneIcon: Record<ReturnType<typeof toneOf>, IconName> = { success: 'check', warning: 'warning', danger: 'stop' };

const scanOf = (outcome: ScanOutcome) => (outcome.kind === 'printed' ? outcome.label.scan : outcome.scan);

export default function HistoryScreen() {
  const { t, i18n } = useTranslation();
  const session = useScanState((state) => state.session);
  return (
    <div className="screen">
      <ScreenHeading>{t('history.title')}</ScreenHeading>
      <p className="panel-note">
        <Icon name="info" size={28} />
        {t('history.journalUnavailable')}
      </p>
      <section className="card" aria-labelledby="history-session">
        <h2 id="history-session">{t('history.session')}</h2>
        {session.length === 0 ? (
          <p className="muted" data-testid="history-empty">
            {t('history.empty')}
          </p>
        ) : (
          <table className="table" data-testid="history-session">
            <thead>
              <tr>
                <th scope="col">{t('history.time')}</th>
                <th scope="col">{t('history.scan')}</th>
                <th scope="col">{t('history.outcome')}</th>
                <th scope="col">{t('history.source')}</th>
              </tr>
            </thead>
            <tbody>
              {session.map((entry, index) => {
                const tone = toneOf(entry.outcome);
                return (
                  <tr key={`${entry.at}-${index}`}>
                    <td>{formatDateTime(entry.at, i18n.language)}</td>
                    <td className="mono">{scanOf(entry.outcome)}</td>
                    <td className={`tone-text-${tone}`}>
                      <Icon name={toneIcon[tone]} size={24} /> {t(`outcomes.${entry.outcome.kind}`)}
                      {entry.outcome.kind === 'failed' && ` — ${t(`errors.${entry.outcome.error.code}.title`)}`}
                    </td>
                    <td>{t(`history.sources.${entry.source}`)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
