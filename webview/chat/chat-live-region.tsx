/**
 * The chat's only live region for conversation content: visually hidden, polite, fed by ChatAnnouncer.
 * Each announcement is a new element (additions are what a polite region reads), so two arriving in
 * one frame are both read and the same text said twice is read twice; old ones are dropped.
 */
import type { JSX } from "preact";
import { useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import type { HostToWebview } from "../../src/shared/protocol.js";
import { ChatAnnouncer } from "./chat-announcer.js";

/** Announcements kept in the region (screen readers read additions; the rest is for reading back). */
const KEEP = 3;

/** Props: the host channel the announcer listens to. */
export interface ChatLiveRegionProps {
  subscribeHost: (fn: (msg: HostToWebview) => void) => () => void;
}

interface Said {
  key: number;
  text: string;
}

/** Visually hidden announcements of new messages, finished replies, tool errors and approvals. */
export function ChatLiveRegion(props: ChatLiveRegionProps): JSX.Element {
  const announcer = useMemo(() => new ChatAnnouncer(), []);
  const seq = useRef(0);
  const [said, setSaid] = useState<readonly Said[]>([]);
  // A layout effect runs inside render(): the announcer sees the first snapshot, so it is never news.
  useLayoutEffect(
    () =>
      props.subscribeHost((msg) => {
        const texts = announcer.onHost(msg);
        if (texts.length === 0) return;
        const added = texts.map((text) => ({ key: ++seq.current, text }));
        setSaid((prev) => [...prev, ...added].slice(-KEEP));
      }),
    [announcer],
  );
  return (
    <div class="visually-hidden chat-live" aria-live="polite" aria-relevant="additions" aria-atomic="false">
      {said.map((s) => (
        <div key={s.key}>{s.text}</div>
      ))}
    </div>
  );
}
