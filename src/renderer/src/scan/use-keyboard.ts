import { useEffect } from 'react';
import { shortcutFor } from '../navigation/shortcuts';
import { isCommandText, reprintReasons } from './commands';
import { classifyKeyTarget, scanEntryAttribute } from './key-target';
import { createScanDetector, defaultScanDetectorOptions, type KeyDecision } from './scan-detector';
import { makeWayForScan } from './dialogs';
import { isOperatorBadge, operatorFromBadge } from './operator-badge';
import { handleBenchScan } from './bench-scan';
import { asksToPrintAgain } from './scan-outcome';
import { useAppState, usePreferences, useStores } from '../state/stores-context';
import { SCANNER_CHECK_TEXT } from '../../../shared/keyboard/scanner-check';
import { isScannerCheck } from './scanner-check';

const elementFacts = (target: EventTarget | null) => {
  if (!(target instanceof HTMLElement)) return null;
  return {
    tagName: target.tagName,
    inputType: target instanceof HTMLInputElement ? target.type : undefined,
    isContentEditable: target.isContentEditable,
    isScanEntry: target.hasAttribute(scanEntryAttribute),
  };
};

/** How long "typed too slowly for a scan" stays up. */
const slowCueMs = 4000;
/**
 * How often the "reading…" cue's count is redrawn while a scan is read. A scanner's keys come a
 * few ms apart: redrawn on every key, the page would be drawing a frame right up to the Enter,
 * and the scan's call would wait for it.
 */
const cueCountEveryMs = 100;

const isActivatable = (target: EventTarget | null) =>
  target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement || target instanceof HTMLInputElement || target instanceof HTMLSelectElement;

/**
 * The one window-level keyboard listener of the screen: scans from a keyboard-wedge scanner
 * wherever focus is (except while someone edits a field), the screen keys, and the keys that
 * answer the scan panel. It listens in the capture phase, so no focused control sees a scan's
 * Enter before it is recognised.
 */
export function useStationKeyboard(onReady: () => void): void {
  const stores = useStores();
  const scanGapMs = usePreferences((state) => state.scanGapMs);
  const scannerLayout = useAppState((state) => state.settings?.scannerLayout ?? 'us');

  useEffect(() => {
    const detector = createScanDetector({ ...defaultScanDetectorOptions, maxGapMs: scanGapMs, scannerLayout });
    // A digit chooses a reprint reason (or which order a scan meant) only when no scan follows it:
    // a barcode may start with one.
    let pendingChoice: ReturnType<typeof setTimeout> | null = null;
    const cancelChoice = () => {
      if (pendingChoice !== null) clearTimeout(pendingChoice);
      pendingChoice = null;
    };

    // The "reading…" cue goes once the run has stopped for longer than a scanner's gap.
    let cueTimer: ReturnType<typeof setTimeout> | null = null;
    let cueCountedAt = Number.NEGATIVE_INFINITY;
    const showCue = (decision: KeyDecision, time: number) => {
      if (cueTimer !== null) clearTimeout(cueTimer);
      cueTimer = null;
      const scanStore = stores.scan.getState();
      if (decision.reading > 0) {
        if (scanStore.cue.state !== 'reading' || time - cueCountedAt >= cueCountEveryMs) {
          scanStore.setCue({ state: 'reading', characters: decision.reading });
          cueCountedAt = time;
        }
        cueTimer = setTimeout(() => stores.scan.getState().setCue({ state: 'none' }), scanGapMs + 30);
      } else if (decision.typedTooSlowly !== undefined) {
        scanStore.setCue({ state: 'too-slow', characters: decision.typedTooSlowly });
        cueTimer = setTimeout(() => stores.scan.getState().setCue({ state: 'none' }), slowCueMs);
      } else if (scanStore.cue.state === 'reading') {
        scanStore.setCue({ state: 'none' });
      }
    };

    /** What a complete scan is for: the scanner check, a badge, a bundle on Shift start, or a print. */
    const takeScan = (decision: KeyDecision, event: KeyboardEvent) => {
      event.stopPropagation();
      const scan = decision.scan ?? '';
      const app = stores.app.getState();
      // The check barcode (one key a character, so of its length), or on Setup any scan of its
      // length that no layout reads as it: a scanner set to a layout the station does not know.
      if (decision.keys && decision.scanLength === SCANNER_CHECK_TEXT.length && (app.screen === 'setup' || isScannerCheck(decision.keys))) {
        app.showScannerCheck(decision.keys);
        app.navigate('setup');
        showCue(decision, event.timeStamp);
        return;
      }
      if (isOperatorBadge(scan) && operatorFromBadge(scan) !== '') {
        // A badge signs the operator in wherever it is scanned, and the screen stays where it is.
        void handleBenchScan(stores, scan);
        showCue(decision, event.timeStamp);
        return;
      }
      // On the shift-start screen a scan picks a bundle for the run; everywhere else it prints.
      if (app.screen === 'shift' && !isCommandText(scan)) {
        stores.shift.getState().addBundles(scan);
        showCue(decision, event.timeStamp);
        return;
      }
      // The scan's call leaves first, inside this key event: the cue, the screen and any
      // drawing come after it is on its way. Only an open dialog (rare at a bench) is dealt
      // with before, since closing it may settle what the scan is for.
      const held = document.querySelector('dialog[open]') ? makeWayForScan(document) : null;
      void handleBenchScan(stores, scan);
      // The "reading…" cue is not touched here: drawing it away would cost the page a frame
      // right after the Enter. It goes with the scan's outcome, or by its own timer if that is slow.
      // A dialog with typed input stays; the result is shown once it is closed.
      if (held) held.addEventListener('close', () => stores.app.getState().navigate('scan'), { once: true });
      else stores.app.getState().navigate('scan');
    };

    /** What the detector is told of a key: what the PC's layout made of it, and which key it was. */
    const factsOf = (event: KeyboardEvent, target: ReturnType<typeof classifyKeyTarget>) => ({
      type: event.type === 'keyup' ? ('keyup' as const) : ('keydown' as const),
      key: event.key,
      code: event.code,
      shiftKey: event.shiftKey,
      altGraph: event.getModifierState('AltGraph'),
      capsLock: event.getModifierState('CapsLock'),
      time: event.timeStamp,
      ctrlKey: event.ctrlKey,
      altKey: event.altKey,
      metaKey: event.metaKey,
      repeat: event.repeat,
      isComposing: event.isComposing,
      target,
    });

    // Releasing Alt ends an Alt code (a scanner in Alt + keypad mode types each character so).
    const onKeyUp = (event: KeyboardEvent) => {
      if (event.key !== 'Alt') return;
      const decision = detector.feed(factsOf(event, classifyKeyTarget(elementFacts(event.target))));
      // An Alt code's Alt is nobody's menu key.
      if (decision.preventDefault) event.preventDefault();
      if (decision.scan !== undefined) takeScan(decision, event);
      else showCue(decision, event.timeStamp);
    };

    const onKeyDown = (event: KeyboardEvent) => {
      cancelChoice();
      const target = classifyKeyTarget(elementFacts(event.target));
      const decision = detector.feed(factsOf(event, target));
      if (decision.preventDefault) event.preventDefault();
      // A scanner's first keys (before its "reading…" cue is up): its scan follows within a blink,
      // so the station opens and identifies its printer now rather than after the Enter. Not on
      // Shift start, where a scan picks a bundle.
      if (decision.reading > 0 && stores.scan.getState().cue.state !== 'reading' && stores.app.getState().screen !== 'shift') stores.scan.getState().scanComing();
      if (decision.scan !== undefined) {
        takeScan(decision, event);
        return;
      }
      showCue(decision, event.timeStamp);
      // The key was taken as part of a scan being read: it is nobody's shortcut.
      if (decision.preventDefault) return;

      // While a dialog asks something, its own keys (Esc cancels) are the only ones that count.
      if (document.querySelector('dialog[open]')) return;

      const command = shortcutFor(event);
      if (command) {
        if (command.type === 'dismiss' && target === 'text-field') return;
        event.preventDefault();
        if (command.type === 'navigate') stores.app.getState().navigate(command.screen);
        else if (command.type === 'dismiss') {
          stores.app.getState().navigate('scan');
          if (stores.ship.getState().panel.state !== 'working') stores.ship.getState().close();
          stores.scan.getState().dismiss();
        } else if (stores.app.getState().screen === 'scan') {
          if (command.type === 'reprint-recent') stores.scan.getState().reprintRecent(command.index);
          else stores.scan.getState().previewRecent(command.index);
        }
        return;
      }

      if (target !== 'other' || event.ctrlKey || event.altKey || event.metaKey) return;
      const panel = stores.scan.getState().panel;
      if (stores.app.getState().screen !== 'scan') return;
      const shipPanel = stores.ship.getState().panel;
      if (shipPanel.state !== 'closed') {
        if (event.key === 'Enter' && !isActivatable(event.target)) {
          event.preventDefault();
          void stores.ship.getState().enter();
          return;
        }
        // A digit sets the parcel count only when no scan follows it: a barcode may start with one.
        const parcels = Number(event.key);
        if (shipPanel.state === 'ready' && /^[1-9]$/.test(event.key)) {
          pendingChoice = setTimeout(() => {
            pendingChoice = null;
            stores.ship.getState().setParcels(parcels);
          }, scanGapMs + 20);
        }
        return;
      }
      if (event.key === 'Enter' && !isActivatable(event.target) && panel.state === 'outcome' && asksToPrintAgain(panel.outcome)) {
        event.preventDefault();
        stores.scan.getState().confirmReprint();
        return;
      }
      const choice = ['1', '2', '3', '4', '5'].indexOf(event.key);
      const reason = reprintReasons[choice];
      if (panel.state === 'reason' && reason) {
        pendingChoice = setTimeout(() => {
          pendingChoice = null;
          void stores.scan.getState().chooseReason(reason);
        }, scanGapMs + 20);
      }
      // A scan that fits more than one order: the digit picks the order of this parcel.
      if (panel.state === 'outcome' && panel.outcome.kind === 'ambiguous' && choice >= 0 && choice < panel.outcome.candidates.length) {
        pendingChoice = setTimeout(() => {
          pendingChoice = null;
          void stores.scan.getState().chooseOrder(choice);
        }, scanGapMs + 20);
      }
    };

    const onBlur = () => {
      detector.reset();
      cancelChoice();
      stores.scan.getState().setCue({ state: 'none' });
    };

    window.addEventListener('keydown', onKeyDown, { capture: true });
    window.addEventListener('keyup', onKeyUp, { capture: true });
    window.addEventListener('blur', onBlur);
    onReady();
    return () => {
      cancelChoice();
      if (cueTimer !== null) clearTimeout(cueTimer);
      window.removeEventListener('keydown', onKeyDown, { capture: true });
      window.removeEventListener('keyup', onKeyUp, { capture: true });
      window.removeEventListener('blur', onBlur);
    };
  }, [stores, scanGapMs, scannerLayout, onReady]);
}
