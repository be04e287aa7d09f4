/** MCP servers' tools (docs/core-api.md, "MCP servers"): started with the first prompt, stopped with the window. */
import { keyEnvNames, withoutKeys } from "../../core/providers/api-key.js";
import type { HostServices } from "../common/services.js";
import type { ModelService } from "../models/model-service.js";
import { McpServersUi } from "./mcp-servers-ui.js";
import { McpService } from "./mcp-service.js";

/** The servers (their processes get no model keys) and Agent: Show MCP Servers. */
export function createMcp(s: HostServices, models: ModelService): { service: McpService; ui: McpServersUi } {
  const { context, cwd, log } = s;
  const service = new McpService({
    context,
    cwd,
    log,
    baseEnv: () => withoutKeys(process.env, models.registry),
    keyEnvNames: () => keyEnvNames(process.env, models.registry),
  });
  s.subscribe(service);
  s.onDeactivate.push(() => service.stop());
  return { service, ui: new McpServersUi(service, log) };
}
