/**
 * Images pasted or dropped into the chat input: sent to the model as pi stores them (`{type:"image", data,
 * mimeType}` in the user message) when the model takes image input. The caps are pi's: at most 2000 × 2000
 * pixels (the input scales larger ones down) and 4.5 MiB of base64 (under Anthropic's 5 MB per image); an
 * image still larger after scaling is refused with the reason.
 */
import type { ImageContent } from "../messages.js";
import type { ModelInfo } from "../providers/types.js";

/** Types every supported provider accepts. */
export const IMAGE_MIME_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
/** Longest side, in pixels, an image is sent with; the input scales larger ones down. */
export const MAX_IMAGE_DIMENSION = 2000;
/** Most base64 characters of one image. */
export const MAX_IMAGE_BASE64 = Math.floor(4.5 * 1024 * 1024);
/** Most images one message carries. */
export const MAX_IMAGES_PER_MESSAGE = 8;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Why `img` cannot be sent, or undefined when it can. */
export function imageProblem(img: { mimeType: string; data: string }): string | undefined {
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(img.mimeType))
    return `images of type ${img.mimeType || "unknown"} cannot be sent (PNG, JPEG, GIF or WebP only)`;
  if (img.data.length > MAX_IMAGE_BASE64)
    return `the image is ${mib(img.data.length)} of base64 data, more than the ${mib(MAX_IMAGE_BASE64)} a model accepts`;
  if (img.data.length === 0 || img.data.length % 4 !== 0 || !BASE64.test(img.data))
    return "the image data is not base64";
  return undefined;
}

/** True when `model` takes images (its `input` lists "image"). */
export function acceptsImages(model: Partial<Pick<ModelInfo, "input">>): boolean {
  return model.input?.includes("image") === true;
}

/** The message for sending images to a text-only model. */
export function textOnlyModelMessage(model: Pick<ModelInfo, "name">, count: number): string {
  const what = count === 1 ? "the image" : `the ${count} images`;
  return (
    `${model.name} takes text only: remove ${what} or choose a model with image input ` +
    `(a custom model says so with "input": ["text", "image"] in agentTree.models.custom).`
  );
}

/** A copy holding only the image fields pi stores. */
export function imageBlock(img: { mimeType: string; data: string }): ImageContent {
  return { type: "image", data: img.data, mimeType: img.mimeType };
}

function mib(chars: number): string {
  return `${(chars / (1024 * 1024)).toFixed(1)} MiB`;
}
