import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelFilePreview } from '../preview/LabelFilePreview';
import { useAppState, useStores } from '../state/stores-context';
import { AddPrinterForm } from './printers/AddPrinterForm';
import { DiscoverPrinters } from './printers/DiscoverPrinters';
import { PrinterCard } from './printers/PrinterCard';
import { ScreenHeading } from './ScreenHeading';

export default function PrintersScreen() {
  const { t } = useTranslation();
  const stores = useStores();
  const printers = useAppState((state) => state.printers);
  useEffect(() => {
    void stores.app.getState().loadPrinters();
  }, [stores]);
  const reload = () => void stores.app.getState().loadPrinters();
  return (
    <div className="screen">
      <ScreenHeading>{t('printers.title')}</ScreenHeading>
      <p className="lead">{t('printers.intro')}</p>
      {printers !== null && printers.length === 0 && <p className="panel-note">{t('printers.none')}</p>}
      <div className="printer-grid" data-testid="printer-list">
        {printers?.map((printer) => <PrinterCard key={printer.id} printer={printer} />)}
      </div>
      <DiscoverPrinters onAdded={reload} />
      <AddPrinterForm onAdded={reload} />
      <LabelFilePreview />
    </div>
  );
}
