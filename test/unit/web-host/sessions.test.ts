import { describe, expect, it } from 'vitest';
import { parseRequestTarget, sameOriginPath } from '../../../src/main/web-host/request-target';
import { createSignedWebSessions, createWebSessions } from '../../../src/main/web-host/sessions';

describe('web host sessions', () => {
  it('gives each trade a new id and forgets the oldest beyond the limit', () => {
    let next = 0;
    const sessions = createWebSessions({ limit: 2, randomId: () => `session-${next++}` });
    const [a, b, c] = [sessions.open(), sessions.open(), sessions.open()];
    expect(new Set([a, b, c]).size).toBe(3);
    expect([a, b, c].map((id) => sessions.isValid(id))).toEqual([false, true, true]);
    expect(sessions.isValid(undefined)).toBe(false);
    expect(sessions.isValid('')).toBe(false);
  });
});

describe('request targets', () => {
  it('reads only origin-form targets, as paths on this host', () => {
    expect(parseRequestTarget('//evil.example/x?token=1')?.pathname).toBe('//evil.example/x');
    expect(parseRequestTarget('/assets/app.js?v=2')?.searchParams.get('v')).toBe('2');
    for (const target of [undefined, '', '*', 'http://evil.example/', `/${'a'.repeat(9000)}`]) expect(parseRequestTarget(target)).toBeNull();
  });

  it('collapses leading slashes and backslashes so a redirect stays on this host', () => {
    expect(sameOriginPath('//evil.example/')).toBe('/evil.example/');
    expect(sameOriginPath('/\\evil.example')).toBe('/evil.example');
    expect(sameOriginPath('/')).toBe('/');
    expect(sameOriginPath('/assets/')).toBe('/assets/');
  });
});

describe('signed web host sessions', () => {
  it('are known again by a host restarted with the same token, and by no other', () => {
    const first = createSignedWebSessions('token-of-this-bench-0123456789abcdefghijklmn');
    const id = first.open();
    expect(id).toMatch(/^[A-Za-z0-9_-]{70,}$/);
    expect(first.isValid(id)).toBe(true);
    const restarted = createSignedWebSessions('token-of-this-bench-0123456789abcdefghijklmn');
    expect(restarted.isValid(id)).toBe(true);
    expect(createSignedWebSessions('another-token-0123456789abcdefghijklmnopqrstu').isValid(id)).toBe(false);
    expect(restarted.isValid(`${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
    expect(restarted.isValid(id.slice(-43))).toBe(false);
    expect(restarted.isValid(undefined)).toBe(false);
  });
});
