import { z } from 'zod';
import { EnvironmentSchema, type Environment } from '../../shared/contract/app';
import type { SettingsRepository } from '../store/settings-repository';

const STATION = 'station';

/**
 * The station-wide settings, typed. With nothing stored the station runs on its embedded
 * sandbox, so a fresh install can scan and print at once.
 */
export class StationSettings {
  constructor(private readonly repository: SettingsRepository) {}

  environment(): Environment {
    return this.repository.read(STATION, 'environment', EnvironmentSchema, 'sandbox');
  }

  setEnvironment(environment: Environment): void {
    this.repository.write(STATION, 'environment', environment);
  }

  stationName(): string {
    return this.repository.read(STATION, 'stationName', z.string().min(1).max(80), 'Packing bench');
  }

  setStationName(name: string): void {
    this.repository.write(STATION, 'stationName', name);
  }
}
