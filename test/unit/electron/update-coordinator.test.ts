import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PrintActivity } from '../../../src/main/updates/print-activity';
import { createUpdateCoordinator, type UpdaterPort } from '../../../src/main/updates/update-coordinator';
import { updateSettingsSchema } from '../../../src/main/updates/update-settings';
import { memoryLogger } from './fakes';

const MINUTE = 60_000;

/** electron-updater as the coordinator sees it: the test decides when a download completes. */
class FakeUpdater implements UpdaterPort {
  checks = 0;
  installs = 0;
  private downloaded = new Set<(version: string) => void>();
  private errors = new Set<(message: string) => void>();
  async checkForUpdates() {
    this.checks += 1;
  }
  quitAndInstall() {
    this.installs += 1;
  }
  onUpdateDownloaded(listener: (version: string) => void) {
    this.downloaded.add(listener);
    return () => void this.downloaded.delete(listener);
  }
  onError(listener: (message: string) => void) {
    this.errors.add(listener);
    return () => void this.errors.delete(listener);
  }
  finishDownload(version: string) {
    for (const listener of this.downloaded) listener(version);
  }
}

/** A print queue the test runs: busy while labels are printing, idle event when it drains. */
class FakePrintQueue implements PrintActivity {
  busy = false;
  private listeners = new Set<() => void>();
  isQueueIdle() {
    return !this.busy;
  }
  onQueueIdle(listener: () => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  startRun() {
    this.busy = true;
  }
  finishRun() {
    this.busy = false;
    for (const listener of this.listeners) listener();
  }
}

function setup(settings: Record<string, unknown> = { feedUrl: 'https://updates.example.com/station', installAfterIdleMinutes: 2 }) {
  const updater = new FakeUpdater();
  const queue = new FakePrintQueue();
  const notices: string[] = [];
  const coded: unknown[] = [];
  const created: string[] = [];
  const { logger, lines } = memoryLogger();
  const coordinator = createUpdateCoordinator({
    settings: updateSettingsSchema().parse(settings),
    createUpdater: (feedUrl, channel) => {
      created.push(`${feedUrl} ${channel}`);
      return updater;
    },
    activity: queue,
    logger,
    notify: (_level, message, notice) => {
      notices.push(message);
      coded.push(notice);
    },
    firstCheckDelayMs: 30_000,
  });
  return { coordinator, updater, queue, notices, coded, created, lines };
}

describe('updates', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('are off unless a feed is configured: no updater is even created', async () => {
    const { coordinator, created, lines } = setup({});
    coordinator.start();
    expect(coordinator.state).toBe('off');
    expect(await coordinator.checkNow()).toBe('off');
    await vi.advanceTimersByTimeAsync(48 * 60 * MINUTE);
    expect(created).toEqual([]);
    expect(lines.join('\n')).toContain('updates are off');
  });

  it('check the configured feed shortly after start and then every few hours', async () => {
    const { coordinator, updater, created } = setup({ feedUrl: 'https://updates.example.com/station', checkEveryHours: 4, channel: 'beta' });
    coordinator.start();
    expect(created).toEqual(['https://updates.example.com/station beta']);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(updater.checks).toBe(1);
    await vi.advanceTimersByTimeAsync(4 * 60 * MINUTE);
    expect(updater.checks).toBe(2);
    coordinator.stop();
    await vi.advanceTimersByTimeAsync(24 * 60 * MINUTE);
    expect(updater.checks).toBe(2);
  });

  it('install a downloaded version once the queues have been idle for the quiet period', async () => {
    const { coordinator, updater, notices, coded } = setup();
    coordinator.start();
    updater.finishDownload('1.2.0');
    expect(coordinator.state).toBe('waiting-for-idle-queue');
    expect(notices[0]).toBe('Version 1.2.0 is ready. It will be installed when no labels are printing.');
    // The screen words it from the code and the version, in its own language.
    expect(coded[0]).toEqual({ code: 'update-ready', facts: { version: '1.2.0' } });
    await vi.advanceTimersByTimeAsync(2 * MINUTE - 1);
    expect(updater.installs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(updater.installs).toBe(1);
    expect(coordinator.state).toBe('installing');
    expect(notices[1]).toContain('Installing version 1.2.0');
  });

  it('never interrupt a running print run, however long it takes', async () => {
    const { coordinator, updater, queue } = setup();
    coordinator.start();
    queue.startRun();
    updater.finishDownload('1.2.0');
    await vi.advanceTimersByTimeAsync(8 * 60 * MINUTE);
    expect(updater.installs).toBe(0);
    queue.finishRun();
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(updater.installs).toBe(1);
  });

  it('start the quiet period again each time a run finishes within it', async () => {
    const { coordinator, updater, queue } = setup();
    coordinator.start();
    updater.finishDownload('1.2.0');
    await vi.advanceTimersByTimeAsync(MINUTE);
    queue.startRun();
    queue.finishRun(); // a packer scanned and printed one label
    await vi.advanceTimersByTimeAsync(MINUTE + 30_000);
    expect(updater.installs).toBe(0);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(updater.installs).toBe(1);
  });

  it('do not install when the quiet period ends in the middle of a run', async () => {
    const { coordinator, updater, queue } = setup();
    coordinator.start();
    updater.finishDownload('1.2.0');
    await vi.advanceTimersByTimeAsync(MINUTE);
    queue.startRun();
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(updater.installs).toBe(0);
    queue.finishRun();
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(updater.installs).toBe(1);
  });

  it('report a failed check without stopping the station', async () => {
    const { coordinator, updater, lines } = setup();
    updater.checkForUpdates = async () => {
      throw new Error('getaddrinfo ENOTFOUND updates.example.com');
    };
    expect(await coordinator.checkNow()).toBe('failed');
    expect(lines.join('\n')).toContain('ENOTFOUND');
  });
});

describe('the update feed setting', () => {
  it('accepts https feeds and http only on the loopback address', () => {
    const feed = (feedUrl: string) => updateSettingsSchema().parse({ feedUrl }).feedUrl;
    expect(feed('https://updates.example.com/station/')).toBe('https://updates.example.com/station/');
    expect(feed('http://127.0.0.1:8080/feed')).toBe('http://127.0.0.1:8080/feed');
    expect(feed('http://updates.example.com/station')).toBeUndefined();
    expect(feed('https://user:pw@updates.example.com/')).toBeUndefined();
    expect(feed('file:///srv/feed')).toBeUndefined();
    expect(feed('https://updates.example.com/?token=x')).toBeUndefined();
  });
});
