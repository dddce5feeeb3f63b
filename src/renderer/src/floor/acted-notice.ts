/**
 * What this bench's screen says when a lead acted on it from the floor at another bench:
 * "Anna at Bench 2 paused the run on Zebra 4". Worded by the Notices component from
 * `notices.floor-<action>` with the lead, their bench and the run or label.
 */
import type { FloorCommandData } from '../../../shared/contract/floor';
import type { Notice } from '../state/app-store';

export function floorActedNotice(command: FloorCommandData): Omit<Notice, 'id'> {
  const subject = command.target.slice(command.target.indexOf(':') + 1);
  return {
    level: command.action === 'cancel' ? 'warning' : 'info',
    // Only the log's English fallback: the code is always worded.
    message: `${command.operator} at ${command.fromBenchName}: ${command.action}`,
    code: `floor-${command.action}`,
    facts: { operator: command.operator, bench: command.fromBenchName, run: (command.runId ?? subject).slice(0, 8) },
  };
}
