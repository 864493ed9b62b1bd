import { FileIcon, PinIcon } from '../icons.js';
import { hrefOf } from '../links.js';
import { useTexts } from '../texts.js';

/** A file message: a download link named by its title. */
export function FileLink({ url, title }: { url: string; title: string | undefined }) {
  const s = useTexts();
  return (
    <div class="pw-bubble">
      <a {...hrefOf(url)} target="_blank" rel="noopener noreferrer" download>
        <FileIcon /> {title || s.file}
      </a>
    </div>
  );
}

/** A location message: a link to the place on OpenStreetMap, named by its title, address or coordinates. */
export function Location({
  latitude,
  longitude,
  title,
  address,
}: {
  latitude: number;
  longitude: number;
  title?: string | undefined;
  address?: string | undefined;
}) {
  const href = `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`;
  return (
    <div class="pw-bubble">
      <a href={href} target="_blank" rel="noopener noreferrer">
        <PinIcon /> {title || address || `${latitude}, ${longitude}`}
      </a>
      {title && address && <div>{address}</div>}
    </div>
  );
}
