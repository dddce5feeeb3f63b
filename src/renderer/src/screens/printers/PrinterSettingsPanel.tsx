import { useCallback, useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PrinterData, PrinterSettingsChangeData, PrinterSettingsData, SettingChangeRecordData } from '../../../../shared/contract/printers';
import type { StationErrorData } from '../../../../shared/errors';
import { CallError } from '../../components/CallError';
import { Icon } from '../../components/Icon';
import { useAction } from '../../components/use-action';
import { formatClock, formatDateTime } from '../../i18n/format';
import { useStation } from '../../station-context';
import { changedOnly, changeLines, dotsWords, draftOf, settingValueWords, type SettingsDraft } from './care-words';
import { PrintheadCare } from './PrintheadCare';

const darknessValues = Array.from({ length: 31 }, (_, value) => value);
const speedValues = Array.from({ length: 14 }, (_, index) => index + 1);

/**
 * A printer's own settings, read from it when the panel opens: darkness, print speed, media type
 * and tracking, reprint after error changed on purpose (only what the lead changes, shown before →
 * after and journaled), saved as its power-on settings only when ticked; its roll against the A6
 * label, calibration, its configuration label, its counters and printhead care.
 */
export function PrinterSettingsPanel({ printer }: { printer: PrinterData }) {
  const { t, i18n } = useTranslation();
  const station = useStation();
  const id = printer.id;
  const [settings, setSettings] = useState<PrinterSettingsData | null>(null);
  const [draft, setDraft] = useState<SettingsDraft | null>(null);
  const [save, setSave] = useState(false);
  const [changed, setChanged] = useState<PrinterSettingsChangeData | null>(null);
  const [history, setHistory] = useState<SettingChangeRecordData[]>([]);

  const shown = useCallback((read: PrinterSettingsData) => {
    setSettings(read);
    setDraft(draftOf(read));
  }, []);
  const readCall = useCallback(() => station['printers.settings']({ id }), [station, id]);
  const [runRead, readState] = useAction(readCall, shown);
  const historyCall = useCallback(() => station['printers.settingChanges']({ id, limit: 3 }), [station, id]);
  const [runHistory] = useAction(historyCall, (result) => setHistory(result.changes));
  useEffect(() => {
    void runRead();
    void runHistory();
  }, [runRead, runHistory]);

  const afterChange = (result: PrinterSettingsChangeData) => {
    setChanged(result);
    shown(result.after);
    setSave(false);
    void runHistory();
  };
  const changeCall = useCallback((input: Omit<Parameters<(typeof station)['printers.changeSettings']>[0], 'id'>) => station['printers.changeSettings']({ id, ...input }), [station, id]);
  const [runChange, changeState] = useAction(changeCall, afterChange);
  const calibrateCall = useCallback(() => station['printers.calibrate']({ id }), [station, id]);
  const [runCalibrate, calibrateState] = useAction(calibrateCall, () => void runRead());
  const [calibrated, setCalibrated] = useState<{ before: number | null; after: number | null; seconds: number } | null>(null);
  const configCall = useCallback(() => station['printers.configLabel']({ id }), [station, id]);
  const [runConfig, configState] = useAction(configCall);

  const read = useMemo(() => (settings ? draftOf(settings) : null), [settings]);
  const change = read && draft ? changedOnly(read, draft) : {};
  const nothingChanged = Object.keys(change).length === 0;
  const busy = readState.busy || changeState.busy || calibrateState.busy || configState.busy;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (nothingChanged && !save) return;
    void runChange({ ...change, ...(save ? { save: true } : {}) });
  };
  const calibrate = async () => {
    setCalibrated(null);
    const result = await runCalibrate();
    if (result.ok) setCalibrated({ before: result.value.labelLengthBefore, after: result.value.labelLengthAfter, seconds: Math.round(result.value.tookMs / 100) / 10 });
  };

  return (
    <section className="printer-settings" aria-label={t('printerCare.title', { name: printer.name })} data-testid={`printer-settings-panel-${id}`}>
      {readState.busy && !settings && (
        <p className="muted" role="status">
          <Icon name="hourglass" size={20} /> {t('printerCare.reading')}
        </p>
      )}
      <CallError error={readState.error} testId={`printer-settings-error-${id}`} />
      <InUse error={readState.error} printerId={id} />
      {settings && draft && (
        <>
          <RollLine settings={settings} />
          <form className="form-grid" onSubmit={submit} data-testid={`printer-settings-form-${id}`}>
            <SettingsFields printerId={id} settings={settings} draft={draft} onDraft={setDraft} />
            <label className="checkbox field-wide">
              <input type="checkbox" checked={save} onChange={(event) => setSave(event.target.checked)} data-testid={`printer-settings-save-${id}`} />
              {t('printerCare.save')}
            </label>
            <p className="small muted field-wide">{t('printerCare.saveHint')}</p>
            <div className="button-row field-wide">
              <button type="submit" className="button button-primary" disabled={busy || (nothingChanged && !save)} data-testid={`printer-settings-change-${id}`}>
                {changeState.busy ? t('printerCare.changing') : t('printerCare.change')}
              </button>
              <button type="button" className="button" onClick={() => void runRead()} disabled={busy} data-testid={`printer-settings-read-${id}`}>
                {t('printerCare.readAgain')}
              </button>
            </div>
          </form>
          {changed && <ChangeResult change={changed} printerId={id} />}
          <CallError error={changeState.error} testId={`printer-settings-change-error-${id}`} />
          <InUse error={changeState.error} printerId={id} />
          <p className="small muted" data-testid={`printer-settings-read-at-${id}`}>
            {t('printerCare.readAt', { time: formatClock(settings.readAt, i18n.language) })}
          </p>
        </>
      )}
      <section className="subsection" aria-labelledby={`printer-media-${id}`}>
        <h3 id={`printer-media-${id}`}>{t('printerCare.mediaTitle')}</h3>
        <p className="small muted">{t('printerCare.calibrateHint')}</p>
        <div className="button-row">
          <button type="button" className="button" onClick={() => void calibrate()} disabled={busy} data-testid={`printer-calibrate-${id}`}>
            {t('printerCare.calibrate')}
          </button>
          <button type="button" className="button" onClick={() => void runConfig()} disabled={busy} data-testid={`printer-config-label-${id}`}>
            <Icon name="printer" size={24} />
            {t('printerCare.configLabel')}
          </button>
        </div>
        {calibrateState.busy && (
          <p className="muted" role="status" data-testid={`printer-calibrating-${id}`}>
            <Icon name="hourglass" size={20} /> {t('printerCare.calibrating')}
          </p>
        )}
        {calibrated && (
          <p className="ok-text" role="status" data-testid={`printer-calibrated-${id}`}>
            <Icon name="check" size={20} />{' '}
            {t('printerCare.calibrated', { seconds: calibrated.seconds, before: dotsWords(calibrated.before, settings?.dpi ?? null, t), after: dotsWords(calibrated.after, settings?.dpi ?? null, t) })}
          </p>
        )}
        {configState.done && (
          <p className="ok-text" role="status" data-testid={`printer-config-label-sent-${id}`}>
            <Icon name="check" size={20} /> {t('printerCare.configLabelSent')}
          </p>
        )}
        <CallError error={calibrateState.error ?? configState.error} testId={`printer-media-error-${id}`} />
        <InUse error={calibrateState.error ?? configState.error} printerId={id} />
      </section>
      {settings && <PrintheadCare printerId={id} head={settings.head} onCleaned={afterChange} />}
      {history.length > 0 && <ChangeHistory changes={history} printerId={id} />}
    </section>
  );
}

/**
 * Whether the roll fits, in plain words. A roll that does not fit is named on the card itself
 * (the settings just read reach it as a printers.roll event), so it is not said twice.
 */
function RollLine({ settings }: { settings: PrinterSettingsData }) {
  const { t } = useTranslation();
  if (settings.roll.fits === false) return null;
  return (
    <p className={settings.roll.fits ? 'ok-text' : 'muted'} data-testid={`printer-settings-roll-${settings.printerId}`}>
      <Icon name={settings.roll.fits ? 'check' : 'question'} size={20} /> {settings.roll.fits ? t('printerCare.roll.fits') : t('printerCare.roll.unknown')}
    </p>
  );
}

function SettingsFields({ printerId, settings, draft, onDraft }: { printerId: string; settings: PrinterSettingsData; draft: SettingsDraft; onDraft(draft: SettingsDraft): void }) {
  const { t, i18n } = useTranslation();
  const fieldId = useId();
  const read = draftOf(settings);
  /** "was 15" beside a value changed on the form but not yet on the printer. */
  const was = (setting: Parameters<typeof settingValueWords>[0], before: string | number | null, now: string | number | null) =>
    before !== now ? <span className="small muted"> {t('printerCare.was', { value: settingValueWords(setting, before, t) })}</span> : null;
  return (
    <>
      <div className="field">
        <label htmlFor={`${fieldId}-darkness`}>
          {t('printerCare.settingNames.darkness')}
          {was('darkness', read.darkness, draft.darkness)}
        </label>
        <select id={`${fieldId}-darkness`} value={draft.darkness ?? ''} onChange={(event) => onDraft({ ...draft, darkness: Number(event.target.value) })} data-testid={`printer-darkness-${printerId}`}>
          {draft.darkness === null && <option value="">{t('printerCare.notReported')}</option>}
          {darknessValues.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${fieldId}-speed`}>
          {t('printerCare.settingNames.speed')}
          {was('speed', read.speed, draft.speed)}
        </label>
        <select id={`${fieldId}-speed`} value={draft.speed ?? ''} onChange={(event) => onDraft({ ...draft, speed: Number(event.target.value) })} data-testid={`printer-speed-${printerId}`}>
          {draft.speed === null && <option value="">{t('printerCare.notReported')}</option>}
          {speedValues.map((value) => (
            <option key={value} value={value}>
              {t('printerCare.speedValue', { ips: value })}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${fieldId}-media`}>
          {t('printerCare.settingNames.mediaType')}
          {was('mediaType', read.mediaType, draft.mediaType)}
        </label>
        <select id={`${fieldId}-media`} value={draft.mediaType ?? ''} onChange={(event) => onDraft({ ...draft, mediaType: event.target.value as 'direct' | 'transfer' })} data-testid={`printer-media-type-${printerId}`}>
          {draft.mediaType === null && <option value="">{t('printerCare.notReported')}</option>}
          <option value="direct">{t('printerCare.mediaTypes.direct')}</option>
          <option value="transfer">{t('printerCare.mediaTypes.transfer')}</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${fieldId}-tracking`}>
          {t('printerCare.settingNames.tracking')}
          {was('tracking', read.tracking, draft.tracking)}
        </label>
        <select id={`${fieldId}-tracking`} value={draft.tracking ?? ''} onChange={(event) => onDraft({ ...draft, tracking: event.target.value as 'gap' | 'mark' | 'continuous' })} data-testid={`printer-tracking-${printerId}`}>
          {draft.tracking === null && <option value="">{t('printerCare.notReported')}</option>}
          <option value="gap">{t('printerCare.trackings.gap')}</option>
          <option value="mark">{t('printerCare.trackings.mark')}</option>
          <option value="continuous">{t('printerCare.trackings.continuous')}</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${fieldId}-reprint`}>
          {t('printerCare.settingNames.reprintAfterError')}
          {was('reprintAfterError', read.reprintAfterError, draft.reprintAfterError)}
        </label>
        <select id={`${fieldId}-reprint`} value={draft.reprintAfterError} onChange={(event) => onDraft({ ...draft, reprintAfterError: event.target.value as 'on' | 'off' })} data-testid={`printer-reprint-${printerId}`}>
          {draft.reprintAfterError === 'unknown' && <option value="unknown">{t('printerCare.reprints.unknown')}</option>}
          <option value="on">{t('printerCare.reprints.on')}</option>
          <option value="off">{t('printerCare.reprints.off')}</option>
        </select>
      </div>
      <p className="small muted field-wide">{t('printerCare.reprintHint')}</p>
      <dl className="facts small field-wide" data-testid={`printer-settings-facts-${printerId}`}>
        <dt>{t('printerCare.printWidth')}</dt>
        <dd data-testid={`printer-print-width-${printerId}`}>{dotsWords(settings.printWidthDots, settings.dpi, t)}</dd>
        <dt>{t('printerCare.labelLength')}</dt>
        <dd data-testid={`printer-label-length-${printerId}`}>{dotsWords(settings.labelLengthDots, settings.dpi, t)}</dd>
        <dt>{t('printerCare.labelCount')}</dt>
        <dd data-testid={`printer-label-count-${printerId}`}>{settings.labelCount === null ? t('printerCare.notReported') : settings.labelCount.toLocaleString(i18n.language)}</dd>
      </dl>
      {settings.fromConfiguration.length > 0 && <p className="small muted field-wide">{t('printerCare.fromConfiguration')}</p>}
    </>
  );
}

/** What the printer reports now against what it reported before, and whether it was saved. */
function ChangeResult({ change, printerId }: { change: PrinterSettingsChangeData; printerId: string }) {
  const { t, i18n } = useTranslation();
  const lines = changeLines(change.changes, t);
  return (
    <div role="status" data-testid={`printer-settings-changed-${printerId}`}>
      <p className="ok-text">
        <Icon name="check" size={20} /> {t('printerCare.changed', { who: change.operator, time: formatClock(change.at, i18n.language) })}
      </p>
      <ul className="small plain-list">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {change.changes.some((entry) => entry.setting !== 'headCleaned') && <p className="small">{change.saved ? t('printerCare.savedNote') : t('printerCare.notSavedNote')}</p>}
    </div>
  );
}

function ChangeHistory({ changes, printerId }: { changes: readonly SettingChangeRecordData[]; printerId: string }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="subsection" data-testid={`printer-settings-history-${printerId}`}>
      <h3>{t('printerCare.history')}</h3>
      <ul className="small plain-list">
        {changes.map((entry) => (
          <li key={entry.changeId}>
            {t('printerCare.historyLine', { time: formatDateTime(entry.at, i18n.language), who: entry.operator, bench: entry.stationName, changes: changeLines(entry.changes, t).join('; ') })}
            {entry.saved ? ` ${t('printerCare.historySaved')}` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A refusal because a run holds the printer names the run. */
function InUse({ error, printerId }: { error: StationErrorData | null; printerId: string }) {
  const { t } = useTranslation();
  const run = error?.facts?.subject === 'printer-in-use' ? error.facts.id : undefined;
  if (typeof run !== 'string') return null;
  return (
    <p className="small" data-testid={`printer-in-use-run-${printerId}`}>
      {t('printerCare.inUseRun', { id: run })}
    </p>
  );
}
