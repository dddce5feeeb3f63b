import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { stationNameWords } from '../i18n/station-name';
import { reprintReasons, type ReprintReason } from '../scan/commands';
import { toneOf, type PrintedLabel, type ScanOutcome } from '../scan/scan-outcome';
import type { ReprintTarget, ScanPanel } from '../state/scan-store';
import { formatClock } from '../i18n/format';
import { errorText, shownDetails } from '../supervision/error-words';
import { Icon } from './Icon';
import { middleTruncate, shortName } from './middle-truncate';

export interface ScanResultPanelProps {
  panel: ScanPanel;
  onConfirmReprint(): void;
  /** A scan that fits more than one order: the packer chose the `index`th. */
  onChooseOrder(index: number): void;
  onChooseReason(reason: ReprintReason): void;
  onDismiss(): void;
  onCancelWaiting(): void;
  onResumeWaiting(): void;
}

/** The big panel that fills the scan screen: what happened to the last scan and what to do next. */
export function ScanResultPanel({ panel, onConfirmReprint, onChooseOrder, onChooseReason, onDismiss, onCancelWaiting, onResumeWaiting }: ScanResultPanelProps) {
  // Each new panel starts afresh, except a printed label after a printed label, the packer's every
  // scan: it is drawn over the same elements, where only its words change (the cheapest drawing).
  const key =
    panel.state === 'outcome' && panel.outcome.kind === 'printed'
      ? 'printed'
      : panel.state === 'outcome' || panel.state === 'reason' || panel.state === 'void-armed' || panel.state === 'void'
        ? panel.at
        : panel.state;
  return (
    // data-fit="whole": the screen-fit check holds the panel to fitting without scrolling, at a glance.
    <section className={`result-panel tone-${panelTone(panel)}`} data-testid="scan-result" data-state={panelState(panel)} data-fit="whole" aria-live="assertive" key={key}>
      {panel.state === 'idle' && <IdleView />}
      {panel.state === 'working' && <WorkingView scan={panel.scan} />}
      {panel.state === 'outcome' && (
        <OutcomeView outcome={panel.outcome} onConfirmReprint={onConfirmReprint} onChooseOrder={onChooseOrder} onDismiss={onDismiss} onCancelWaiting={onCancelWaiting} onResumeWaiting={onResumeWaiting} />
      )}
      {panel.state === 'reason' && <ReasonView target={panel.target} onChooseReason={onChooseReason} onDismiss={onDismiss} />}
      {(panel.state === 'void-armed' || panel.state === 'void') && <VoidArmedView scan={panel.state === 'void' ? panel.scan : null} onDismiss={onDismiss} />}
    </section>
  );
}

const panelTone = (panel: ScanPanel) => {
  if (panel.state === 'outcome') return toneOf(panel.outcome);
  if (panel.state === 'reason' || panel.state === 'void-armed' || panel.state === 'void') return 'warning';
  return 'idle';
};

/** For tests and styling: the outcome kind, or the panel state. */
const panelState = (panel: ScanPanel) => (panel.state === 'outcome' ? panel.outcome.kind : panel.state);

/** After the STATION:VOID card: the next parcel is cancelled, not printed. */
function VoidArmedView({ scan, onDismiss }: { scan: string | null; onDismiss(): void }) {
  const { t } = useTranslation();
  return (
    <div className="result-body">
      <Icon name="stop" size={96} className="result-icon" />
      <h2 className="result-title" data-testid="void-armed">
        {scan ? t('supervision.void.scanned', { scan: middleTruncate(scan) }) : t('supervision.void.armed')}
      </h2>
      <button type="button" className="button" onClick={onDismiss}>
        {t('supervision.void.keep')}
      </button>
    </div>
  );
}

function IdleView() {
  const { t } = useTranslation();
  return (
    <div className="result-body">
      <Icon name="scan" size={96} className="result-icon" />
      <h2 className="result-title">{t('scan.ready')}</h2>
      <p className="result-line">{t('scan.readyHint')}</p>
    </div>
  );
}

function WorkingView({ scan }: { scan: string }) {
  const { t } = useTranslation();
  return (
    <div className="result-body">
      <Icon name="hourglass" size={96} className="result-icon" />
      <h2 className="result-title" title={scan}>
        {t('scan.working', { scan: middleTruncate(scan) })}
      </h2>
    </div>
  );
}

function OutcomeView({
  outcome,
  onConfirmReprint,
  onChooseOrder,
  onDismiss,
  onCancelWaiting,
  onResumeWaiting,
}: {
  outcome: ScanOutcome;
  onConfirmReprint(): void;
  onChooseOrder(index: number): void;
  onDismiss(): void;
  onCancelWaiting(): void;
  onResumeWaiting(): void;
}) {
  const { t, i18n } = useTranslation();

  switch (outcome.kind) {
    case 'waiting':
      return (
        <div className="result-body" role="alert">
          <Icon name="hourglass" size={48} className="result-icon" />
          <h2 className="result-title" data-testid="result-waiting-title">
            {t('result.waitingTitle')}
          </h2>
          <p className="result-line" data-testid="result-waiting-reason">
            {t(`errors.${outcome.fault.code}.title`)}
          </p>
          <p className="result-action" data-testid="result-error-action">
            {t(`errors.${outcome.fault.code}.action`)}
          </p>
          <p className="result-line small" data-testid="result-held">
            {t(outcome.inPrinter ? 'result.heldByPrinter' : 'result.waitingToSend', { orderRef: outcome.label.orderRef, printer: outcome.label.printerName })}
          </p>
          {/* The fault's action says "press Resume": the button is right here, where the packer is. */}
          <div className="result-actions">
            <button type="button" className="button button-primary" onClick={onResumeWaiting} data-testid="waiting-resume">
              {t('result.resumeWaiting')}
            </button>
            {!outcome.inPrinter && (
              <button type="button" className="button" onClick={onCancelWaiting} data-testid="waiting-cancel">
                {t('result.cancelWaiting')}
              </button>
            )}
          </div>
        </div>
      );
    case 'printed':
      return <PrintedView label={outcome.label} />;
    case 'duplicate':
    case 'elsewhere':
      return <AskAgainView outcome={outcome} onConfirmReprint={onConfirmReprint} onDismiss={onDismiss} />;
    case 'ambiguous':
      return <ChooseOrderView outcome={outcome} onChooseOrder={onChooseOrder} onDismiss={onDismiss} />;
    case 'failed': {
      const words = errorText(outcome.error, t, i18n.language);
      // A printer fault's usual action ends "press Resume", true on Printers and Shift start; a
      // failed scan has no Resume, so its own words say what to do here.
      const action = outcome.rejection
        ? t(`scan.rejected.${outcome.rejection}`)
        : i18n.exists(`result.faultAction.${outcome.error.code}`)
          ? t(`result.faultAction.${outcome.error.code}`)
          : words.action;
      const details = shownDetails(outcome.error);
      return (
        <div className="result-body" role="alert">
          <Icon name="stop" size={96} className="result-icon" />
          <h2 className={titleClass(words.title)} data-testid="result-error-title">
            {words.title}
          </h2>
          <p className="result-action" data-testid="result-error-action">
            {action}
          </p>
          {details.length > 0 && (
            <ul className="result-details">
              {details.map((detail) => (
                <li key={detail}>{detail}</li>
              ))}
            </ul>
          )}
          <p className="result-line small result-scan" data-testid="result-scan" title={outcome.scan}>
            {t('scan.scanned', { scan: middleTruncate(outcome.scan) })}
          </p>
        </div>
      );
    }
    case 'command-unused':
      return (
        <div className="result-body" role="alert">
          <Icon name="stop" size={96} className="result-icon" />
          <h2 className="result-title">{t('scan.commandUnusedTitle')}</h2>
          <p className="result-action">{t('scan.commandUnusedAction')}</p>
          <p className="result-line small result-scan" data-testid="result-scan" title={outcome.scan}>
            {t('scan.scanned', { scan: middleTruncate(outcome.scan) })}
          </p>
        </div>
      );
  }
}

/** A label printed before, here or elsewhere: print it again? Enter on the amber panel confirms, so the button has the focus. */
function AskAgainView({
  outcome,
  onConfirmReprint,
  onDismiss,
}: {
  outcome: Extract<ScanOutcome, { kind: 'duplicate' | 'elsewhere' }>;
  onConfirmReprint(): void;
  onDismiss(): void;
}) {
  const { t, i18n } = useTranslation();
  const reprintButton = useRef<HTMLButtonElement>(null);
  useEffect(() => reprintButton.current?.focus(), [outcome]);
  return (
    <div className="result-body">
      <Icon name="warning" size={96} className="result-icon" />
      <h2 className="result-title" data-testid="result-title">
        {t(outcome.kind === 'duplicate' ? 'result.duplicateTitle' : 'result.elsewhereTitle')}
      </h2>
      <p className="result-ref" data-testid="result-order">
        {outcome.orderRef} · {outcome.recipient}
      </p>
      {outcome.kind === 'duplicate' ? (
        <DuplicateLines previous={outcome.previous} language={i18n.language} />
      ) : (
        <p className="result-line" data-testid="result-elsewhere-line">
          {t('result.elsewhereLine')}
        </p>
      )}
      <div className="result-actions">
        <button type="button" ref={reprintButton} className="button button-primary" onClick={onConfirmReprint} data-testid="reprint-confirm">
          <Icon name="redo" size={28} />
          {t('result.reprint')}
        </button>
        <button type="button" className="button" onClick={onDismiss}>
          {t('result.cancel')}
        </button>
      </div>
      <p className="result-line small">{t('result.reprintByCard')}</p>
    </div>
  );
}

/** When and where a label was printed before, its names shortened past a bench screen's room (whole in the title). */
function DuplicateLines({ previous, language }: { previous: Extract<ScanOutcome, { kind: 'duplicate' }>['previous']; language: string }) {
  const { t } = useTranslation();
  const key = previous.operator.trim() ? 'result.duplicateLine' : 'result.duplicateLineNoOperator';
  const time = formatClock(previous.printedAt, language);
  const station = stationNameWords(previous.stationName, t);
  const whole = t(key, { time, operator: previous.operator, station });
  const printer = t('result.duplicatePrinter', { printer: previous.printerName });
  return (
    <>
      <p className="result-line" data-testid="result-duplicate-line" title={whole}>
        {t(key, { time, operator: shortName(previous.operator), station: shortName(station) })}
      </p>
      <p className="result-line small" title={printer}>
        {t('result.duplicatePrinter', { printer: shortName(previous.printerName) })}
      </p>
    </>
  );
}

/**
 * A scan that fits more than one order (a ref two orders share, a barcode a file gave another
 * order): each order with what tells it apart, to choose by its number or a click, the first
 * focused. The chosen order prints as a scan of its order id.
 */
function ChooseOrderView({ outcome, onChooseOrder, onDismiss }: { outcome: Extract<ScanOutcome, { kind: 'ambiguous' }>; onChooseOrder(index: number): void; onDismiss(): void }) {
  const { t } = useTranslation();
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), [outcome]);
  const count = outcome.candidates.length + outcome.more;
  return (
    <div className="result-body">
      <h2 className="result-title result-title-choose" data-testid="result-title">
        {t('result.ambiguousTitle')}
      </h2>
      <p className="result-line" data-testid="result-ambiguous-line" title={outcome.scan}>
        {t('result.ambiguousLine', { scan: middleTruncate(outcome.scan), number: count })}
        {outcome.more > 0 && ` ${t('result.ambiguousMore', { number: outcome.more })}`}
      </p>
      <ol className="choice-list" data-testid="ambiguous-choices">
        {outcome.candidates.map((candidate, index) => (
          <li key={candidate.orderId}>
            <button type="button" ref={index === 0 ? first : undefined} className="button choice-button" onClick={() => onChooseOrder(index)} data-testid={`choose-order-${index}`}>
              <kbd>{index + 1}</kbd>
              <span className="choice-words">
                <span className="choice-order">{[candidate.orderRef ?? candidate.barcode ?? candidate.orderId, candidate.recipient].filter(Boolean).join(' · ')}</span>
                <small className="choice-facts">
                  {[candidate.bundleId ? t('result.ambiguousBundle', { bundle: candidate.bundleId }) : null, candidate.status ? t(`supervision.statuses.${candidate.status}`) : null].filter(Boolean).join(' · ')}
                </small>
              </span>
            </button>
          </li>
        ))}
      </ol>
      <div className="result-actions">
        <button type="button" className="button" onClick={onDismiss}>
          {t('result.cancel')}
        </button>
      </div>
    </div>
  );
}

/**
 * A label printed: the packer's every scan. Its fixed words are looked up once per language, not
 * on every scan; only the label's own facts change from one to the next.
 */
function PrintedView({ label }: { label: PrintedLabel }) {
  const { t } = useTranslation();
  const words = useMemo(
    () => ({ printed: t('result.printedTitle'), reprinted: t('result.reprintedTitle'), order: t('result.order'), recipient: t('result.recipient'), printer: t('result.printer') }),
    [t],
  );
  return (
    <div className="result-body">
      <Icon name="check" size={96} className="result-icon" />
      <h2 className="result-title">{label.reprint ? words.reprinted : words.printed}</h2>
      <dl className="result-facts">
        <dt>{words.order}</dt>
        <dd data-testid="result-order">{label.orderRef}</dd>
        <dt>{words.recipient}</dt>
        <dd data-testid="result-recipient">{label.recipient}</dd>
        <dt>{words.printer}</dt>
        <dd data-testid="result-printer">{label.printerName}</dd>
      </dl>
      {label.unconfirmed && (
        <p className="result-line small" data-testid="result-unconfirmed">
          {t('result.unconfirmed')}
        </p>
      )}
    </div>
  );
}

function ReasonView({ target, onChooseReason, onDismiss }: { target: ReprintTarget; onChooseReason(reason: ReprintReason): void; onDismiss(): void }) {
  const { t } = useTranslation();
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <div className="result-body">
      <h2 className="result-title">{t('reprint.title', { orderRef: target.orderRef })}</h2>
      <p className="result-line">{t('reprint.hint')}</p>
      <ol className="reason-list">
        {reprintReasons.map((reason, index) => (
          <li key={reason}>
            <button type="button" ref={index === 0 ? first : undefined} className="button reason-button" onClick={() => onChooseReason(reason)} data-testid={`reason-${reason}`}>
              <kbd>{index + 1}</kbd>
              {t(`reprint.reasons.${reason}`)}
            </button>
          </li>
        ))}
      </ol>
      <button type="button" className="button" onClick={onDismiss}>
        {t('result.cancel')}
      </button>
    </div>
  );
}

/**
 * A headline's class: one of more than 48 characters (a German "cannot be shipped (cancelled or
 * finished)") starts smaller, so four lines of it never push the action out of a short panel.
 */
function titleClass(title: string): string {
  return title.length > 48 ? 'result-title result-title-long' : 'result-title';
}
