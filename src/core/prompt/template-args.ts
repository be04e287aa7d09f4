/**
 * Arguments of a prompt template command, as pi 1.6 reads and substitutes them (its
 * `core/prompt-templates.js`): shell-like quoting, then `$1`, `$@`/`$ARGUMENTS`, `${1:-default}`,
 * `${@:-default}`, `${@:N}` and `${@:N:L}` in the template's body. Kept to pi's rules so a template
 * expands here exactly as it does in pi.
 */

/**
 * Split `argsString` into arguments. A quote (`"` or `'`) opens only at the start of an argument, so
 * `doesn't` stays one word; inside quotes a backslash before the same quote keeps it as text; an unclosed
 * quote is kept as text and the rest read normally; `""` is an empty argument.
 */
export function parseCommandArgs(argsString: string): string[] {
  const args: string[] = [];
  let current = "";
  let hasToken = false;
  let inQuote: string | null = null;
  let quoteStart = 0;
  for (let i = 0; i < argsString.length; i++) {
    const char = argsString[i];
    if (inQuote !== null) {
      if (char === "\\" && argsString[i + 1] === inQuote) {
        current += inQuote;
        i++;
      } else if (char === inQuote) {
        inQuote = null;
      } else {
        current += char;
      }
    } else if ((char === '"' || char === "'") && !hasToken) {
      inQuote = char;
      quoteStart = i;
      hasToken = true;
    } else if (/\s/.test(char)) {
      if (hasToken) {
        args.push(current);
        current = "";
        hasToken = false;
      }
    } else {
      current += char;
      hasToken = true;
    }
    if (inQuote !== null && i >= argsString.length - 1) {
      // Unclosed: the quote is text and what follows it is read again as plain words.
      inQuote = null;
      current = argsString[quoteStart];
      i = quoteStart;
    }
  }
  if (hasToken) args.push(current);
  return args;
}

const PLACEHOLDER = /\$\{(\d+|ARGUMENTS|@):-([^}]*)\}|\$\{@:(\d+)(?::(\d+))?\}|\$(ARGUMENTS|@|\d+)/g;

/**
 * Replace the placeholders of `content` by `args`. Values are not substituted again, so an argument
 * holding `$1` stays `$1`. A missing positional argument becomes the empty string.
 */
export function substituteArgs(content: string, args: readonly string[]): string {
  const allArgs = args.join(" ");
  return content.replace(
    PLACEHOLDER,
    (
      _match: string,
      defaultTarget: string | undefined,
      defaultValue: string | undefined,
      sliceStart: string | undefined,
      sliceLength: string | undefined,
      simple: string | undefined,
    ) => {
      if (defaultTarget !== undefined) {
        const value =
          defaultTarget === "@" || defaultTarget === "ARGUMENTS" ? allArgs : args[parseInt(defaultTarget, 10) - 1];
        return value ? value : (defaultValue ?? "");
      }
      if (sliceStart !== undefined) {
        // 1-based as in bash; ${@:0} reads as ${@:1}.
        const start = Math.max(0, parseInt(sliceStart, 10) - 1);
        if (sliceLength !== undefined) return args.slice(start, start + parseInt(sliceLength, 10)).join(" ");
        return args.slice(start).join(" ");
      }
      if (simple === "ARGUMENTS" || simple === "@") return allArgs;
      return args[parseInt(simple ?? "0", 10) - 1] ?? "";
    },
  );
}
