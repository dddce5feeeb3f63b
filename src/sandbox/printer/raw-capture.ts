// Every byte the printer read, per connection and in order, for tests that prove the station
// sent a label byte for byte. Bounded: only the newest bytes are kept once the limit is reached.

export interface ReceivedBytes {
  connectionId: number;
  bytes: Buffer;
}

interface Entry {
  connectionId: number;
  chunks: Buffer[];
  length: number;
}

export const RAW_CAPTURE_LIMIT_BYTES = 16 * 1024 * 1024;

export class RawCapture {
  private readonly entries: Entry[] = [];
  private total = 0;

  constructor(private readonly limitBytes = RAW_CAPTURE_LIMIT_BYTES) {}

  add(connectionId: number, chunk: Buffer): void {
    if (chunk.length === 0) return;
    let entry = this.entries.find((candidate) => candidate.connectionId === connectionId);
    if (!entry) {
      entry = { connectionId, chunks: [], length: 0 };
      this.entries.push(entry);
    }
    // Copy: the socket may reuse the memory behind the chunk.
    entry.chunks.push(Buffer.from(chunk));
    entry.length += chunk.length;
    this.total += chunk.length;
    this.trim();
  }

  /** Connections in the order they first sent something; each with its bytes in order. */
  list(): ReceivedBytes[] {
    return this.entries.map((entry) => ({ connectionId: entry.connectionId, bytes: Buffer.concat(entry.chunks, entry.length) }));
  }

  /** Drops the oldest bytes (oldest connection first) until the total fits the limit. */
  private trim(): void {
    while (this.total > this.limitBytes) {
      const oldest = this.entries[0];
      if (!oldest) return;
      const first = oldest.chunks[0];
      if (!first) {
        this.entries.shift();
        continue;
      }
      const excess = this.total - this.limitBytes;
      if (first.length <= excess) {
        oldest.chunks.shift();
        oldest.length -= first.length;
        this.total -= first.length;
      } else {
        oldest.chunks[0] = first.subarray(excess);
        oldest.length -= excess;
        this.total -= excess;
      }
      if (oldest.chunks.length === 0) this.entries.shift();
    }
  }
}
