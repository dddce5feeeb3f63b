import type { StationApi } from '../../../shared/contract';
import type { PrintOutcomeData } from '../../../shared/contract/printing';
import type { ReprintReason } from './commands';
import type { ScanOutcome, ScanService } from './scan-outcome';

export interface ContractScanServiceDeps {
  /** The reason as words for the journal ("Label damaged"), in the screen's language. */
  reasonText(reason: ReprintReason): string;
  /** Who is at the bench, for the journal; empty when nobody said. */
  operator(): string;
}

/** The scan screen's service over the contract: one `printing.scan` per scan, one `printing.print` per reprint. */
export function createContractScanService(station: StationApi, deps: ContractScanServiceDeps): ScanService {
  const operator = () => {
    const name = deps.operator().trim();
    return name === '' ? {} : { operator: name };
  };
  return {
    prepare() {
      // Only a head start: whatever stands in the scan's way is said by the scan itself.
      void station['printing.prepare']({});
    },
    async print(scan) {
      const result = await station['printing.scan']({ scan });
      if (!result.ok) return { kind: 'failed', scan, error: result.error };
      const answer = result.value;
      if (answer.outcome === 'to-ship') return { kind: 'to-ship', shipment: answer.shipment, parcels: answer.parcels };
      if (answer.outcome === 'ambiguous') return { kind: 'ambiguous', scan, candidates: answer.candidates, more: answer.more };
      return outcomeFromPrint(answer);
    },
    async reprint({ scan, reason }) {
      const result = await station['printing.print']({ scan, reprint: { reason: deps.reasonText(reason), ...operator() } });
      return result.ok ? outcomeFromPrint(result.value) : { kind: 'failed', scan, error: result.error };
    },
    async cancel(runId) {
      await station['printing.cancel']({ runId });
    },
    async resume(runId) {
      await station['printing.resume']({ runId });
    },
    onLabel(listener) {
      return station.on('printing.label', (entry) =>
        listener({
          entryId: entry.id,
          state: entry.state,
          reason: entry.reason,
          printedAt: entry.printedAt,
          orderRef: entry.orderRef ?? entry.barcode ?? entry.orderId,
          recipient: entry.recipient,
          printerName: entry.printerName,
        }),
      );
    },
  };
}

/** The words a packer knows an order by: its ref, else its parcel barcode, else the service's id. */
const orderName = (order: { orderRef: string | null; barcode: string | null; orderId: string }) => order.orderRef ?? order.barcode ?? order.orderId;

export function outcomeFromPrint(data: PrintOutcomeData): ScanOutcome {
  if (data.outcome === 'duplicate') {
    return {
      kind: 'duplicate',
      scan: data.scan,
      orderRef: orderName(data.order),
      recipient: data.order.recipient ?? '',
      previous: {
        printedAt: data.previous.printedAt,
        operator: data.previous.operator,
        stationName: data.previous.stationName,
        printerName: data.previous.printerName,
      },
    };
  }
  if (data.outcome === 'elsewhere') {
    return { kind: 'elsewhere', scan: data.scan, orderRef: orderName(data.order), recipient: data.order.recipient ?? '' };
  }
  const { entry } = data;
  const label = {
    orderRef: orderName(data.order),
    recipient: data.order.recipient ?? '',
    printerName: data.printer.name,
    printedAt: entry.printedAt ?? entry.sentAt ?? entry.queuedAt,
    scan: data.scan,
    entryId: entry.id,
    reprint: data.reprint,
  };
  if (data.outcome === 'waiting') {
    return { kind: 'waiting', label, runId: data.runId, fault: { code: data.fault.code, message: data.fault.message, action: data.fault.action }, inPrinter: data.inPrinter };
  }
  return { kind: 'printed', label: data.proofFollows ? label : { ...label, unconfirmed: true } };
}
