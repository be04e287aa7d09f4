/**
 * How a built-in tool declares its parameters: the JSON Schema the model sees is always an object of typed,
 * described fields, so each tool lists only its fields (name → type and description) and which are required.
 */
import type { JsonSchemaObject } from "../providers/types.js";

/** One parameter of a tool: its JSON type and what the model is told about it. */
export type ToolParameter = readonly ["string" | "number" | "boolean", string];

/** The `path` parameter of the file tools (read, write, edit). */
export const FILE_PATH: ToolParameter = ["string", "File path, relative to the workspace root"];

/**
 * A tool's parameters schema from `{ name: [type, description] }`, in the order given; `required` names the fields
 * a call must give (left out of the schema when none is).
 */
export function toolParameters(fields: Record<string, ToolParameter>, required: string[] = []): JsonSchemaObject {
  const properties = Object.fromEntries(
    Object.entries(fields).map(([name, [type, description]]) => [name, { type, description }]),
  );
  return required.length > 0 ? { type: "object", properties, required } : { type: "object", properties };
}
