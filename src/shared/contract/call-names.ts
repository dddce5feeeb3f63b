/**
 * The name of every call of the contract (src/shared/contract.ts), without the calls' schemas.
 * The page builds `window.station` from these names: importing the contract for them would build
 * every call's zod schemas at each start of the page, none of which the page uses. A unit test
 * (test/unit/contract/call-names.test.ts) keeps this list and the contract the same.
 */
export const callNameList = [
  'app.info',
  'settings.get', 'settings.set',
  'keys.status', 'keys.set', 'keys.verify', 'keys.remove',
  'orders.lookup', 'orders.count', 'orders.samples', 'orders.bundles',
  'imports.pick', 'imports.recent', 'imports.manifest',
  'webhooks.status', 'webhooks.start', 'webhooks.stop', 'webhooks.conflicts', 'webhooks.settle',
  'printers.list', 'printers.add', 'printers.update', 'printers.remove', 'printers.status', 'printers.check', 'printers.test', 'printers.osQueues', 'printers.usbDevices', 'printers.discover', 'printers.settings', 'printers.changeSettings', 'printers.calibrate', 'printers.configLabel', 'printers.settingChanges',
  'printing.print', 'printing.scan', 'printing.prepare', 'printing.printBundles', 'printing.pause', 'printing.resume', 'printing.cancel', 'printing.retryFailed', 'printing.decide', 'printing.runs', 'printing.run', 'printing.journal', 'printing.labelDocument',
  'sandbox.printedLabels',
  'supervision.cancel', 'supervision.cancelBundle', 'supervision.notices', 'supervision.acknowledge', 'supervision.whereabouts', 'supervision.dayClose',
  'shipping.newShipment', 'shipping.checkAddress', 'shipping.checkPostalCode', 'shipping.coverage', 'shipping.pickupPoints', 'shipping.toShip', 'shipping.import', 'shipping.ship', 'shipping.ledger', 'shipping.unknown', 'shipping.decide',
  'upload.prepare', 'upload.start', 'upload.pause', 'upload.cancel', 'upload.status', 'upload.list', 'upload.problems', 'upload.report', 'upload.labels',
  'store.get', 'store.set', 'store.test', 'store.allowLocalPrinting', 'store.endLocalPrinting', 'store.offlineReport',
  'scales.list', 'scales.get', 'scales.set', 'scales.current',
  'floor.list', 'floor.act',
] as const;
