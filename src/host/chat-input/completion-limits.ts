/** How many rows the chat input's completion list shows at most (pure: the bench imports it too). */
export const MAX_COMPLETIONS = 50;
