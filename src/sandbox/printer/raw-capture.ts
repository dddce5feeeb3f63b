// Every byte the printer read, per connection and in order, for tests that prove the station
// sent a label byte for byte. Bounded: only the newest bytes are kept once the limit is reached.

export interface ReceivedBytes {
  connectionId: number;
  bytes: Buffer;
}

interface Entry {
  connectionId: number;
  chunks: Buffer[];
  /** Index of the first chunk still held: dropping from the front must not shift a long array. */
  start: number;
  length: number;
}

export const RAW_CAPTURE_LIMIT_BYTES = 16 * 1024 * 1024;

export class RawCapture {
  // A Map keeps insertion order: the first entry is the oldest connection still held.
  private readonly entries = new Map<number, Entry>();
  private total = 0;

  constructor(private readonly limitBytes = RAW_CAPTURE_LIMIT_BYTES) {}

  add(connectionId: number, chunk: Buffer): void {
    if (chunk.length === 0) return;
    let entry = this.entries.get(connectionId);
    if (!entry) {
      entry = { connectionId, chunks: [], start: 0, length: 0 };
      this.entries.set(connectionId, entry);
    }
    // Copy: the socket may reuse the memory behind the chunk.
    entry.chunks.push(Buffer.from(chunk));
    entry.length += chunk.length;
    this.total += chunk.length;
    this.trim();
  }

  /** Connections in the order they first sent something; each with its bytes in order. */
  list(): ReceivedBytes[] {
    return [...this.entries.values()].map((entry) => ({ connectionId: entry.connectionId, bytes: Buffer.concat(entry.chunks.slice(entry.start), entry.length) }));
  }

  /** Drops the oldest bytes (oldest connection first) until the total fits the limit. */
  private trim(): void {
    while (this.total > this.limitBytes) {
      const oldest = this.entries.values().next().value;
      if (!oldest) return;
      const first = oldest.chunks[oldest.start];
      if (!first) {
        this.entries.delete(oldest.connectionId);
        continue;
      }
      const excess = this.total - this.limitBytes;
      if (first.length <= excess) {
        oldest.start += 1;
        oldest.length -= first.length;
        this.total -= first.length;
      } else {
        oldest.chunks[oldest.start] = first.subarray(excess);
        oldest.length -= excess;
        this.total -= excess;
      }
      if (oldest.start > 1024 && oldest.start * 2 > oldest.chunks.length) {
        oldest.chunks = oldest.chunks.slice(oldest.start);
        oldest.start = 0;
      }
      if (oldest.start >= oldest.chunks.length) this.entries.delete(oldest.connectionId);
    }
  }
}
