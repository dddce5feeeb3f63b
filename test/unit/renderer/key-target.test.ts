import { describe, expect, it } from 'vitest';
import { classifyKeyTarget } from '../../../src/renderer/src/scan/key-target';

const element = (tagName: string, extra: { inputType?: string; isContentEditable?: boolean; isScanEntry?: boolean } = {}) => ({
  tagName,
  isContentEditable: false,
  isScanEntry: false,
  ...extra,
});

describe('where a key went', () => {
  it('catches scans on the page and on buttons, checkboxes and sliders', () => {
    expect(classifyKeyTarget(null)).toBe('other');
    expect(classifyKeyTarget(element('BODY'))).toBe('other');
    expect(classifyKeyTarget(element('BUTTON'))).toBe('other');
    expect(classifyKeyTarget(element('INPUT', { inputType: 'checkbox' }))).toBe('other');
    expect(classifyKeyTarget(element('INPUT', { inputType: 'range' }))).toBe('other');
  });

  it('leaves text, number, search and password fields, text areas, selects and editable text alone', () => {
    for (const inputType of ['text', 'number', 'search', 'password', 'url', 'email']) {
      expect(classifyKeyTarget(element('INPUT', { inputType }))).toBe('text-field');
    }
    expect(classifyKeyTarget(element('INPUT'))).toBe('text-field');
    expect(classifyKeyTarget(element('TEXTAREA'))).toBe('text-field');
    expect(classifyKeyTarget(element('SELECT'))).toBe('text-field');
    expect(classifyKeyTarget(element('DIV', { isContentEditable: true }))).toBe('text-field');
  });

  it('recognises the manual entry field', () => {
    expect(classifyKeyTarget(element('INPUT', { inputType: 'text', isScanEntry: true }))).toBe('manual-entry');
  });
});
