import { toCanvas } from 'bwip-js/browser';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrderWhereaboutsData } from '../../../shared/contract/supervision';
import { CallError } from '../components/CallError';
import { useAction } from '../components/use-action';
import { formatDateTime } from '../i18n/format';
import { useStation } from '../station-context';

/** A QR code of the tracking link, for a phone held to the screen. */
function TrackingQr({ url }: { url: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (canvas.current) toCanvas(canvas.current, { bcid: 'qrcode', text: url, scale: 3 });
  }, [url]);
  return <canvas ref={canvas} className="tracking-qr" data-testid="whereabouts-qr" aria-label={url} />;
}

/** Where the order is: printed here, elsewhere or not yet; its status timeline; its tracking link. */
export function WhereaboutsPanel({ scan, onClose }: { scan: string; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const station = useStation();
  const [data, setData] = useState<OrderWhereaboutsData | null>(null);
  const load = useCallback(() => station['supervision.whereabouts']({ scan }), [station, scan]);
  const [reload, state] = useAction(load, setData);
  useEffect(() => {
    void reload();
  }, [reload]);
  return (
    <section className="panel whereabouts" aria-label={t('supervision.where.title')} data-testid="whereabouts">
      <h2>
        {t('supervision.where.title')} {data && <span data-testid="whereabouts-order">{data.order.orderRef ?? data.order.orderId}</span>}
      </h2>
      <CallError error={state.error} />
      {data && (
        <>
          <p data-testid="whereabouts-printed">
            {t(`supervision.where.printed.${data.printed}`, { time: data.printedAt ? formatDateTime(data.printedAt, i18n.language) : '' })}
          </p>
          {data.order.voided && (
            <p className="tone-text-danger" data-testid="whereabouts-voided">
              {t('supervision.void.voidedLine', { time: formatDateTime(data.order.voided.at, i18n.language), by: data.order.voided.by, reason: data.order.voided.reason })}
            </p>
          )}
          {data.timeline.length === 0 ? (
            <p className="muted" data-testid="whereabouts-no-timeline">{t('supervision.where.noTimeline')}</p>
          ) : (
            <table className="table" data-testid="whereabouts-timeline">
              <thead>
                <tr>
                  <th scope="col">{t('supervision.where.time')}</th>
                  <th scope="col">{t('supervision.where.status')}</th>
                  <th scope="col">{t('supervision.where.previous')}</th>
                  <th scope="col">{t('supervision.where.attempt')}</th>
                </tr>
              </thead>
              <tbody>
                {data.timeline.map((entry) => (
                  <tr key={`${entry.status}-${entry.at}`} data-testid="whereabouts-step">
                    <td>{formatDateTime(entry.at, i18n.language)}</td>
                    <td data-testid="whereabouts-step-status">{t(`supervision.statuses.${entry.status}`)}</td>
                    <td>{entry.previousStatus ? t(`supervision.statuses.${entry.previousStatus}`) : '—'}</td>
                    <td>{entry.attempt ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {data.trackingUrl && (
            <div className="tracking">
              <a href={data.trackingUrl} target="_blank" rel="noreferrer" data-testid="whereabouts-tracking">
                {t('supervision.where.tracking')}
              </a>
              <TrackingQr url={data.trackingUrl} />
            </div>
          )}
        </>
      )}
      <div className="button-row">
        <button type="button" className="button" onClick={onClose} data-testid="whereabouts-close">
          {t('supervision.where.close')}
        </button>
      </div>
    </section>
  );
}
