/**
 * A small streaming XML tokenizer for the parts of an XLSX workbook, bounded by construction: text
 * is handed on in pieces as it arrives (the reader decides what to keep, and caps it), a tag may
 * not grow past a few KiB, comments are skipped without being kept, and a DOCTYPE (entity tricks)
 * is refused. It understands what spreadsheet XML uses and nothing more.
 */
import { SheetFileProblem } from './sheet-limits';

export interface XmlHandler {
  /** Elements whose attributes the handler reads (the others' are not parsed: most of a sheet is `<v>`). */
  readonly attributesOf?: ReadonlySet<string>;
  /** An element opened; `name` without its namespace prefix. */
  open(name: string, attributes: Record<string, string>): void;
  close(name: string): void;
  /** Raw (still entity-encoded) text between tags, in pieces. */
  text(raw: string): void;
}

const maxTagChars = 16 * 1024;
type Mode = 'text' | 'tag' | 'comment' | 'cdata' | 'declaration';

export class XmlTokenizer {
  private mode: Mode = 'text';
  private tag = '';
  private quote: string | null = null;
  /** The last characters of a comment or CDATA section, to find its end across pieces. */
  private tail = '';

  constructor(
    private readonly handler: XmlHandler,
    private readonly part: string,
  ) {}

  write(chunk: string): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.mode === 'text') {
        const next = chunk.indexOf('<', at);
        if (next < 0) {
          this.handler.text(chunk.slice(at));
          return;
        }
        if (next > at) this.handler.text(chunk.slice(at, next));
        this.mode = 'tag';
        this.tag = '';
        this.quote = null;
        at = next + 1;
      } else if (this.mode === 'tag') {
        at = this.readTag(chunk, at);
      } else {
        at = this.skipTo(chunk, at);
      }
    }
  }

  end(): void {
    if (this.mode !== 'text') throw new SheetFileProblem(`its part ${this.part} ends in the middle of a tag`);
  }

  private readTag(chunk: string, from: number): number {
    // Fast path, nearly every tag: it ends in this piece, its quotes are plain double quotes in
    // pairs, and it is not a comment, CDATA or declaration (those need the careful path).
    if (this.tag === '' && this.quote === null && chunk.length - from >= 9) {
      const end = chunk.indexOf('>', from);
      const first = chunk.charCodeAt(from);
      if (end >= 0 && end - from <= maxTagChars && first !== 0x21 /* ! */ && first !== 0x3f /* ? */) {
        const raw = chunk.slice(from, end);
        if (!raw.includes("'") && evenQuotes(raw)) {
          this.finishTag(raw);
          this.mode = 'text';
          return end + 1;
        }
      }
    }
    let at = from;
    while (at < chunk.length) {
      const character = chunk[at] as string;
      if (this.quote) {
        if (character === this.quote) this.quote = null;
      } else if (character === '"' || character === "'") {
        this.quote = character;
      } else if (character === '>') {
        this.finishTag(this.tag);
        this.mode = 'text';
        return at + 1;
      }
      this.tag += character;
      at += 1;
      if (this.tag === '!--') return this.enter('comment', at);
      if (this.tag === '![CDATA[') return this.enter('cdata', at);
      if (this.tag === '?') return this.enter('declaration', at);
      if (this.tag.length > maxTagChars) throw new SheetFileProblem(`its part ${this.part} has a tag longer than ${maxTagChars / 1024} KiB`);
    }
    return at;
  }

  private enter(mode: Mode, at: number): number {
    this.mode = mode;
    this.tail = '';
    return at;
  }

  /** Skips (or, for CDATA, passes on as text) up to the end marker of a comment, CDATA or declaration. */
  private skipTo(chunk: string, from: number): number {
    const marker = this.mode === 'comment' ? '-->' : this.mode === 'cdata' ? ']]>' : '?>';
    const joined = this.tail + chunk.slice(from);
    const found = joined.indexOf(marker);
    if (found < 0) {
      const keep = Math.min(joined.length, marker.length - 1);
      if (this.mode === 'cdata') this.handler.text(escapeText(joined.slice(0, joined.length - keep)));
      this.tail = joined.slice(joined.length - keep);
      return chunk.length;
    }
    if (this.mode === 'cdata') this.handler.text(escapeText(joined.slice(0, found)));
    const consumedOfChunk = found + marker.length - this.tail.length;
    this.mode = 'text';
    this.tail = '';
    return from + consumedOfChunk;
  }

  private finishTag(raw: string): void {
    if (raw.startsWith('!')) {
      if (/^!DOCTYPE/i.test(raw)) throw new SheetFileProblem(`its part ${this.part} declares a DOCTYPE, which spreadsheet files never do`);
      return;
    }
    if (raw.startsWith('/')) {
      this.handler.close(localName(raw.slice(1).trim()));
      return;
    }
    const selfClosing = raw.endsWith('/');
    const body = selfClosing ? raw.slice(0, -1) : raw;
    const nameEnd = body.search(/\s/);
    const name = localName(nameEnd < 0 ? body : body.slice(0, nameEnd));
    const attributes: Record<string, string> = {};
    if (nameEnd >= 0 && (!this.handler.attributesOf || this.handler.attributesOf.has(name))) {
      for (const match of body.slice(nameEnd).matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        attributes[localName(match[1] as string)] = decodeEntities(match[2] ?? match[3] ?? '');
      }
    }
    this.handler.open(name, attributes);
    if (selfClosing) this.handler.close(name);
  }
}

function evenQuotes(text: string): boolean {
  let count = 0;
  for (let at = text.indexOf('"'); at >= 0; at = text.indexOf('"', at + 1)) count += 1;
  return count % 2 === 0;
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeEntities(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/g, (whole, entity: string) => {
    if (entity.startsWith('#')) {
      const code = entity[1] === 'x' ? Number.parseInt(entity.slice(2), 16) : Number.parseInt(entity.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return named[entity] ?? whole;
  });
}
