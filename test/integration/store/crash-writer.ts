/**
 * Child process for the crash test: writes batches of orders and journal rows, one transaction
 * per batch, and reports each batch on stdout only after it has committed. The test kills it
 * with SIGKILL at a random moment.
 */
import { openDatabase } from '../../../src/main/store/database';
import { SqliteEngine } from '../../../src/main/store/engine/sqlite-engine';
import { OrderIndex } from '../../../src/main/orders/order-index';

const [path, firstBatchText, rowsPerBatchText] = process.argv.slice(2);
if (!path || !firstBatchText || !rowsPerBatchText) throw new Error('usage: crash-writer <db> <first batch> <rows per batch>');
const db = openDatabase(path);
const index = new OrderIndex(new SqliteEngine(db));
const rowsPerBatch = Number(rowsPerBatchText);
// The journal row through the same transaction: the test is about one commit holding both or neither.
const journal = `INSERT INTO print_journal (environment, printer_id, operator, order_id, format, state, queued_at, updated_at)
   VALUES ('test', 'zebra-1', 'crash test', $1, 'zpl', 'queued', $2, $2)`;
const padding = 'x'.repeat(300);

for (let batch = Number(firstBatchText); ; batch += 1) {
  await index.transaction(async (tx) => {
    for (let row = 0; row < rowsPerBatch; row += 1) {
      const orderId = `B${batch}-R${row}`;
      await index.upsert('test', { orderId, orderRef: `REF-${batch}-${row}`, barcode: `BC${batch}${row}`, recipient: `${padding}${row}`, status: 'draft' }, 'import', tx);
      await tx.execute(journal, [orderId, new Date().toISOString()]);
    }
  });
  process.stdout.write(`committed ${batch}\n`);
}
