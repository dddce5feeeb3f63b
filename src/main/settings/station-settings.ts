import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { EnvironmentSchema, type Environment } from '../../shared/contract/app';
import {
  ApiBaseUrlSchema,
  OperatorSchema,
  StationNameSchema,
  defaultStationName,
  WebhookReceiverSettingsSchema,
  type KeyedEnvironment,
  type Settings,
  type SettingsChange,
  type WebhookReceiverSettings,
} from '../../shared/contract/settings';
import { ScaleSettingSchema, type ScaleSetting } from '../../shared/contract/scales';
import { KeyboardLayoutIdSchema, type KeyboardLayoutId } from '../../shared/keyboard/layouts';
import { StoreSettingValueSchema, type SettingsRepository, type StoreSettingValue } from '../store';

const STATION = 'station';

export const defaultWebhookReceiverSettings: WebhookReceiverSettings = {
  enabled: false,
  host: '127.0.0.1',
  port: 8787,
  bodyLimitBytes: 64 * 1024,
};

const SecretSchema = z.string().regex(/^[A-Za-z0-9_-]{32,128}$/);

export const KeyVerificationSchema = z.object({
  outcome: z.enum(['accepted', 'rejected', 'forbidden']),
  checkedAt: z.string(),
  message: z.string(),
});
export type KeyVerification = z.infer<typeof KeyVerificationSchema>;

/**
 * The station's settings, typed. With nothing stored the station runs on its embedded sandbox,
 * so a fresh install can scan and print at once. Station-wide values live in scope 'station';
 * values that belong to one environment (its API address, its webhook secret) in that
 * environment's scope, so test and live never share them.
 */
export class StationSettings {
  constructor(
    private readonly repository: SettingsRepository,
    private readonly randomSecret: () => string = () => randomBytes(24).toString('base64url'),
  ) {}

  environment(): Environment {
    return this.repository.read(STATION, 'environment', EnvironmentSchema, 'sandbox');
  }

  setEnvironment(environment: Environment): void {
    this.repository.write(STATION, 'environment', environment);
  }

  stationName(): string {
    return this.repository.read(STATION, 'stationName', StationNameSchema, defaultStationName);
  }

  setStationName(name: string): void {
    this.repository.write(STATION, 'stationName', StationNameSchema.parse(name));
  }

  operator(): string {
    return this.repository.read(STATION, 'operator', OperatorSchema, '');
  }

  setOperator(name: string): void {
    this.repository.write(STATION, 'operator', OperatorSchema.parse(name));
  }

  /** Signs the operator out: a new shift (the station started again) asks for the name afresh. */
  endShift(): void {
    this.setOperator('');
  }

  apiBaseUrl(environment: KeyedEnvironment): string | null {
    return this.repository.read(environment, 'apiBaseUrl', ApiBaseUrlSchema.nullable(), null);
  }

  setApiBaseUrl(environment: KeyedEnvironment, url: string | null): void {
    this.repository.write(environment, 'apiBaseUrl', url === null ? null : ApiBaseUrlSchema.parse(url));
  }

  webhookReceiver(): WebhookReceiverSettings {
    return this.repository.read(STATION, 'webhookReceiver', WebhookReceiverSettingsSchema, defaultWebhookReceiverSettings);
  }

  setWebhookReceiver(change: Partial<WebhookReceiverSettings>): WebhookReceiverSettings {
    const next = WebhookReceiverSettingsSchema.parse({ ...this.webhookReceiver(), ...change });
    this.repository.write(STATION, 'webhookReceiver', next);
    return next;
  }

  /** The secret path segment of an environment's webhook address; made once, on first use. */
  webhookSecret(environment: Environment): string {
    const stored = this.repository.read(environment, 'webhookSecret', SecretSchema.nullable(), null);
    if (stored) return stored;
    const secret = SecretSchema.parse(this.randomSecret());
    this.repository.write(environment, 'webhookSecret', secret);
    return secret;
  }

  store(): StoreSettingValue {
    return this.repository.read(STATION, 'store', StoreSettingValueSchema, { kind: 'local' });
  }

  setStore(value: StoreSettingValue): void {
    this.repository.write(STATION, 'store', StoreSettingValueSchema.parse(value));
  }

  /** This bench's scale (the bench's own file: a scale is plugged into one bench). */
  scale(): ScaleSetting | null {
    return this.repository.read(STATION, 'scale', ScaleSettingSchema.nullable(), null);
  }

  setScale(scale: ScaleSetting | null): void {
    this.repository.write(STATION, 'scale', scale === null ? null : ScaleSettingSchema.parse(scale));
  }

  /** The layout this bench's scanner types for (the bench's own file: a scanner is plugged into one bench). */
  scannerLayout(): KeyboardLayoutId {
    return this.repository.read(STATION, 'scannerLayout', KeyboardLayoutIdSchema, 'us');
  }

  setScannerLayout(layout: KeyboardLayoutId): void {
    this.repository.write(STATION, 'scannerLayout', KeyboardLayoutIdSchema.parse(layout));
  }

  keyVerification(environment: KeyedEnvironment): KeyVerification | null {
    return this.repository.read(environment, 'keyVerification', KeyVerificationSchema.nullable(), null);
  }

  setKeyVerification(environment: KeyedEnvironment, verification: KeyVerification | null): void {
    this.repository.write(environment, 'keyVerification', verification);
  }

  snapshot(): Settings {
    return {
      environment: this.environment(),
      stationName: this.stationName(),
      operator: this.operator(),
      apiBaseUrls: { test: this.apiBaseUrl('test'), live: this.apiBaseUrl('live') },
      webhooks: this.webhookReceiver(),
      scannerLayout: this.scannerLayout(),
    };
  }

  /** Applies a validated change (every field optional) as one unit. */
  apply(change: SettingsChange): Settings {
    this.repository.transaction(() => {
      if (change.environment !== undefined) this.setEnvironment(change.environment);
      if (change.stationName !== undefined) this.setStationName(change.stationName);
      if (change.operator !== undefined) this.setOperator(change.operator);
      if (change.apiBaseUrls?.test !== undefined) this.setApiBaseUrl('test', change.apiBaseUrls.test);
      if (change.apiBaseUrls?.live !== undefined) this.setApiBaseUrl('live', change.apiBaseUrls.live);
      if (change.webhooks !== undefined) this.setWebhookReceiver(change.webhooks);
      if (change.scannerLayout !== undefined) this.setScannerLayout(change.scannerLayout);
    });
    return this.snapshot();
  }
}
