import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';
import { GuideDialog } from './GuideDialog';

/** Opens the first-hour guide: on Setup and in the sandbox's first-run panel, where a new lead looks. */
export function GuideButton({ testId }: { testId: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button" onClick={() => setOpen(true)} data-testid={testId}>
        <Icon name="info" size={24} />
        {t('guide.open')}
      </button>
      {open && <GuideDialog onClose={() => setOpen(false)} />}
    </>
  );
}
