import { environment } from './columns';
import type { SchemaMigration } from './schema-migration';

export const toShipCreationLedger: SchemaMigration = {
  version: 9,
  name: 'orders to ship and the creation ledger',
  sql: (dialect) => `
      -- Orders the shop wants shipped that are not created at the service yet (imported from the
      -- shop's or WMS's export, spreadsheet-upload column names). One row per order reference.
      CREATE TABLE to_ship_orders (
        ${environment},
        order_ref TEXT NOT NULL,
        shipment TEXT NOT NULL,       -- JSON: location, address, recipient, parcels, pudoId, measures
        imported_from TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (environment, order_ref)
      )${dialect.withoutRowid};

      -- One row per intended order (order reference + parcel number), written before its POST.
      -- intended -> posting -> created | rejected | unknown. 'unknown' is never posted again
      -- automatically: a status webhook carrying service_ref, or a lead's decision, settles it.
      CREATE TABLE creation_ledger (
        ${environment},
        order_ref TEXT NOT NULL,
        parcel INTEGER NOT NULL CHECK (parcel >= 1),
        parcel_count INTEGER NOT NULL CHECK (parcel_count >= 1),
        service_ref TEXT NOT NULL,    -- the orderRef sent to the service for this parcel
        state TEXT NOT NULL CHECK (state IN ('intended', 'posting', 'created', 'rejected', 'unknown')),
        order_id TEXT,
        barcode TEXT,
        bundle_id TEXT,
        reason TEXT,
        decided_by TEXT,              -- the lead who settled an unknown parcel
        owner TEXT,                   -- the process that is posting (a second process never posts the same parcel)
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (environment, order_ref, parcel)
      )${dialect.withoutRowid};
      CREATE UNIQUE INDEX creation_ledger_by_service_ref ON creation_ledger (environment, service_ref);
    `,
};
