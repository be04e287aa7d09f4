/**
 * An image file pasted or dropped into the chat input, made ready to send: a type the providers take, scaled
 * down to fit MAX_IMAGE_DIMENSION (on a canvas, keeping its aspect), and refused with the reason when it is
 * still over MAX_IMAGE_BASE64 (src/core/mentions/image-attachment.ts holds the caps).
 */
import {
  IMAGE_MIME_TYPES,
  imageProblem,
  MAX_IMAGE_BASE64,
  MAX_IMAGE_DIMENSION,
} from "../../src/core/mentions/image-attachment.js";
import type { ImageDto } from "../../src/shared/protocol.js";

/** The image ready to send, or why it cannot be. */
export type ReadImage = { ok: true; image: ImageDto; scaled: boolean } | { ok: false; reason: string };

/** True for a file the input treats as an image. */
export function isImageFile(file: File): boolean {
  return file.type.startsWith("image/");
}

/** Read, scale if needed, check. */
export async function readImageFile(file: File): Promise<ReadImage> {
  const name = file.name || "the pasted image";
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type))
    return { ok: false, reason: `${name}: ${file.type || "unknown"} images cannot be sent (PNG, JPEG, GIF or WebP)` };
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return { ok: false, reason: `${name} could not be read as an image` };
  }
  const big = Math.max(bitmap.width, bitmap.height) > MAX_IMAGE_DIMENSION;
  // base64 is 4/3 of the bytes.
  const heavy = (file.size * 4) / 3 > MAX_IMAGE_BASE64;
  let image: ImageDto;
  if (!big && !heavy) {
    bitmap.close();
    image = { mimeType: file.type, data: await base64Of(file) };
  } else {
    const scale = Math.min(1, MAX_IMAGE_DIMENSION / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    canvas.getContext("2d")?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    // PNG keeps screenshots sharp; a photo too heavy as PNG becomes a JPEG.
    let url = canvas.toDataURL("image/png");
    if (url.length - url.indexOf(",") - 1 > MAX_IMAGE_BASE64) url = canvas.toDataURL("image/jpeg", 0.85);
    const comma = url.indexOf(",");
    image = { mimeType: url.slice(5, url.indexOf(";")), data: url.slice(comma + 1) };
  }
  const problem = imageProblem(image);
  if (problem) return { ok: false, reason: `${name}: ${problem}` };
  return { ok: true, image, scaled: big || heavy };
}

async function base64Of(file: Blob): Promise<string> {
  const url = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("read failed"));
    reader.readAsDataURL(file);
  });
  return url.slice(url.indexOf(",") + 1);
}
