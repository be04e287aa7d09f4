/**
 * Whether the tree shows archived branches (dimmed) or hides them. The host is the one owner of that choice:
 * the palette's Agent: Show or Hide Archived Branches, the tree's toolbar toggle and a reveal of a row in a hidden
 * archived branch all change it here. It is kept per workspace (workspaceState, so a reload of the window keeps
 * it, as the view's own state did before), goes out in every tree snapshot, and a change goes out as
 * `tree/update` `showArchived`, which a view that is not ready yet simply misses: its snapshot on `ready` says
 * the same. Pure: no `vscode` import.
 */
import { errorText } from "../../core/error-text.js";
import type { HostToWebview } from "../../shared/protocol.js";

/** Where the choice is kept (a vscode.Memento: the extension's workspaceState). */
export interface ChoiceStore {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** The workspaceState key of the choice. */
export const SHOW_ARCHIVED_KEY = "agentTree.showArchived";

/** See the file comment. */
export class ArchivedVisibility {
  /** Read once: the store is written only from here. */
  private show: boolean;

  constructor(
    private readonly store: ChoiceStore,
    /** Posts to the tree view (dropped while it is not ready). */
    private readonly postTree: (msg: Extract<HostToWebview, { type: "tree/update" }>) => void,
    private readonly onError: (message: string) => void = () => undefined,
  ) {
    this.show = store.get(SHOW_ARCHIVED_KEY) === true;
  }

  /** True when archived branches are shown (dimmed). */
  get shown(): boolean {
    return this.show;
  }

  /**
   * Show or hide archived branches. The tree is told even when nothing changed: a view that asked waits for
   * the answer to scroll its selection into view.
   */
  set(show: boolean): void {
    if (show !== this.show) {
      this.show = show;
      this.store
        .update(SHOW_ARCHIVED_KEY, show)
        .then(undefined, (e: unknown) =>
          this.onError(`Could not remember whether archived branches show: ${errorText(e)}`),
        );
    }
    this.postTree({ type: "tree/update", showArchived: show });
  }

  /** Show them if hidden, hide them if shown (the palette's command). */
  toggle(): void {
    this.set(!this.shown);
  }
}
