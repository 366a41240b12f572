/** A Blob's bytes or text (FileReader where a Blob has no arrayBuffer()/text(), as in older WebViews). */
function read<T>(blob: Blob, as: 'buffer' | 'text'): Promise<T> {
  if (as === 'buffer' && typeof blob.arrayBuffer === 'function') return blob.arrayBuffer() as Promise<T>;
  if (as === 'text' && typeof blob.text === 'function') return blob.text() as Promise<T>;
  return new Promise<T>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as T);
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    if (as === 'buffer') reader.readAsArrayBuffer(blob);
    else reader.readAsText(blob);
  });
}

export const blobBytes = async (blob: Blob): Promise<Uint8Array> => new Uint8Array(await read<ArrayBuffer>(blob, 'buffer'));
export const blobText = (blob: Blob): Promise<string> => read<string>(blob, 'text');
