/**
 * Shrinks a photo on the device before it is queued: the longest side at most `maxDimension`
 * pixels, re-encoded as JPEG (quality 0.85 by default). A PNG drawing is never passed here. Where
 * the platform lacks `createImageBitmap` or a canvas (tests, old browsers), or the image cannot be
 * decoded, the original file is returned unchanged: the server checks sizes anyway.
 */
export interface ResizeOptions {
  readonly maxDimension: number;
  readonly quality?: number;
}

const RESIZABLE = new Set(['image/jpeg', 'image/png', 'image/webp']);

type Canvasish = {
  getContext(type: '2d'): { drawImage(image: ImageBitmap, x: number, y: number, w: number, h: number): void } | null;
};

async function encode(bitmap: ImageBitmap, width: number, height: number, quality: number): Promise<Blob | null> {
  if (typeof OffscreenCanvas === 'function') {
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) return null;
    context.drawImage(bitmap, 0, 0, width, height);
    return canvas.convertToBlob({ type: 'image/jpeg', quality });
  }
  if (typeof document === 'undefined') return null;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = (canvas as unknown as Canvasish).getContext('2d');
  if (!context) return null;
  context.drawImage(bitmap, 0, 0, width, height);
  return new Promise((resolve) => canvas.toBlob((blob) => resolve(blob), 'image/jpeg', quality));
}

const jpegName = (name: string): string => (/\.[^.]+$/.test(name) ? name.replace(/\.[^.]+$/, '.jpg') : `${name}.jpg`);

export async function resizeImage(file: File, options: ResizeOptions): Promise<File> {
  if (!RESIZABLE.has(file.type) || typeof createImageBitmap !== 'function') return file;
  let bitmap: ImageBitmap | null = null;
  try {
    bitmap = await createImageBitmap(file);
    const longest = Math.max(bitmap.width, bitmap.height);
    if (longest <= options.maxDimension) return file;
    const scale = options.maxDimension / longest;
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const blob = await encode(bitmap, width, height, options.quality ?? 0.85);
    if (!blob || blob.size === 0) return file;
    return new File([blob], jpegName(file.name), { type: 'image/jpeg', lastModified: file.lastModified });
  } catch {
    return file;
  } finally {
    bitmap?.close();
  }
}
