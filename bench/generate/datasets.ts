/**
 * The sessions a run measures, generated once into bench/.data and reused while their recipe is unchanged
 * (a manifest records the recipe, size and navigation targets of each file).
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { isAscii } from "node:buffer";
import { join } from "node:path";
import type { WrittenSession } from "./session-writer.js";
import { writeBushy, writeDeep, writeHeavy, writeLinear } from "./shapes.js";

/** Bump when generated content changes, so old files are regenerated. */
const GENERATOR_VERSION = 3;

/**
 * What a dataset is used for when targets are checked. `ascii`: the heavy session with its few non-ASCII
 * characters replaced by ASCII ones of the same byte length (pi decodes a chunk holding one such character as a
 * two-byte string: see bench/analysis.md), so the ratio against pi is shown for both kinds of content.
 */
export type DatasetRole = "small" | "large" | "heavy" | "deep" | "bushy" | "ascii";

/** A recipe for one session file. */
export interface DatasetSpec {
  name: string;
  role: DatasetRole;
  /** Human description for the table. */
  label: string;
  kind: "linear" | "heavy" | "deep" | "bushy" | "ascii";
  /** Entries (linear), bytes (heavy), levels (deep) or branches (bushy); for `ascii`, the size of its source. */
  size: number;
  /** `ascii`: the dataset it is an ASCII-only copy of (generated before it). */
  source?: string;
}

/** A generated session file. */
export interface Dataset extends DatasetSpec {
  path: string;
  entries: number;
  bytes: number;
  lastId: string;
  /** Entry ids spread over the file, for navigation. */
  navTargets: string[];
}

/** The full run: 1k/10k/100k entries, ~300 MB heavy, 10k levels deep, 1k branches. */
export const FULL_DATASETS: DatasetSpec[] = [
  { name: "linear-1k", role: "small", label: "1k entries", kind: "linear", size: 1_000 },
  { name: "linear-10k", role: "small", label: "10k entries", kind: "linear", size: 10_000 },
  { name: "linear-100k", role: "large", label: "100k entries", kind: "linear", size: 100_000 },
  { name: "heavy-300mb", role: "heavy", label: "~300 MB, 10 KB tool outputs", kind: "heavy", size: 300_000_000 },
  {
    name: "heavy-300mb-ascii",
    role: "ascii",
    label: "~300 MB, ASCII only",
    kind: "ascii",
    size: 300_000_000,
    source: "heavy-300mb",
  },
  { name: "deep-10k", role: "deep", label: "10k levels deep", kind: "deep", size: 10_000 },
  { name: "bushy-1k", role: "bushy", label: "1k branches", kind: "bushy", size: 1_000 },
];

/** The smoke run (`--quick`): the same shapes, smaller. */
export const QUICK_DATASETS: DatasetSpec[] = [
  { name: "linear-1k", role: "small", label: "1k entries", kind: "linear", size: 1_000 },
  { name: "linear-10k", role: "large", label: "10k entries", kind: "linear", size: 10_000 },
  { name: "heavy-30mb", role: "heavy", label: "~30 MB, 10 KB tool outputs", kind: "heavy", size: 30_000_000 },
  { name: "deep-1k", role: "deep", label: "1k levels deep", kind: "deep", size: 1_000 },
  { name: "bushy-100", role: "bushy", label: "100 branches", kind: "bushy", size: 100 },
];

/** The byte sequences the generator's text holds outside ASCII ("—", "✓"), and same-length ASCII for them. */
const NON_ASCII_SWAPS: [Buffer, Buffer][] = [
  [Buffer.from("—"), Buffer.from("---")],
  [Buffer.from("✓"), Buffer.from("v/ ")],
];

/**
 * Copies `from` to `to` with the generator's non-ASCII characters swapped for ASCII of the same byte length: the
 * same entries at the same offsets, in a file without a byte above 127 (checked).
 */
function writeAsciiCopy(from: string, to: string): void {
  const input = openSync(from, "r");
  const output = openSync(`${to}.tmp`, "w");
  const buf = Buffer.allocUnsafe(4 * 1024 * 1024);
  let carry = 0; // bytes of a possibly split character kept from the previous chunk
  try {
    for (;;) {
      const n = readSync(input, buf, carry, buf.length - carry, null);
      const end = carry + n;
      for (const [was, now] of NON_ASCII_SWAPS)
        for (let i = buf.indexOf(was); i >= 0 && i + was.length <= end; i = buf.indexOf(was, i + was.length))
          now.copy(buf, i);
      // The last two bytes may start a character the next chunk ends (the swapped ones are 3 bytes): kept.
      const upto = n === 0 ? end : Math.max(0, end - 2);
      if (!isAscii(buf.subarray(0, upto)))
        throw new Error(`${from}: a byte above 127 the ASCII copy does not know how to swap`);
      writeSync(output, buf, 0, upto);
      buf.copy(buf, 0, upto, end);
      carry = end - upto;
      if (n === 0) break;
    }
  } finally {
    closeSync(input);
    closeSync(output);
  }
  renameSync(`${to}.tmp`, to);
}

function write(spec: DatasetSpec, path: string, dir: string, manifest: Record<string, ManifestRecord>): WrittenSession {
  // Different seeds per dataset so pools differ, fixed so reruns are identical.
  const seed = spec.size + spec.kind.length;
  switch (spec.kind) {
    case "linear":
      return writeLinear(path, spec.size, seed);
    case "heavy":
      return writeHeavy(path, spec.size, seed);
    case "deep":
      return writeDeep(path, spec.size, seed);
    case "bushy":
      return writeBushy(path, spec.size, seed);
    case "ascii": {
      const source = manifest[spec.source ?? ""];
      if (!source) throw new Error(`${spec.name}: its source ${spec.source ?? "(none)"} was not generated before it`);
      writeAsciiCopy(join(dir, `${source.name}.jsonl`), path);
      return {
        path,
        entries: source.entries,
        bytes: source.bytes,
        lastId: source.lastId,
        sampleIds: source.navTargets,
      };
    }
  }
}

interface ManifestRecord extends Dataset {
  generator: number;
}

/** Generates the files that are missing or stale; returns all of them. Logs what it writes. */
export function ensureDatasets(specs: DatasetSpec[], dir: string, log: (line: string) => void): Dataset[] {
  mkdirSync(dir, { recursive: true });
  const manifestPath = join(dir, "manifest.json");
  const manifest: Record<string, ManifestRecord> = existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, ManifestRecord>)
    : {};
  const out: Dataset[] = [];
  for (const spec of specs) {
    const path = join(dir, `${spec.name}.jsonl`);
    const known = manifest[spec.name];
    const fresh =
      known !== undefined &&
      known.generator === GENERATOR_VERSION &&
      known.size === spec.size &&
      existsSync(path) &&
      statSync(path).size === known.bytes;
    if (fresh) {
      out.push({ ...known, ...spec, path });
      continue;
    }
    const started = performance.now();
    const written = write(spec, path, dir, manifest);
    const dataset: Dataset = {
      ...spec,
      path,
      entries: written.entries,
      bytes: written.bytes,
      lastId: written.lastId,
      navTargets: written.sampleIds,
    };
    manifest[spec.name] = { ...dataset, generator: GENERATOR_VERSION };
    writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
    log(
      `generated ${spec.name}: ${written.entries} entries, ${(written.bytes / 1e6).toFixed(1)} MB ` +
        `in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    out.push(dataset);
  }
  return out;
}
