/**
 * A USB HID point-of-sale scale (usage page 0x8D), through `node-hid`. The scale sends its Scale
 * Data Report by itself as the weight changes (and regularly while it is on); each report goes
 * through the HID POS parser. A read error (unplugged, switched off) ends the connection.
 */
import type { ScaleSetting } from '../../shared/contract/scales';
import { hidScaleUsagePage, parseHidScaleReport } from '../../shared/scales/hid-pos-scale';
import type { ScaleConnection, ScaleListener } from './scale-connection';

export interface HidScaleInfo {
  vendorId: number;
  productId: number;
  path: string | null;
  manufacturer: string | null;
  product: string | null;
}

/** HID devices that declare the Scales usage page. */
export async function listHidScales(): Promise<HidScaleInfo[]> {
  const hid = await import('node-hid');
  const devices = await hid.devicesAsync();
  return devices
    .filter((device) => device.usagePage === hidScaleUsagePage)
    .map((device) => ({ vendorId: device.vendorId, productId: device.productId, path: device.path ?? null, manufacturer: device.manufacturer ?? null, product: device.product ?? null }));
}

export async function openHidScale(setting: Extract<ScaleSetting, { kind: 'hid' }>, listener: ScaleListener): Promise<ScaleConnection> {
  const hid = await import('node-hid');
  let path = setting.path;
  if (path === null) {
    const found = (await hid.devicesAsync(setting.vendorId, setting.productId)).find((device) => device.usagePage === hidScaleUsagePage && device.path);
    if (!found?.path) throw new Error(`no HID scale ${setting.vendorId.toString(16)}:${setting.productId.toString(16)} is plugged in`);
    path = found.path;
  }
  const device = await hid.HIDAsync.open(path);
  let closed = false;
  device.on('data', (data: Buffer) => {
    if (!closed) listener.sample(parseHidScaleReport(Uint8Array.from(data)));
  });
  device.on('error', (error: Error) => {
    if (closed) return;
    closed = true;
    void device.close().catch(() => undefined);
    listener.ended(error.message);
  });
  return {
    async close() {
      if (closed) return;
      closed = true;
      await device.close().catch(() => undefined);
    },
  };
}
