import { describe, expect, it } from 'vitest';
import { screenIds, screenKeyHint, screenKeys, shortcutFor } from '../../../src/renderer/src/navigation/shortcuts';

const press = (key: string, modifiers: Partial<{ ctrlKey: boolean; altKey: boolean; metaKey: boolean; shiftKey: boolean }> = {}) =>
  shortcutFor({ key, ctrlKey: false, altKey: false, metaKey: false, shiftKey: false, ...modifiers });

describe('keyboard map', () => {
  it('opens the first five screens with F1–F5, and all six with Alt+1–6 (the Floor has no F-key)', () => {
    const withFKeys = screenIds.filter((screen) => screenKeys[screen] !== null);
    expect(withFKeys).toEqual(['scan', 'shift', 'printers', 'setup', 'history']);
    expect(withFKeys.map((screen) => press(screenKeys[screen] ?? ''))).toEqual(withFKeys.map((screen) => ({ type: 'navigate', screen })));
    expect(press('1', { altKey: true })).toEqual({ type: 'navigate', screen: 'scan' });
    expect(press('5', { altKey: true })).toEqual({ type: 'navigate', screen: 'history' });
    expect(press('6', { altKey: true })).toEqual({ type: 'navigate', screen: 'floor' });
    expect(screenKeyHint('floor')).toBe('Alt+6');
    expect(screenKeyHint('history')).toBe('F5');
  });

  it('reprints recent labels with F6–F9 and goes back with Esc', () => {
    expect(press('F6')).toEqual({ type: 'reprint-recent', index: 0 });
    expect(press('F9')).toEqual({ type: 'reprint-recent', index: 3 });
    expect(press('Escape')).toEqual({ type: 'dismiss' });
  });

  it('previews recent labels with Shift+F6–F9', () => {
    expect(press('F6', { shiftKey: true })).toEqual({ type: 'preview-recent', index: 0 });
    expect(press('F8', { shiftKey: true })).toEqual({ type: 'preview-recent', index: 2 });
    expect(press('Escape', { shiftKey: true })).toBeNull();
  });

  it('leaves characters and the browser’s own combinations alone', () => {
    expect(press('1')).toBeNull();
    expect(press('a')).toBeNull();
    expect(press('F1', { ctrlKey: true })).toBeNull();
    expect(press('F1', { shiftKey: true })).toBeNull();
    expect(press('7', { altKey: true })).toBeNull();
    expect(press('F10')).toBeNull();
  });
});
