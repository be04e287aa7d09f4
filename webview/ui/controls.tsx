/**
 * Form controls. The only module that knows about @vscode/webview-ui-toolkit (deprecated and archived,
 * but requested): swap it here for @vscode-elements/elements or native elements without touching views.
 */
import {
  provideVSCodeDesignSystem,
  vsCodeButton,
  vsCodeDropdown,
  vsCodeOption,
  vsCodeTextField,
} from "@vscode/webview-ui-toolkit";
import type { ComponentChildren, HTMLAttributes, JSX, Ref } from "preact";

let registered = false;

/** Register the toolkit's custom elements once; call before the first render so props become properties. */
export function registerControls(): void {
  if (registered) return;
  registered = true;
  provideVSCodeDesignSystem().register(vsCodeButton(), vsCodeDropdown(), vsCodeOption(), vsCodeTextField());
}

type ToolkitProps = HTMLAttributes<HTMLElement> & {
  value?: string;
  placeholder?: string;
  appearance?: string;
  disabled?: boolean;
  position?: string;
  selected?: boolean;
};

declare module "preact" {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      "vscode-button": ToolkitProps;
      "vscode-text-field": ToolkitProps;
      "vscode-dropdown": ToolkitProps;
      "vscode-option": ToolkitProps;
    }
  }
}

/** The value of a toolkit element (FAST keeps it as a property, not an attribute). */
function valueOf(el: EventTarget | null): string {
  const v = (el as { value?: unknown } | null)?.value;
  return typeof v === "string" ? v : "";
}

/** What the dropdown and the button take alike: their accessible name, an extra class, and whether they are off. */
interface ControlProps {
  ariaLabel?: string;
  class?: string;
  disabled?: boolean;
}

/** The toolkit element's attributes for ControlProps. */
function controlAttributes(props: ControlProps): ToolkitProps {
  return { class: props.class, "aria-label": props.ariaLabel, disabled: props.disabled };
}

/** A single-line text field. */
export function TextField(props: {
  value: string;
  placeholder?: string;
  ariaLabel: string;
  onInput: (value: string) => void;
  onKeyDown?: (e: KeyboardEvent) => void;
  inputRef?: Ref<HTMLElement>;
  class?: string;
}): JSX.Element {
  return (
    <vscode-text-field
      ref={props.inputRef}
      class={props.class}
      value={props.value}
      placeholder={props.placeholder}
      aria-label={props.ariaLabel}
      onInput={(e: Event) => props.onInput(valueOf(e.currentTarget))}
      onKeyDown={props.onKeyDown}
    >
      <span slot="start" class="codicon codicon-search" aria-hidden="true" />
    </vscode-text-field>
  );
}

/** A dropdown of fixed options. */
export function Dropdown<T extends string>(
  props: ControlProps & {
    value: T;
    options: readonly { value: T; label: string }[];
    ariaLabel: string;
    onChange: (value: T) => void;
  },
): JSX.Element {
  return (
    <vscode-dropdown
      {...controlAttributes(props)}
      value={props.value}
      onChange={(e: Event) => {
        const v = valueOf(e.currentTarget);
        const hit = props.options.find((o) => o.value === v);
        if (hit !== undefined) props.onChange(hit.value);
      }}
    >
      {props.options.map((o) => (
        <vscode-option key={o.value} value={o.value} selected={o.value === props.value}>
          {o.label}
        </vscode-option>
      ))}
    </vscode-dropdown>
  );
}

/** A button; `icon` names a codicon; icon-only buttons must pass `ariaLabel`. */
export function Button(
  props: ControlProps & {
    onClick: () => void;
    title?: string;
    icon?: string;
    appearance?: "primary" | "secondary" | "icon";
    children?: ComponentChildren;
  },
): JSX.Element {
  return (
    <vscode-button
      {...controlAttributes(props)}
      appearance={props.appearance ?? "primary"}
      title={props.title ?? props.ariaLabel}
      onClick={() => {
        if (props.disabled !== true) props.onClick();
      }}
    >
      {props.icon !== undefined ? (
        <span class={`codicon codicon-${props.icon}`} slot={props.children !== undefined ? "start" : undefined} />
      ) : null}
      {props.children}
    </vscode-button>
  );
}

/** One button of a ButtonRow; `value` is what a click on it reports. */
export interface RowButton<V extends string | number> {
  value: V;
  icon: string;
  ariaLabel: string;
  /** Shown next to the icon; without it the button is icon-only. */
  text?: string;
}

/** A toolbar's fixed actions from a table, in order; a click reports the button's value. */
export function ButtonRow<V extends string | number>(props: {
  buttons: readonly RowButton<V>[];
  appearance: "secondary" | "icon";
  disabled?: boolean;
  onClick: (value: V) => void;
}): JSX.Element {
  return (
    <>
      {props.buttons.map((b) => (
        <Button
          key={b.value}
          appearance={props.appearance}
          icon={b.icon}
          ariaLabel={b.ariaLabel}
          disabled={props.disabled}
          onClick={() => props.onClick(b.value)}
        >
          {b.text}
        </Button>
      ))}
    </>
  );
}
