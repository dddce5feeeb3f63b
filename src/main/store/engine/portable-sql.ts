/**
 * The one rewrite portable SQL needs on SQLite: numbered parameters `$1` become `?1` (SQLite reads
 * `$1` as a named parameter). Quoted text, quoted identifiers and comments are left alone, so a
 * literal '$1' in a string stays a string.
 */
export function toSqlitePlaceholders(sql: string): string {
  let out = '';
  let index = 0;
  while (index < sql.length) {
    const char = sql[index]!;
    const next = sql[index + 1];
    if (char === "'" || char === '"') {
      const end = closingQuote(sql, index, char);
      out += sql.slice(index, end);
      index = end;
    } else if (char === '-' && next === '-') {
      const end = sql.indexOf('\n', index);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(index, stop);
      index = stop;
    } else if (char === '/' && next === '*') {
      const end = sql.indexOf('*/', index + 2);
      const stop = end === -1 ? sql.length : end + 2;
      out += sql.slice(index, stop);
      index = stop;
    } else if (char === '$' && next !== undefined && next >= '0' && next <= '9') {
      out += '?';
      index += 1;
    } else {
      out += char;
      index += 1;
    }
  }
  return out;
}

/** The index just past the quote closing the one at `start` (a doubled quote is an escaped one). */
function closingQuote(sql: string, start: number, quote: string): number {
  let index = start + 1;
  while (index < sql.length) {
    if (sql[index] === quote) {
      if (sql[index + 1] === quote) index += 2;
      else return index + 1;
    } else index += 1;
  }
  return sql.length;
}
