/**
 * Tree view root: owns the model, feeds it host messages and persists view state.
 */
import type { JSX } from "preact";
import { useEffect, useLayoutEffect, useMemo } from "preact/hooks";
import type { HostToWebview, WebviewToHost } from "../../src/shared/protocol.js";
import { StatusLine } from "../status-line.js";
import { TreeModel, readPersisted } from "./tree-model.js";
import { TreeView } from "./tree-view.js";

/** How long state changes settle before they are persisted. */
const PERSIST_DELAY_MS = 300;

/** Props: persisted state and the host channel. */
export interface TreeAppProps {
  initialState: Record<string, unknown> | undefined;
  saveState: (state: Record<string, unknown>) => void;
  post: (msg: WebviewToHost) => void;
  subscribeHost: (fn: (msg: HostToWebview) => void) => () => void;
}

/** The tree view application. */
export function TreeApp(props: TreeAppProps): JSX.Element {
  const model = useMemo(() => {
    const m = new TreeModel(readPersisted(props.initialState), props.post);
    // Earlier versions kept "show archived" in the view's state: hand it to the host, which owns it now. Once:
    // saved state is merged, so the old field is set to false rather than left to be handed over again.
    if (props.initialState?.showArchived === true) {
      m.requestShowArchived(true);
      props.saveState({ showArchived: false });
    }
    return m;
  }, []);
  // Layout effects run inside render(), so the subscription exists before `ready` is posted.
  useLayoutEffect(() => props.subscribeHost((msg) => void model.apply(msg)), [model]);
  useEffect(() => {
    let timer: number | undefined;
    const off = model.subscribe(() => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => props.saveState({ ...model.persisted() }), PERSIST_DELAY_MS);
    });
    return () => {
      off();
      window.clearTimeout(timer);
    };
  }, [model]);
  return (
    <div class="app tree-app">
      <TreeView model={model} post={props.post} subscribeHost={props.subscribeHost} />
      <StatusLine subscribeHost={props.subscribeHost} />
    </div>
  );
}
