// The status questions a transport can put to a Zebra, the bytes each one is, and how to tell that
// its answer is complete. A transport reads until the answer is complete or its time is up.
import { isExtendedStatusComplete } from './extended-status';
import { isHostStatusComplete } from './host-status';
import { isIdentificationComplete } from './identification';
import { scanFrames } from './framing';
import { isSgdReplyComplete, sgdGetvarCommand } from './sgd';

export type ZebraQuery =
  | { kind: 'host-status' }
  | { kind: 'extended-status' }
  | { kind: 'identification' }
  | { kind: 'getvar'; name: string }
  /** ~HQOD (print meters) and ~HQPH (printhead life history): one framed block each. */
  | { kind: 'host-query'; type: 'OD' | 'PH' }
  /** ^HH: the configuration label's text, one framed block; a format of its own. */
  | { kind: 'configuration' };

export const hostStatusQuery: ZebraQuery = { kind: 'host-status' };
export const extendedStatusQuery: ZebraQuery = { kind: 'extended-status' };
export const identificationQuery: ZebraQuery = { kind: 'identification' };
export const getvarQuery = (name: string): ZebraQuery => ({ kind: 'getvar', name });
export const printheadLifeQuery: ZebraQuery = { kind: 'host-query', type: 'PH' };
export const odometerQuery: ZebraQuery = { kind: 'host-query', type: 'OD' };
export const configurationQuery: ZebraQuery = { kind: 'configuration' };

/** The command as sent; tilde commands run at once, even in the middle of a format. */
export function queryCommand(query: ZebraQuery): string {
  switch (query.kind) {
    case 'host-status':
      return '~HS';
    case 'extended-status':
      return '~HQES';
    case 'identification':
      return '~HI';
    case 'getvar':
      return sgdGetvarCommand(query.name);
    case 'host-query':
      return `~HQ${query.type}`;
    case 'configuration':
      return '^XA^HH^XZ';
  }
}

export function isQueryAnswered(query: ZebraQuery, text: string): boolean {
  switch (query.kind) {
    case 'host-status':
      return isHostStatusComplete(text);
    case 'extended-status':
      return isExtendedStatusComplete(text);
    case 'identification':
      return isIdentificationComplete(text);
    case 'getvar':
      return isSgdReplyComplete(text);
    case 'host-query':
    case 'configuration':
      return scanFrames(text).frames.length >= 1;
  }
}

/** "~HS", "getvar head.resolution.in_dpi": for messages. */
export function describeQuery(query: ZebraQuery): string {
  if (query.kind === 'getvar') return `getvar ${query.name}`;
  return query.kind === 'configuration' ? '^HH' : queryCommand(query);
}
