import type { Page } from '@playwright/test';

/**
 * What a person would find cut off on the screen as it stands: every text and every control must
 * be whole and in view, or inside a scroll area whose scrollbar is in view (so scrolling shows
 * it). Text cut by its own box is allowed only with an ellipsis (the whole text is then the
 * element's title). Areas marked `data-fit="whole"` (the scan result panel) must not need to
 * scroll at all. With a modal dialog open, the dialog is what is checked. Empty when it all fits.
 */
export async function unfitOnScreen(page: Page): Promise<string[]> {
  const inPage = new Function(unfitBody) as () => string[];
  return page.evaluate(inPage);
}

const unfitBody = `
  const tolerance = 1;
  const problems = [];
  const viewport = { left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight };
  const modal = [...document.querySelectorAll('dialog[open]')].pop() || null;
  const root = modal || document.body;
  const name = (element) => {
    const id = element.getAttribute('data-testid');
    const classes = typeof element.className === 'string' && element.className ? '.' + element.className.trim().split(/\\s+/).join('.') : '';
    return element.tagName.toLowerCase() + (id ? '[' + id + ']' : '') + classes;
  };
  const shown = (element) => {
    for (let node = element; node && node !== document.documentElement; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.display === 'none' || style.visibility === 'hidden' || style.opacity === '0') return false;
      // Read by screen readers only (the visually-hidden pattern): no one sees it to find it cut.
      if (node.classList.contains('visually-hidden') || style.clip === 'rect(0px, 0px, 0px, 0px)') return false;
    }
    return true;
  };
  const clips = (style, axis) => (axis === 'x' ? style.overflowX : style.overflowY) !== 'visible';
  const scrolls = (style, axis) => ['auto', 'scroll'].includes(axis === 'x' ? style.overflowX : style.overflowY);
  const inner = (element) => {
    const box = element.getBoundingClientRect();
    const left = box.left + element.clientLeft;
    const top = box.top + element.clientTop;
    return { left, top, right: left + element.clientWidth, bottom: top + element.clientHeight };
  };
  const intersect = (a, b) => ({ left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) });
  // The part of the screen an element's content can be seen in: the viewport cut by every clipping ancestor.
  const seenIn = (element) => {
    let region = viewport;
    // A modal dialog is drawn above the page: nothing of the page cuts it.
    if (element.tagName === 'DIALOG' && element.open) return region;
    for (let node = element.parentElement; node; node = node.parentElement) {
      if (node.tagName === 'DIALOG' && node.open) break;
      const style = getComputedStyle(node);
      const box = inner(node);
      if (clips(style, 'x')) region = { ...region, left: Math.max(region.left, box.left), right: Math.min(region.right, box.right) };
      if (clips(style, 'y')) region = { ...region, top: Math.max(region.top, box.top), bottom: Math.min(region.bottom, box.bottom) };
    }
    return region;
  };
  // A scroll area's scrollbar for an axis is in view when that edge of the area, its whole length, is seen.
  const scrollbarInView = (area, axis) => {
    const box = area.getBoundingClientRect();
    const region = seenIn(area);
    const across = box.left >= region.left - tolerance && box.right <= region.right + tolerance;
    const down = box.top >= region.top - tolerance && box.bottom <= region.bottom + tolerance;
    return axis === 'y' ? down && box.right <= region.right + tolerance && box.right >= region.left : across && box.bottom <= region.bottom + tolerance && box.bottom >= region.top;
  };
  // Whether a box (of text or a control) can be seen whole, or scrolled to; why not if not.
  const reachable = (box, from, ownEllipsis) => {
    const reasons = [];
    for (const axis of ['x', 'y']) {
      const [low, high] = axis === 'x' ? ['left', 'right'] : ['top', 'bottom'];
      let covered = false;
      for (let node = from; node && !covered; node = node.parentElement) {
        const style = getComputedStyle(node);
        const isDialog = node.tagName === 'DIALOG' && node.open;
        if (clips(style, axis)) {
          const area = inner(node);
          const cut = box[low] < area[low] - tolerance || box[high] > area[high] + tolerance;
          if (cut) {
            if (axis === 'x' && node === ownEllipsis) covered = true;
            else if (scrolls(style, axis) && scrollbarInView(node, axis)) covered = true;
            else {
              reasons.push('cut ' + (axis === 'x' ? 'across' : 'down') + ' by ' + name(node));
              covered = true;
            }
          }
        }
        if (isDialog) break;
      }
      if (!covered && (box[low] < viewport[low] - tolerance || box[high] > viewport[high] + tolerance)) reasons.push('off the screen ' + (axis === 'x' ? 'across' : 'down'));
    }
    return reasons;
  };
  const round = (box) => [box.left, box.top, box.right, box.bottom].map(Math.round).join(',');
  const controls = 'button, input:not([type=hidden]), select, textarea, a[href], label.button, [role=button]';
  for (const element of [root, ...root.querySelectorAll('*')]) {
    if (!shown(element)) continue;
    const style = getComputedStyle(element);
    if (element.getAttribute('data-fit') === 'whole' && (element.scrollHeight > element.clientHeight + tolerance || element.scrollWidth > element.clientWidth + tolerance)) {
      problems.push(name(element) + ' must fit whole but scrolls: ' + element.scrollWidth + '×' + element.scrollHeight + ' in ' + element.clientWidth + '×' + element.clientHeight);
    }
    // An ellipsis is drawn only by a block container: on a flex or grid box the text is cut mid-letter.
    const blockBox = !/flex|grid/.test(style.display);
    const ownEllipsis = style.textOverflow === 'ellipsis' && clips(style, 'x') && blockBox ? element : null;
    const clamped = style.webkitLineClamp && style.webkitLineClamp !== 'none';
    if (element.matches(controls)) {
      const box = element.getBoundingClientRect();
      if (box.width > 1 && box.height > 1) {
        for (const reason of reachable(box, element.parentElement, null)) problems.push(name(element) + ' "' + (element.textContent || element.getAttribute('aria-label') || '').trim().slice(0, 30) + '" ' + reason + ' at ' + round(box));
      }
    }
    for (const child of element.childNodes) {
      if (child.nodeType !== Node.TEXT_NODE || !child.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(child);
      const box = range.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      const reasons = reachable(box, element, ownEllipsis);
      // Text cut by a box of its own that does not scroll: only an ellipsis (or a line clamp) says there is more.
      if (!ownEllipsis && !clamped && clips(style, 'x') && !scrolls(style, 'x') && element.scrollWidth > element.clientWidth + tolerance) reasons.push('cut across inside its own box, with no ellipsis');
      for (const reason of reasons) problems.push('text "' + child.textContent.trim().slice(0, 40) + '" in ' + name(element) + ' ' + reason + ' at ' + round(box));
    }
  }
  // Controls lying over one another (a long select over the checkbox beside it): one hides the other.
  const placed = [...root.querySelectorAll('button, input:not([type=hidden]), select, textarea')]
    .filter((control) => shown(control))
    .map((control) => ({ control, box: control.getBoundingClientRect() }))
    .filter(({ box }) => box.width > 1 && box.height > 1);
  for (let i = 0; i < placed.length; i += 1) {
    for (let j = i + 1; j < placed.length; j += 1) {
      const a = placed[i], b = placed[j];
      if (a.control.contains(b.control) || b.control.contains(a.control)) continue;
      const overlap = intersect(a.box, b.box);
      if (overlap.right - overlap.left > 2 && overlap.bottom - overlap.top > 2) problems.push(name(a.control) + ' overlaps ' + name(b.control) + ' at ' + round(overlap));
    }
  }
  return [...new Set(problems)];`;
