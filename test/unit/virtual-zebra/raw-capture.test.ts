import { describe, expect, it } from 'vitest';
import { RawCapture } from '../../../src/sandbox/printer/raw-capture';

describe('raw capture', () => {
  it('keeps each connection’s bytes in order, connections in the order they first sent', () => {
    const capture = new RawCapture();
    capture.add(2, Buffer.from('^XA'));
    capture.add(1, Buffer.from('~HS'));
    capture.add(2, Buffer.from([0x00, 0xff, 0x5e]));
    expect(capture.list()).toEqual([
      { connectionId: 2, bytes: Buffer.from([0x5e, 0x58, 0x41, 0x00, 0xff, 0x5e]) },
      { connectionId: 1, bytes: Buffer.from('~HS') },
    ]);
  });

  it('drops the oldest bytes, oldest connection first, once over its limit', () => {
    const capture = new RawCapture(10);
    capture.add(1, Buffer.from('abcdef'));
    capture.add(2, Buffer.from('123'));
    capture.add(2, Buffer.from('4567'));
    expect(capture.list()).toEqual([
      { connectionId: 1, bytes: Buffer.from('def') },
      { connectionId: 2, bytes: Buffer.from('1234567') },
    ]);
    capture.add(3, Buffer.from('XYZW'));
    expect(capture.list()).toEqual([
      { connectionId: 2, bytes: Buffer.from('234567') },
      { connectionId: 3, bytes: Buffer.from('XYZW') },
    ]);
  });

  it('keeps a copy, not the socket’s memory', () => {
    const capture = new RawCapture();
    const chunk = Buffer.from('^XA^XZ');
    capture.add(1, chunk);
    chunk.fill(0);
    expect(capture.list()[0]?.bytes.toString()).toBe('^XA^XZ');
  });

  it('holds the newest 16 MiB by default', () => {
    const capture = new RawCapture();
    capture.add(1, Buffer.from('A'));
    capture.add(1, Buffer.alloc(16 * 1024 * 1024 - 1, 0x42));
    expect(capture.list()[0]?.bytes[0]).toBe(0x41);
    capture.add(1, Buffer.from('C'));
    const [kept] = capture.list();
    expect(kept?.bytes.length).toBe(16 * 1024 * 1024);
    expect([kept?.bytes[0], kept?.bytes.at(-1)]).toEqual([0x42, 0x43]);
  });
});
