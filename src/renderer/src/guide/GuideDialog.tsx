import { useTranslation } from 'react-i18next';
import { ConfirmDialogShell } from '../components/ConfirmDialog';
import { downloadText } from '../journal/download';
import { useAppState, useStores } from '../state/stores-context';
import { fileTemplates, templateCsv } from '../../../shared/import-templates';

/**
 * The first-hour guide for a lead and the IT admin: which file goes where with the columns and
 * units it wants (each with a template to download, made when it is pressed: its delivery date
 * follows the day), where the station keeps its data and
 * handover lists, what the keychain needs on each system, and how to leave the sandbox.
 */
export function GuideDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const stores = useStores();
  const dataDir = useAppState((state) => state.info?.dataDir ?? null);
  return (
    <ConfirmDialogShell title={t('guide.title')} wide onCancel={onClose}>
      <div className="guide" data-testid="guide">
        <section aria-labelledby="guide-imports">
          <h3 id="guide-imports">{t('guide.importsTitle')}</h3>
          {fileTemplates.map((template) => (
            <div key={template.id} className="guide-import" data-testid={`guide-${template.id}`}>
              <h4>{t(`guide.imports.${template.id}.title`)}</h4>
              <p>{t(`guide.imports.${template.id}.what`)}</p>
              <p className="small">
                {t('guide.columns')} <code className="guide-columns">{template.columns.join(', ')}</code>
              </p>
              <button type="button" className="button" onClick={() => downloadText(template.fileName, templateCsv(template, new Date(stores.now())))} data-testid={`guide-template-${template.id}`}>
                {t('guide.downloadTemplate', { file: template.fileName })}
              </button>
            </div>
          ))}
          <p data-testid="guide-units">{t('guide.units')}</p>
        </section>
        <section aria-labelledby="guide-data">
          <h3 id="guide-data">{t('guide.dataTitle')}</h3>
          <p data-testid="guide-data-dir">
            {t('guide.dataDir')} <code>{dataDir ?? t('guide.dataDirUnknown')}</code>
          </p>
          <p>{t('guide.handover', { folder: dataDir ? `${dataDir}/handover` : 'handover' })}</p>
        </section>
        <section aria-labelledby="guide-keychain">
          <h3 id="guide-keychain">{t('guide.keychainTitle')}</h3>
          <ul>
            <li>{t('setup.keychainNeeds.windows')}</li>
            <li>{t('setup.keychainNeeds.macos')}</li>
            <li>{t('setup.keychainNeeds.linux')}</li>
          </ul>
        </section>
        <section aria-labelledby="guide-sandbox">
          <h3 id="guide-sandbox">{t('guide.leaveTitle')}</h3>
          <ol>
            <li>{t('guide.leave.address')}</li>
            <li>{t('guide.leave.key')}</li>
            <li>{t('guide.leave.environment')}</li>
            <li>{t('guide.leave.printer')}</li>
          </ol>
        </section>
        <div className="button-row">
          <button type="button" className="button button-primary" onClick={onClose} data-testid="guide-close">
            {t('guide.close')}
          </button>
        </div>
      </div>
    </ConfirmDialogShell>
  );
}
