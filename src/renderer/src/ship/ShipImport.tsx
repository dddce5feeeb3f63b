import { useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ToShipImportReport } from '../../../shared/contract/shipping';
import type { StationErrorData } from '../../../shared/errors';
import { useStation } from '../station-context';
import { CallError } from '../components/CallError';
import { useStores } from '../state/stores-context';
import { NewShipmentForm } from './NewShipmentForm';

/** Reads a file as base64 for the contract (the screen has no file paths on the web host). */
const asBase64 = async (file: File): Promise<string> => {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let index = 0; index < bytes.length; index += 0x8000) binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(binary);
};

/** Imports the shop's export of orders to ship and tells new, updated and rejected rows. */
export function ShipImport() {
  const { t } = useTranslation();
  const station = useStation();
  const [report, setReport] = useState<ToShipImportReport | null>(null);
  const [error, setError] = useState<StationErrorData | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const stores = useStores();
  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setError(null);
    const result = await station['shipping.import']({ source: { kind: 'bytes', fileName: file.name, base64: await asBase64(file) } });
    if (result.ok) setReport(result.value);
    else setError(result.error);
  };
  return (
    <section className="panel ship-import" aria-labelledby="ship-import-title">
      <h2 id="ship-import-title">{t('ship.importTitle')}</h2>
      <p className="small" data-testid="ship-import-purpose">
        {t('ship.importPurpose')}
      </p>
      <label className="button file-button ship-import-file">
        {t('ship.importChoose')}
        <input type="file" className="visually-hidden" accept=".csv,.xlsx,text/csv" data-testid="ship-import-file" onChange={(event) => void onFile(event)} />
      </label>
      <button type="button" className="button" onClick={() => setFormOpen(true)} data-testid="new-shipment-open">
        {t('ship.form.open')}
      </button>
      {formOpen && (
        <NewShipmentForm
          onCancel={() => setFormOpen(false)}
          onShip={(shipment) => {
            setFormOpen(false);
            stores.app.getState().navigate('scan');
            stores.ship.getState().open(shipment);
          }}
        />
      )}
      {report && (
        <div data-testid="ship-import-report">
          <p>{t('ship.importCounts', { fileName: report.fileName, added: report.newRows, updated: report.updatedRows, rejected: report.rejectedRows })}</p>
          {report.rejectedRows > 0 && (
            <ul>
              {report.rows
                .filter((row) => row.outcome === 'rejected')
                .map((row) => (
                  <li key={row.row}>{t('ship.importRejected', { row: row.row, orderRef: row.orderRef ?? '—', reason: row.reason ?? '' })}</li>
                ))}
            </ul>
          )}
        </div>
      )}
      <CallError error={error} testId="ship-import-error" />
    </section>
  );
}
