import { describe, expect, it } from 'vitest';
import { toSqlitePlaceholders } from '../../../src/main/store/engine/portable-sql';

describe('portable SQL on SQLite', () => {
  it('rewrites numbered parameters to SQLite numbered parameters, repeats included', () => {
    expect(toSqlitePlaceholders('SELECT * FROM orders WHERE environment = $1 AND (order_ref = $2 OR barcode = $2) LIMIT $10')).toBe(
      'SELECT * FROM orders WHERE environment = ?1 AND (order_ref = ?2 OR barcode = ?2) LIMIT ?10',
    );
  });

  it('leaves $ alone in quoted text, quoted identifiers and comments, and where no digit follows', () => {
    const sql = `SELECT 'costs $1 ''or $2''' AS "col$3", price$ -- $4 in a comment
      FROM t /* $5 */ WHERE a = $1`;
    expect(toSqlitePlaceholders(sql)).toBe(`SELECT 'costs $1 ''or $2''' AS "col$3", price$ -- $4 in a comment
      FROM t /* $5 */ WHERE a = ?1`);
  });
});
