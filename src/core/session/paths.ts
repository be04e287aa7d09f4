/** Where pi keeps sessions, and how it names them. */
import * as os from "node:os";
import * as path from "node:path";

/** pi's agent folder: $PI_CODING_AGENT_DIR, else ~/.pi/agent. */
export function getAgentDir(): string {
  const fromEnv = process.env.PI_CODING_AGENT_DIR;
  return fromEnv && fromEnv.trim() !== "" ? fromEnv : path.join(os.homedir(), ".pi", "agent");
}

/** `<agentDir>/sessions/--<cwd without leading slash, / \ : turned into ->--` (pi's folder for a cwd). */
export function defaultSessionDir(cwd: string, agentDir: string = getAgentDir()): string {
  const safe = cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-");
  return path.join(agentDir, "sessions", `--${safe}--`);
}

/** `<ISO timestamp with : and . turned into ->_<sessionId>.jsonl` */
export function sessionFileName(timestamp: string, sessionId: string): string {
  return `${timestamp.replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
}
