import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';
import { ScreenHeading } from './ScreenHeading';

export default function ShiftStartScreen() {
  const { t } = useTranslation();
  return (
    <div className="screen">
      <ScreenHeading>{t('shift.title')}</ScreenHeading>
      <p className="lead">{t('shift.intro')}</p>
      <p className="panel-note">
        <Icon name="info" size={28} />
        {t('shift.unavailable')}
      </p>
    </div>
  );
}
