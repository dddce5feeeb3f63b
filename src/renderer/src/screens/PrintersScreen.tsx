import { useTranslation } from 'react-i18next';
import { Icon } from '../components/Icon';
import { LabelFilePreview } from '../preview/LabelFilePreview';
import { ScreenHeading } from './ScreenHeading';

export default function PrintersScreen() {
  const { t } = useTranslation();
  return (
    <div className="screen">
      <ScreenHeading>{t('printers.title')}</ScreenHeading>
      <p className="lead">{t('printers.intro')}</p>
      <p className="panel-note">
        <Icon name="info" size={28} />
        {t('printers.unavailable')}
      </p>
      <LabelFilePreview />
    </div>
  );
}
