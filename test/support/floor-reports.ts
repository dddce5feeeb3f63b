/** A bench's report and its floor entry for the floor's unit tests: a quiet bench, with what a test changes. */
import type { BenchReportData, FloorBenchData } from '../../src/shared/contract/floor';

export const benchReport = (benchId: string, patch: Partial<BenchReportData> = {}): BenchReportData => ({
  benchId,
  stationName: `Bench ${benchId}`,
  operator: 'Sam',
  environment: 'live',
  printers: [],
  labelsInBuffer: 0,
  labelsToday: 0,
  labelsLastHour: 0,
  lastScanAt: null,
  uncertainCount: 0,
  uncertain: [],
  runs: [],
  startedAt: '2026-05-04T06:00:00.000Z',
  stoppedAt: null,
  ...patch,
});

export const floorBench = (name: string, patch: Partial<FloorBenchData> = {}): FloorBenchData => ({
  ...benchReport(`id-${name}`, { stationName: name }),
  answering: 'yes',
  heardAt: '2026-05-04T10:42:00.000Z',
  self: false,
  ...patch,
});
