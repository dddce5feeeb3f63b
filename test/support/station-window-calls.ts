/**
 * Every function the renderer finds on window.station, written out by hand rather than read from
 * the contract: each one is a door from the sandboxed page into the station's core, so a call
 * added to (or dropped from) the contract must be named here too, on purpose.
 */
export const stationWindowCalls = [
  'app.info',
  'floor.act', 'floor.list',
  'imports.manifest', 'imports.pick', 'imports.recent',
  'keys.remove', 'keys.set', 'keys.status', 'keys.verify',
  'orders.bundles', 'orders.count', 'orders.lookup', 'orders.samples',
  'printers.add', 'printers.calibrate', 'printers.changeSettings', 'printers.check', 'printers.configLabel', 'printers.discover',
  'printers.list', 'printers.osQueues', 'printers.remove', 'printers.settingChanges', 'printers.settings',
  'printers.status', 'printers.test', 'printers.update', 'printers.usbDevices',
  'printing.cancel', 'printing.decide', 'printing.journal', 'printing.labelDocument', 'printing.pause',
  'printing.prepare', 'printing.print', 'printing.printBundles', 'printing.resume', 'printing.retryFailed', 'printing.run',
  'printing.runs', 'printing.scan',
  'sandbox.printedLabels',
  'scales.current', 'scales.get', 'scales.list', 'scales.set',
  'settings.get', 'settings.set',
  'shipping.checkAddress', 'shipping.checkPostalCode', 'shipping.coverage', 'shipping.decide', 'shipping.import',
  'shipping.ledger', 'shipping.newShipment', 'shipping.pickupPoints', 'shipping.ship', 'shipping.toShip',
  'shipping.unknown',
  'store.allowLocalPrinting', 'store.endLocalPrinting', 'store.get', 'store.offlineReport', 'store.set', 'store.test',
  'supervision.acknowledge', 'supervision.cancel', 'supervision.cancelBundle', 'supervision.dayClose',
  'supervision.notices', 'supervision.whereabouts',
  'upload.cancel', 'upload.labels', 'upload.list', 'upload.pause', 'upload.prepare', 'upload.problems',
  'upload.report', 'upload.start', 'upload.status',
  'webhooks.conflicts', 'webhooks.settle', 'webhooks.start', 'webhooks.status', 'webhooks.stop',
] as const;
