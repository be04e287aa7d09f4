/** Thumbnails of images: the input's pending ones (each with a remove button) or a sent message's. */
import type { JSX } from "preact";
import type { ImageDto } from "../../src/shared/protocol.js";

/** Props: the images, and a remove action for the input's. */
export interface ImageThumbsProps {
  images: readonly ImageDto[];
  onRemove?: (index: number) => void;
}

/** See the file comment. */
export function ImageThumbs(p: ImageThumbsProps): JSX.Element {
  return (
    <ul class="image-thumbs" aria-label={p.onRemove ? "Images to send" : "Images"}>
      {p.images.map((img, i) => (
        <li key={i} class="image-thumb">
          <img src={`data:${img.mimeType};base64,${img.data}`} alt={`Image ${i + 1} (${img.mimeType})`} />
          {p.onRemove ? (
            <button
              type="button"
              class="image-remove"
              aria-label={`Remove image ${i + 1}`}
              title="Remove"
              onClick={() => p.onRemove?.(i)}
            >
              <span class="codicon codicon-close" aria-hidden="true" />
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
