/**
 * Writes a pi v3 session file in big chunks: entries are serialised into a string buffer that is flushed with
 * one write per few megabytes, so a 300 MB file takes seconds, not minutes.
 */
import { closeSync, openSync, renameSync, writeSync } from "node:fs";
import { createRandom } from "./text-pool.js";

/** How many entry ids the reservoir keeps. */
const SAMPLE_SIZE = 64;
/** Flush threshold (characters). */
const CHUNK_CHARS = 8 * 1024 * 1024;
/** Generated sessions start here; each entry is one second after the previous one. */
const START_MS = Date.UTC(2026, 0, 5, 9, 0, 0);

/** An entry without the envelope fields the writer fills in. */
export type EntryBody = { type: string } & Record<string, unknown>;

/** Counts of what was written. */
export interface WrittenSession {
  path: string;
  entries: number;
  bytes: number;
  lastId: string;
  /** Up to 64 entry ids drawn uniformly from the whole file (reservoir sample): navigation targets. */
  sampleIds: string[];
}

/**
 * Entry ids are 8 hex characters like pi's. Multiplying the index by an odd constant is a bijection on 32 bits,
 * so ids never collide and need no lookup table.
 */
export function entryId(index: number): string {
  return (Math.imul(index + 1, 0x9e3779b1) >>> 0).toString(16).padStart(8, "0");
}

/** Streams entries into `<path>.tmp` and renames it into place on close (a killed run leaves no half file). */
export class SessionWriter {
  private readonly fd: number;
  private buffer: string[] = [];
  private bufferedChars = 0;
  private count = 0;
  private bytes = 0;
  private last = "";
  private readonly sample: string[] = [];
  private seen = 0;
  private readonly random = createRandom(7);

  /** Opens the file and writes the header line. */
  constructor(
    private readonly path: string,
    sessionId: string,
  ) {
    this.fd = openSync(`${path}.tmp`, "w");
    this.push(
      JSON.stringify({
        type: "session",
        version: 3,
        id: sessionId,
        timestamp: new Date(START_MS).toISOString(),
        cwd: "/home/dev/project",
      }),
    );
  }

  /** Timestamp (ms) the next entry gets; message bodies use it too. */
  nowMs(): number {
    return START_MS + (this.count + 1) * 1000;
  }

  /** Appends an entry under `parentId` and returns its id. */
  add(parentId: string | null, body: EntryBody): string {
    const id = entryId(this.count);
    const timestamp = new Date(this.nowMs()).toISOString();
    this.count++;
    // Envelope first, as pi writes it.
    const { type, ...fields } = body;
    this.push(JSON.stringify({ type, id, parentId, timestamp, ...fields }));
    this.last = id;
    if (body.type === "message") this.keepSample(id);
    return id;
  }

  /** Entries written so far (header excluded). */
  get entries(): number {
    return this.count;
  }

  /** Bytes written or buffered so far (approximately: characters; the text is mostly ASCII). */
  get size(): number {
    return this.bytes + this.bufferedChars;
  }

  /** Flushes, closes and moves the file into place. */
  close(): WrittenSession {
    this.flush();
    closeSync(this.fd);
    renameSync(`${this.path}.tmp`, this.path);
    return { path: this.path, entries: this.count, bytes: this.bytes, lastId: this.last, sampleIds: this.sample };
  }

  /** Reservoir sampling over message entries (algorithm R), so targets spread over the whole file. */
  private keepSample(id: string): void {
    this.seen++;
    if (this.sample.length < SAMPLE_SIZE) this.sample.push(id);
    else {
      const slot = Math.floor(this.random() * this.seen);
      if (slot < SAMPLE_SIZE) this.sample[slot] = id;
    }
  }

  private push(line: string): void {
    this.buffer.push(line, "\n");
    this.bufferedChars += line.length + 1;
    if (this.bufferedChars >= CHUNK_CHARS) this.flush();
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    this.bytes += writeSync(this.fd, this.buffer.join(""));
    this.buffer = [];
    this.bufferedChars = 0;
  }
}
