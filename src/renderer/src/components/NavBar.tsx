import { useTranslation } from 'react-i18next';
import { screenIds, screenKeyHint, screenKeys, type ScreenId } from '../navigation/shortcuts';
import { Icon, type IconName } from './Icon';

const screenIcon: Record<ScreenId, IconName> = {
  scan: 'scan',
  shift: 'shift',
  printers: 'printer',
  setup: 'setup',
  history: 'history',
  floor: 'floor',
};

export function NavBar({ current, onNavigate }: { current: ScreenId; onNavigate: (screen: ScreenId) => void }) {
  const { t } = useTranslation();
  return (
    <nav className="nav" aria-label={t('nav.label')}>
      {screenIds.map((id) => (
        <button
          key={id}
          type="button"
          className="nav-button"
          aria-current={current === id ? 'page' : undefined}
          aria-keyshortcuts={[screenKeys[id], `Alt+${screenIds.indexOf(id) + 1}`].filter(Boolean).join(' ')}
          data-testid={`nav-${id}`}
          onClick={() => onNavigate(id)}
        >
          <Icon name={screenIcon[id]} size={28} />
          <span>{t(`nav.${id}`)}</span>
          <kbd className={screenKeys[id] ? undefined : 'nav-key-alt'}>{screenKeyHint(id)}</kbd>
        </button>
      ))}
    </nav>
  );
}
