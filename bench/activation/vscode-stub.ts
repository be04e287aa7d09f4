/**
 * A stand-in for the `vscode` module, just enough for the extension's `activate()` to run to its end in a plain
 * Node process: the workspace folder, settings (all default), the extension's context, an event emitter, and for
 * everything else an inert object that can be read, called, constructed and awaited. It measures what activation
 * itself costs — reading the bundle and running `activate()` — the same way for any build of the extension, old or
 * new; it says nothing about what VS Code costs around it.
 */
import * as path from "node:path";

type Listener = (value: unknown) => void;

/** Something that answers every property, call and `new` with another such thing; awaited, it gives one too. */
function inert(thenable: boolean): unknown {
  const target = function () {
    /* callable */
  };
  return new Proxy(target, {
    get(_t, key) {
      if (key === "then") return thenable ? (resolve: (v: unknown) => void) => resolve(inert(false)) : undefined;
      if (key === Symbol.toPrimitive) return () => "";
      if (key === Symbol.iterator) return function* () {};
      if (key === "length") return 0;
      return inert(true);
    },
    apply: () => inert(true),
    construct: () => inert(true) as object,
  });
}

/** A file URI as the extension reads it. */
function uri(fsPath: string): Record<string, unknown> {
  return { scheme: "file", fsPath, path: fsPath, toString: () => `file://${fsPath}`, with: () => uri(fsPath) };
}

class EventEmitter {
  private readonly listeners = new Set<Listener>();
  readonly event = (listener: Listener): { dispose(): void } => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  fire(value: unknown): void {
    for (const l of this.listeners) l(value);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

/** The `vscode` module for a workspace folder `workspace`. */
export function vscodeStub(workspace: string): Record<string, unknown> {
  const known: Record<string, unknown> = {
    EventEmitter,
    Disposable: Object.assign(
      class {
        constructor(private readonly fn: () => void) {}
        dispose(): void {
          this.fn();
        }
      },
      { from: (...items: { dispose(): void }[]) => ({ dispose: () => items.forEach((i) => i.dispose()) }) },
    ),
    Uri: {
      file: (p: string) => uri(p),
      joinPath: (base: { fsPath: string }, ...parts: string[]) => uri(path.join(base.fsPath, ...parts)),
      from: (parts: { path?: string }) => uri(parts.path ?? ""),
      parse: (text: string) => uri(text.replace(/^file:\/\//, "")),
    },
    workspace: new Proxy(
      {
        workspaceFolders: [{ uri: uri(workspace), name: path.basename(workspace), index: 0 }],
        isTrusted: true,
        textDocuments: [],
        getConfiguration: () => ({ get: (_key: string, fallback?: unknown) => fallback, has: () => false }),
      } as Record<string | symbol, unknown>,
      { get: (t, key) => (key in t ? t[key] : inert(true)) },
    ),
  };
  // esbuild's interop copies a module's own properties: every name the extension uses must be one.
  for (const name of NAMESPACE) if (!(name in known)) known[name] = inert(false);
  return known;
}

/** The names of the `vscode` module the extension reads (classes, enums and namespaces). */
const NAMESPACE = [
  "Disposable",
  "EventEmitter",
  "FileType",
  "ProgressLocation",
  "QuickPickItemKind",
  "RelativePattern",
  "TabInputText",
  "TabInputTextDiff",
  "ThemeIcon",
  "Uri",
  "ViewColumn",
  "commands",
  "env",
  "extensions",
  "l10n",
  "languages",
  "window",
  "workspace",
];

/** An ExtensionContext for an extension installed at `extensionPath`, storing into `storage`. */
export function extensionContext(extensionPath: string, storage: string): Record<string, unknown> {
  const memento = (): Record<string, unknown> => {
    const values = new Map<string, unknown>();
    return {
      get: (key: string, fallback?: unknown) => (values.has(key) ? values.get(key) : fallback),
      update: async (key: string, value: unknown) => void values.set(key, value),
      keys: () => [...values.keys()],
    };
  };
  const changed = new EventEmitter();
  return {
    subscriptions: [] as { dispose(): void }[],
    extensionUri: uri(extensionPath),
    extensionPath,
    globalStorageUri: uri(path.join(storage, "global")),
    storageUri: uri(path.join(storage, "workspace")),
    logUri: uri(path.join(storage, "log")),
    workspaceState: memento(),
    globalState: { ...memento(), setKeysForSync: () => undefined },
    secrets: {
      get: async () => undefined,
      store: async () => undefined,
      delete: async () => undefined,
      onDidChange: changed.event,
    },
    environmentVariableCollection: inert(false),
    extensionMode: 1,
  };
}
