import type { ScaleSample } from '../../shared/scales/scale-reading';

/** An open scale: samples as the device sends them, and the end of the connection. */
export interface ScaleConnection {
  /** Closes the device; no sample or end is reported after it. */
  close(): Promise<void>;
}

export interface ScaleListener {
  sample(sample: ScaleSample): void;
  /** The device went away (unplugged, switched off) or stopped answering; `detail` says how. */
  ended(detail: string): void;
}
