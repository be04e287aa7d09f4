/**
 * The user's agreement to a project's MCP server, as VS Code asks before it starts a workspace's servers. A server
 * that a project file (or the workspace's settings) names starts only once the user said yes to that entry — its
 * name, what it runs or where it connects, and what it is given; a change to any of those asks again. The answers
 * are kept per workspace (the host keeps them in workspaceState), one per server name, with a hash of the entry.
 */
import { createHash } from "node:crypto";
import type { McpServerConfig } from "./mcp-config.js";
import { namedVars } from "./mcp-expand.js";

/** The user's answer to an entry. */
export type McpDecision = "allowed" | "refused";

/** What the user is shown: a title and the entry in full. */
export interface McpAgreementQuestion {
  title: string;
  detail: string;
}

/** Where the answers are kept and how the user is asked (the host: workspaceState and a modal dialog). */
export interface McpAgreement {
  /**
   * The answer kept for this entry as it is now; "changed" when an answer was kept for an earlier version of the
   * entry, undefined when the user was never asked.
   */
  decision(server: McpServerConfig): McpDecision | "changed" | undefined;
  /** Keeps the user's answer to this entry. */
  record(server: McpServerConfig, decision: McpDecision): void | Promise<void>;
  /** Asks the user; undefined when the question was dismissed. */
  ask(server: McpServerConfig, question: McpAgreementQuestion): Promise<McpDecision | undefined>;
}

/** The part of VS Code's Memento the records need. */
export interface AgreementStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void> | void;
}

/** One kept answer. */
interface AgreementRecord {
  /** `mcpEntryHash` of the entry answered. */
  entry: string;
  decision: McpDecision;
}

/** `value` as JSON with the keys of every object sorted, so equal entries hash alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * A hash of what the user agrees to: the name and the transport as written (command, arguments, env and cwd, or
 * URL and headers, `${VAR}`s unexpanded). `enabled`, `timeout` and `description` are not part of it.
 */
export function mcpEntryHash(server: McpServerConfig): string {
  return createHash("sha256")
    .update(canonical({ name: server.name, transport: server.transport }))
    .digest("hex");
}

/** The answers kept in `store` under `key` (a record per server name). */
export function agreementRecords(store: AgreementStore, key: string): Pick<McpAgreement, "decision" | "record"> {
  const all = (): Record<string, AgreementRecord> => {
    const v = store.get<unknown>(key);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, AgreementRecord>) : {};
  };
  return {
    decision(server) {
      const r = all()[server.name];
      if (!r || (r.decision !== "allowed" && r.decision !== "refused")) return undefined;
      return r.entry === mcpEntryHash(server) ? r.decision : "changed";
    },
    async record(server, decision) {
      await store.update(key, { ...all(), [server.name]: { entry: mcpEntryHash(server), decision } });
    },
  };
}

/** `arg` as a shell would need it to read the same (shown, never run). */
function shown(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./~-]+$/.test(arg) ? arg : JSON.stringify(arg);
}

/** "TOKEN (from ${DOCS_TOKEN})" for each field that reads variables; fields with literal values by name. */
function fields(map: Readonly<Record<string, string>>, isKey: (name: string) => boolean): string[] {
  return Object.entries(map).map(([k, v]) => {
    const vars = namedVars(v);
    if (vars.length === 0) return k;
    const from = vars.map((n) => `\${${n}}${isKey(n) ? " — a model key, not given to a project's server" : ""}`);
    return `${k} (from ${from.join(", ")})`;
  });
}

/**
 * The question for `server`: what it runs or where it connects, what it reads from the environment (a model key
 * is named as such: the server will not get it), and what saying yes means. `changed`: an earlier version of the
 * entry was answered.
 */
export function agreementQuestion(
  server: McpServerConfig,
  isKey: (name: string) => boolean,
  changed = false,
): McpAgreementQuestion {
  const t = server.transport;
  const verb = t.type === "http" ? "connect" : "start";
  const title = changed
    ? `The MCP server "${server.name}" in ${server.source} changed since you answered. Allow it to ${verb}?`
    : `Allow the MCP server "${server.name}" from ${server.source} to ${verb}?`;
  const lines = [`The project's entry "${server.name}" in ${server.source}`];
  if (t.type === "stdio") {
    lines.push(`runs this program as you, with your permissions:`, `  ${[t.command, ...t.args].map(shown).join(" ")}`);
    if (t.cwd) lines.push(`  in ${t.cwd}`);
    const env = fields(t.env, isKey);
    if (env.length) lines.push(`with the environment variables ${env.join("; ")}.`);
  } else {
    lines.push(`connects to ${t.url}`);
    const headers = fields(t.headers, isKey);
    if (headers.length) lines.push(`sending the headers ${headers.join("; ")}.`);
  }
  lines.push(
    "",
    "The agent can then call its tools (each call asks first unless agentTree.tools.autoApprove allows it). " +
      "Allow only servers you trust; you are asked again when this entry changes.",
  );
  return { title, detail: lines.join("\n") };
}
