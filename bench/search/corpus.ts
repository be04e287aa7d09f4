/**
 * The sessions the search benchmark reads: about 1 GB (quick: ~70 MB) of pi v3 files for one workspace, half
 * in the extension's session folder and half in pi's folder for the workspace, everyday sessions (2k entries,
 * 1 KB tool outputs, a branch every 40 turns) plus a few heavy ones (10 KB tool outputs, thinking with
 * signatures). One everyday session holds the needle: a word that occurs nowhere else, only in a branch that
 * was abandoned (the session's last line continues the other branch). File times are spread over the past
 * weeks, the needle's session in the middle, so the newest-first order does not find it first.
 * Generated once into bench/.data/search; a manifest records the recipe.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultSessionDir, sessionFileName } from "../../src/core/session/paths.js";
import { SessionWriter } from "../generate/session-writer.js";
import { writeHeavy, writeLinear } from "../generate/shapes.js";
import { SMALL_PROFILE, TurnMaker } from "../generate/turns.js";

/** Bump when generated content changes. */
const CORPUS_VERSION = 1;
/** The word only the abandoned branch of one session holds. */
export const NEEDLE = "zanzibar";
/** The workspace the sessions belong to. */
export const CORPUS_CWD = "/home/dev/project";

/** A corpus recipe. */
export interface CorpusSpec {
  name: string;
  /** Everyday sessions and their entries each. */
  everyday: number;
  everydayEntries: number;
  /** Heavy sessions and their bytes each. */
  heavy: number;
  heavyBytes: number;
}

/** The full run: 300 × 2k entries (~2 MB) + 4 × 100 MB ≈ 1 GB. */
export const FULL_CORPUS: CorpusSpec = {
  name: "search-1gb",
  everyday: 300,
  everydayEntries: 2_000,
  heavy: 4,
  heavyBytes: 100_000_000,
};
/** The smoke run. */
export const QUICK_CORPUS: CorpusSpec = {
  name: "search-quick",
  everyday: 40,
  everydayEntries: 1_000,
  heavy: 1,
  heavyBytes: 30_000_000,
};

/** A generated corpus. */
export interface Corpus {
  spec: CorpusSpec;
  /** The extension's session folder (setting `agentTree.sessionDirectory`). */
  sessionDir: string;
  /** pi's agent folder (PI_CODING_AGENT_DIR); its sessions folder for CORPUS_CWD holds the other half. */
  agentDir: string;
  files: string[];
  bytes: number;
  /** The needle's session and the id of the entry holding it. */
  needleFile: string;
  needleEntryId: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const BASE_MS = Date.UTC(2026, 9, 1);

/** An everyday session whose abandoned branch (halfway through) holds the needle. */
function writeNeedleSession(path: string, entries: number, seed: number): string {
  const writer = new SessionWriter(path, `00000000-0000-4000-8000-${seed.toString().padStart(12, "0")}`);
  const maker = new TurnMaker(SMALL_PROFILE, seed);
  let leaf: string | null = null;
  while (writer.entries < entries / 2) leaf = maker.writeTurn(writer, leaf);
  const forkAt = leaf;
  const needle = writer.add(forkAt, {
    type: "message",
    message: {
      role: "user",
      content: `What if we route the sync through the ${NEEDLE} relay instead of the main queue?`,
      timestamp: writer.nowMs(),
    },
  });
  maker.writeTurn(writer, needle, 1);
  // The main line goes on from the fork, so the needle's branch is abandoned.
  leaf = forkAt;
  while (writer.entries < entries) leaf = maker.writeTurn(writer, leaf);
  writer.close();
  return needle;
}

/** Generates the corpus unless the manifest says it is there; logs what it writes. */
export function ensureCorpus(spec: CorpusSpec, dataDir: string, log: (line: string) => void): Corpus {
  const root = join(dataDir, "search", spec.name);
  const sessionDir = join(root, "workspace-sessions");
  const agentDir = join(root, "pi-agent");
  const piDir = defaultSessionDir(CORPUS_CWD, agentDir);
  const manifestPath = join(root, "manifest.json");
  if (existsSync(manifestPath)) {
    const known = JSON.parse(readFileSync(manifestPath, "utf8")) as Corpus & { version: number };
    const intact =
      known.files.every((f) => existsSync(f)) && known.files.reduce((n, f) => n + statSync(f).size, 0) === known.bytes;
    if (known.version === CORPUS_VERSION && JSON.stringify(known.spec) === JSON.stringify(spec) && intact) return known;
  }
  rmSync(root, { recursive: true, force: true });
  mkdirSync(sessionDir, { recursive: true });
  mkdirSync(piDir, { recursive: true });
  const started = performance.now();
  const total = spec.everyday + spec.heavy;
  const needleIndex = Math.floor(total / 2);
  const heavyEvery = Math.max(1, Math.floor(total / Math.max(1, spec.heavy)));
  let heavyLeft = spec.heavy;
  const files: string[] = [];
  let needleFile = "";
  let needleEntryId = "";
  for (let i = 0; i < total; i++) {
    // Spread over the past weeks; file i is i hours older than file 0.
    const mtime = new Date(BASE_MS - i * 3_600_000);
    const id = `5e4c0000-0000-4000-8000-${i.toString().padStart(12, "0")}`;
    const dir = i % 2 === 0 ? sessionDir : piDir;
    const path = join(dir, sessionFileName(new Date(BASE_MS - i * 3_600_000 - 30 * DAY_MS).toISOString(), id));
    const seed = 1_000 + i;
    if (i === needleIndex) {
      needleEntryId = writeNeedleSession(path, spec.everydayEntries, seed);
      needleFile = path;
    } else if (heavyLeft > 0 && i % heavyEvery === 1) {
      heavyLeft--;
      writeHeavy(path, spec.heavyBytes, seed);
    } else writeLinear(path, spec.everydayEntries, seed);
    utimesSync(path, mtime, mtime);
    files.push(path);
  }
  const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
  const corpus: Corpus = { spec, sessionDir, agentDir, files, bytes, needleFile, needleEntryId };
  writeFileSync(manifestPath, JSON.stringify({ ...corpus, version: CORPUS_VERSION }, null, 2));
  log(
    `generated ${spec.name}: ${files.length} sessions, ${(bytes / 1e6).toFixed(0)} MB in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return corpus;
}
