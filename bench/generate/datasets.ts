/**
 * The sessions a run measures, generated once into bench/.data and reused while their recipe is unchanged
 * (a manifest records the recipe, size and navigation targets of each file).
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { WrittenSession } from "./session-writer.js";
import { writeBushy, writeDeep, writeHeavy, writeLinear } from "./shapes.js";

/** Bump when generated content changes, so old files are regenerated. */
const GENERATOR_VERSION = 3;

/** What a dataset is used for when targets are checked. */
export type DatasetRole = "small" | "large" | "heavy" | "deep" | "bushy";

/** A recipe for one session file. */
export interface DatasetSpec {
  name: string;
  role: DatasetRole;
  /** Human description for the table. */
  label: string;
  kind: "linear" | "heavy" | "deep" | "bushy";
  /** Entries (linear), bytes (heavy), levels (deep) or branches (bushy). */
  size: number;
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

function write(spec: DatasetSpec, path: string): WrittenSession {
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
    const written = write(spec, path);
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
