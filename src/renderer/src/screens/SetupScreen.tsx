import { useTranslation } from 'react-i18next';
import { GuideButton } from '../guide/GuideButton';
import { ScreenHeading } from './ScreenHeading';
import { EnvironmentSection } from './setup/EnvironmentSection';
import { ImportSection } from './setup/ImportSection';
import { KeysSection } from './setup/KeysSection';
import { ScaleSection } from './setup/ScaleSection';
import { ScannerSection } from './setup/ScannerSection';
import { ScreenPreferences } from './setup/ScreenPreferences';
import { StationSection } from './setup/StationSection';
import { StoreSection } from './setup/StoreSection';
import { WebhooksSection } from './setup/WebhooksSection';

export default function SetupScreen() {
  const { t } = useTranslation();
  return (
    <div className="screen setup-screen">
      <ScreenHeading>{t('setup.title')}</ScreenHeading>
      <p className="setup-guide">
        <GuideButton testId="guide-open-setup" />
      </p>
      <div className="setup-grid">
        {/* First: a scan of the check barcode from any screen brings the lead here for its answer. */}
        <ScannerSection />
        <div className="setup-column">
          <StationSection />
          <EnvironmentSection />
          <KeysSection />
        </div>
        <div className="setup-column">
          <ScreenPreferences />
          <ScaleSection />
          <ImportSection />
          <WebhooksSection />
          <StoreSection />
        </div>
      </div>
    </div>
  );
}
