import { useTranslation } from 'react-i18next';
import type { Notice } from '../state/app-store';
import { Icon } from './Icon';

const noticeIcon = { info: 'info', warning: 'warning', error: 'stop' } as const;

/** Notices main pushes (app.notice), newest last, each dismissable; worded here from their code. */
export function Notices({ notices, onDismiss }: { notices: readonly Notice[]; onDismiss: (id: number) => void }) {
  const { t } = useTranslation();
  // The live region is always there, so a screen reader announces the first notice too.
  return (
    <ul className="notices" aria-live="polite" data-testid="notices">
      {notices.map((notice) => (
        <li key={notice.id} className={`notice notice-${notice.level}`} role={notice.level === 'error' ? 'alert' : 'status'}>
          <Icon name={noticeIcon[notice.level]} size={28} />
          <span>{notice.code ? t(`notices.${notice.code}`, { ...notice.facts }) : notice.message}</span>
          <button type="button" className="button button-quiet" onClick={() => onDismiss(notice.id)}>
            {t('notices.dismiss')}
          </button>
        </li>
      ))}
    </ul>
  );
}
