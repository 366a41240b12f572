import { describe, expect, it } from 'vitest';
import { entryLimits, entryMessages } from '@/contract/entries';
import { sniffBytes } from '@/contract/file-type';
import { checkSizes, isAllowedFile, validateComment, validateEntry } from '@/entries/data/validate';
import { jpegFile, pngFile } from './entries-support';

const now = new Date(2026, 2, 10, 12, 0); // 10 March 2026, 12:00 local

describe('entry validation on the device (SPEC §5, contract texts)', () => {
  it('needs one of description, drawing or reaction', async () => {
    expect(await validateEntry('journal', { description: '  ' }, undefined, now)).toEqual({ description: [entryMessages.nothingToSave] });
    expect(await validateEntry('journal', { reaction: '😀' }, undefined, now)).toEqual({});
    expect(await validateEntry('journal', { canvas: pngFile('canvas.png') }, undefined, now)).toEqual({});
    // An update keeping its drawing needs nothing more; removing it does.
    expect(await validateEntry('journal', {}, { fileIds: [], hasCanvas: true }, now)).toEqual({});
    expect(await validateEntry('journal', { removeCanvas: true }, { fileIds: [], hasCanvas: true }, now)).toEqual({
      description: [entryMessages.nothingToSave],
    });
  });

  it('limits the description length', async () => {
    const long = 'a'.repeat(entryLimits.descriptionMaxLength + 1);
    expect(await validateEntry('journal', { description: long }, undefined, now)).toEqual({ description: [entryMessages.descriptionTooLong] });
    expect(await validateEntry('journal', { description: long.slice(1) }, undefined, now)).toEqual({});
  });

  it('refuses a journal date and time in the future (device time)', async () => {
    expect(await validateEntry('journal', { description: 'x', entryDate: '2026-03-10', entryTime: '12:01' }, undefined, now)).toEqual({
      entry_date: [entryMessages.dateInFuture],
    });
    expect(await validateEntry('journal', { description: 'x', entryDate: '2026-03-11', entryTime: '00:00' }, undefined, now)).toEqual({
      entry_date: [entryMessages.dateInFuture],
    });
    expect(await validateEntry('journal', { description: 'x', entryDate: '2026-03-10', entryTime: '12:00' }, undefined, now)).toEqual({});
  });

  it('voice needs a category', async () => {
    expect(await validateEntry('voice', { description: 'x' }, undefined, now)).toEqual({ category_id: [entryMessages.categoryRequired] });
    expect(await validateEntry('voice', { description: 'x', categoryId: 'c' }, undefined, now)).toEqual({});
  });

  it('checks files by name and by their first bytes, and counts them', async () => {
    expect(await isAllowedFile(pngFile('ok.png'))).toBe(true);
    expect(await isAllowedFile(jpegFile('ok.JPG'))).toBe(true);
    // A PNG named .jpg, a text file named .png, an executable named .pdf
    expect(await isAllowedFile(pngFile('photo.jpg'))).toBe(false);
    expect(await isAllowedFile(new File(['hello'], 'note.png', { type: 'image/png' }))).toBe(false);
    expect(await isAllowedFile(new File(['MZ\x90\x00'], 'doc.pdf', { type: 'application/pdf' }))).toBe(false);
    expect(await isAllowedFile(new File(['%PDF-1.7 ...'], 'doc.pdf'))).toBe(true);

    const bad = await validateEntry('voice', { description: 'x', categoryId: 'c', files: [new File(['<svg/>'], 'x.svg')] }, undefined, now);
    expect(bad).toEqual({ files: [entryMessages.fileTypeNotAllowed] });
    expect(bad.files?.[0]).toBe('File type not allowed');

    const six = Array.from({ length: entryLimits.maxFiles + 1 }, (_, i) => pngFile(`p${i}.png`));
    expect(await validateEntry('journal', { description: 'x', files: six }, undefined, now)).toEqual({ files: [entryMessages.tooManyFiles] });
    // On update, the files kept count too.
    const kept = { fileIds: ['a', 'b', 'c', 'd', 'e'], hasCanvas: false };
    expect(await validateEntry('journal', { description: 'x', files: [pngFile('n.png')] }, kept, now)).toEqual({ files: [entryMessages.tooManyFiles] });
    expect(await validateEntry('journal', { description: 'x', files: [pngFile('n.png')], removeFiles: ['a'] }, kept, now)).toEqual({});
    // The drawing must be a PNG.
    expect(await validateEntry('journal', { canvas: jpegFile('canvas.png') }, undefined, now)).toEqual({ canvas: [entryMessages.fileTypeNotAllowed] });
  });

  it('checks sizes after resizing', () => {
    const big = new Blob([new Uint8Array(entryLimits.maxFileBytes + 1)]);
    expect(checkSizes([big], null)).toEqual({ files: [entryMessages.fileTooLarge] });
    expect(checkSizes([], new Blob([new Uint8Array(entryLimits.canvasMaxBytes + 1)]))).toEqual({ canvas: [entryMessages.fileTooLarge] });
  });

  it('comments need a comment or a reaction', async () => {
    expect(await validateComment({ comment: ' ' })).toEqual({ comment: [entryMessages.commentRequired] });
    expect(await validateComment({ reaction: '👍' })).toEqual({});
    expect(await validateComment({ comment: 'thanks' })).toEqual({});
  });

  it('sniffs the allowed types', () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    expect(sniffBytes(bytes('GIF89a...'))).toBe('image/gif');
    expect(sniffBytes(bytes('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
    expect(sniffBytes(bytes('<html>'))).toBeNull();
  });
});
