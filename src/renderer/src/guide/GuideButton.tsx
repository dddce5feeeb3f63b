import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';

// The guide is read once in a while, not at every scan: it loads when first opened.
const GuideDialog = lazy(() => import('./GuideDialog').then((module) => ({ default: module.GuideDialog })));

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
      {open && (
        <Suspense fallback={null}>
          <GuideDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
