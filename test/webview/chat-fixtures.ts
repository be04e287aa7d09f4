/** Shared test data for the chat view's tests. */
import type { ChatMessageDto } from "../../src/shared/protocol.js";

/** A chat message as the host sends it (timestamp 1 unless `extra` says otherwise). */
export function msg(
  id: string,
  role: ChatMessageDto["role"],
  text: string,
  extra: Partial<ChatMessageDto> = {},
): ChatMessageDto {
  return { id, role, text, timestamp: 1, ...extra };
}
