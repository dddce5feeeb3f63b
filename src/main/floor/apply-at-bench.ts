/**
 * A lead's action, applied at the bench it was sent to with that bench's own controls: the same
 * pause, resume, cancel and decision a packer's screen uses (a pause stops within the printer's
 * buffer limit), recorded with who did it and from which bench, and a shift-start run planned and
 * started on the bench's printer as its own screen would.
 */
import { z } from 'zod';
import { StationError } from '../../shared/errors';
import type { LocalOnlyPrinting } from '../printing/offline/local-only-printing';
import type { PrintingCore } from '../printing/printing-core';
import type { Applied } from './floor-commands';
import { commandSubject } from './floor-commands';
import type { StoredCommand } from './floor-store';

const SendBundlesSchema = z.object({ printerId: z.string(), bundleIds: z.array(z.string()).min(1), reverse: z.boolean() });

export interface ApplyDeps {
  /** The bench's printing where its journal writes now, held while the action is applied, as the bench's own calls are. */
  printing: { held<T>(work: (core: PrintingCore) => Promise<T>): Promise<T> };
  localOnly: Pick<LocalOnlyPrinting, 'requireBundles'>;
}

export function applyAtBench(deps: ApplyDeps, command: StoredCommand): Promise<Applied> {
  const { data } = command;
  const lead = { operator: data.operator, benchName: data.fromBenchName };
  // Free-text fields of the journal (a cancelled label's reason, who decided a label) name both.
  const who = `${data.operator} at ${data.fromBenchName}`;
  const subject = commandSubject(data.target);
  return deps.printing.held(async (core): Promise<Applied> => {
    const { service } = core;
    switch (data.action) {
      case 'pause':
      case 'resume':
      case 'cancel': {
        if (!subject || !('run' in subject)) throw new StationError('INVALID_INPUT', `The floor action ${data.id} names no run.`);
        if (data.action === 'pause') await service.pause(data.environment, subject.run, who, lead);
        else if (data.action === 'resume') await service.resume(data.environment, subject.run);
        else await service.cancel(data.environment, subject.run, who);
        return { runId: subject.run };
      }
      case 'settle-printed':
      case 'settle-print-again': {
        if (!subject || !('entry' in subject)) throw new StationError('INVALID_INPUT', `The floor action ${data.id} names no label.`);
        const decided = await service.decide(data.environment, subject.entry, data.action === 'settle-printed' ? 'printed' : 'print-again', who);
        return { runId: decided.reprintRun?.runId ?? null };
      }
      case 'send-bundles': {
        const input = SendBundlesSchema.parse(command.input);
        deps.localOnly.requireBundles();
        const run = await core.printBundles({ bundleIds: input.bundleIds, printerId: input.printerId, reverse: input.reverse, operator: who });
        return { runId: run.runId };
      }
    }
  });
}
