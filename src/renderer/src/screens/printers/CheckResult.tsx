import { useTranslation } from 'react-i18next';
import type { PrinterCheckData } from '../../../../shared/contract/printers';
import { Icon } from '../../components/Icon';

/** What the printer said about itself, plainly: 203 dpi and wide enough for A6, or what is wrong. */
export function CheckResult({ check }: { check: PrinterCheckData }) {
  const { t, i18n } = useTranslation();
  // Each warning in the screen's words, from its issue and facts; an issue this screen does not know yet gets a general line.
  const warningWords = (warning: PrinterCheckData['warnings'][number]) => {
    const facts = warning.facts ?? {};
    const key = `printers.warnings.${warning.issue}`;
    const context = typeof facts.subject === 'string' ? { context: facts.subject } : {};
    return i18n.exists(key) ? t(key, { ...facts, ...context }) : t('printers.warnings.other');
  };
  if (!check.checked) {
    // Not asked: a queue that cannot be, or a printer that did not answer (its warning says which).
    if (check.warnings.length === 0) return <p className="small muted">{t('printers.checkNotPossible')}</p>;
    return (
      <ul className="warning-list" data-testid="printer-check">
        {check.warnings.map((warning) => (
          <li key={warning.issue} className="warning-text">
            <Icon name="warning" size={20} /> {warningWords(warning)}
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div className="check-result" data-testid="printer-check">
      <p className={check.passed ? 'ok-text' : 'warning-text'}>
        <Icon name={check.passed ? 'check' : 'warning'} size={24} />
        {check.passed ? t('printers.checkPassed') : t('printers.checkWarnings')}
      </p>
      <dl className="facts small">
        <dt>{t('printers.model')}</dt>
        <dd>{check.model ?? t('printers.unknown')}</dd>
        <dt>{t('printers.resolution')}</dt>
        <dd data-testid="printer-dpi">{check.dpi ? t('printers.dpi', { dpi: check.dpi }) : t('printers.unknown')}</dd>
        <dt>{t('printers.printWidth')}</dt>
        <dd data-testid="printer-width">{check.printWidthDots ? t('printers.widthDots', { dots: check.printWidthDots, mm: Math.round((check.printWidthDots / (check.dpi ?? 203)) * 25.4) }) : t('printers.unknown')}</dd>
      </dl>
      {check.warnings.length > 0 && (
        <ul className="warning-list">
          {check.warnings.map((warning) => (
            <li key={warning.issue}>
              <Icon name="warning" size={20} /> {warningWords(warning)}
            </li>
          ))}
        </ul>
      )}
      {check.faults.length > 0 && (
        <ul className="warning-list">
          {check.faults.map((fault) => (
            <li key={fault.kind} className="error-text">
              <Icon name="stop" size={20} /> {t(`errors.${fault.code}.title`)} — {t(`errors.${fault.code}.action`)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
