import type { FileModule } from '@/entries/data/file-keys';
import { useEntryFile } from '../hooks/use-entry-file';
import './comment-thread.css';

/**
 * Files as threads show them (journal, voice and objectives comments, an entry's attachments): a
 * picture as a thumbnail linking to itself, anything else as a download link; a file that is not
 * on the device yet says so. Read from the encrypted replica (src/entries/hooks/use-entry-file.ts).
 */
export interface FileRef {
  readonly id: string;
  readonly name: string;
  readonly mime: string;
}

/** One attachment: a picture shows as a thumbnail, anything else as a download link. */
export function Attachment({ file, module, alt }: { file: FileRef; module: FileModule; alt?: string }) {
  const url = useEntryFile(file.id, module);
  const image = file.mime.startsWith('image/');
  if (!url) {
    // A picture's words take its thumbnail's place: when it arrives (fetched, or decrypted from the
    // replica a moment later), nothing under it moves.
    const className = image ? 'attachment attachment--missing attachment--picture' : 'attachment attachment--missing';
    return <span className={className}>{image ? (alt ?? file.name) : file.name} (not on this device yet)</span>;
  }
  if (image) {
    return (
      <a className="attachment" href={url} target="_blank" rel="noreferrer">
        <img src={url} alt={alt ?? file.name} className="attachment__img" width={120} height={120} />
      </a>
    );
  }
  return (
    <a className="attachment" href={url} download={file.name}>
      {file.name}
    </a>
  );
}

export function Files({ files, module }: { files: readonly FileRef[]; module: FileModule }) {
  if (files.length === 0) return null;
  return (
    <ul className="attachments" aria-label="Attachments">
      {files.map((file) => (
        <li key={file.id}>
          <Attachment file={file} module={module} />
        </li>
      ))}
    </ul>
  );
}

/** Plain text, line breaks kept: what people write is never parsed as HTML. */
export function PlainText({ value }: { value: string | null }) {
  return value ? <p className="thread__text">{value}</p> : null;
}

