import { describe, expect, it } from 'vitest';
import { allowedDocumentType, DOCUMENT_FILE_TYPES, isPlainText, sniffBytes, sniffDocumentBytes } from '@/contract/file-type';

const bytes = (text: string, tail: number[] = []): Uint8Array => Uint8Array.from([...Array.from(text, (c) => c.charCodeAt(0)), ...tail]);
const ftyp = (brand: string) => Uint8Array.from([0, 0, 0, 0x20, ...bytes('ftyp'), ...bytes(brand), 0, 0, 2, 0]);
const WEBM = Uint8Array.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84, ...bytes('webm'), 0x42, 0x87]);
const MKV = Uint8Array.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x88, ...bytes('matroska')]);

describe('document file types (issue 11): by content and by name', () => {
  it('recognises video, audio and text by their first bytes', () => {
    expect(sniffDocumentBytes(ftyp('isom'))).toBe('video/mp4');
    expect(sniffDocumentBytes(ftyp('mp42'))).toBe('video/mp4');
    expect(sniffDocumentBytes(ftyp('M4A '))).toBe('audio/mp4');
    expect(sniffDocumentBytes(WEBM)).toBe('video/webm');
    expect(sniffDocumentBytes(bytes('OggS\0\x02'))).toBe('audio/ogg');
    expect(sniffDocumentBytes(bytes('RIFF\0\0\0\0WAVEfmt '))).toBe('audio/wav');
    expect(sniffDocumentBytes(bytes('ID3\x04\0'))).toBe('audio/mpeg');
    expect(sniffDocumentBytes(Uint8Array.from([0xff, 0xfb, 0x90, 0x64]))).toBe('audio/mpeg');
    expect(sniffDocumentBytes(bytes('Tea is at 5.\nBe kind.\n'))).toBe('text/plain');
    expect(sniffDocumentBytes(new TextEncoder().encode('\ufeffCafé ☕ 🥞 — ok'))).toBe('text/plain');
    // The attachment types still come first, and the attachment sniffer is unchanged.
    expect(sniffDocumentBytes(bytes('%PDF-1.4\n'))).toBe('application/pdf');
    expect(sniffBytes(ftyp('isom'))).toBeNull();
    expect(sniffBytes(bytes('RIFF\0\0\0\0WAVE'))).toBeNull();
  });

  it('refuses look-alikes: QuickTime, 3GPP, Matroska, AAC frames, and binary or markup posing as text', () => {
    expect(sniffDocumentBytes(ftyp('qt  '))).toBeNull();
    expect(sniffDocumentBytes(ftyp('3gp4'))).toBeNull();
    expect(sniffDocumentBytes(MKV)).toBeNull();
    expect(sniffDocumentBytes(Uint8Array.from([0xff, 0xf1, 0x50, 0x80]))).toBeNull();
    expect(sniffDocumentBytes(bytes('RIFF\0\0\0\0AVI LIST'))).toBeNull();
    expect(sniffDocumentBytes(new Uint8Array())).toBeNull();
    expect(sniffDocumentBytes(Uint8Array.from([0x68, 0x69, 0xc3]))).toBeNull(); // cut-off UTF-8
    expect(sniffDocumentBytes(bytes('hello\0world'))).toBeNull();
    for (const markup of ['<!DOCTYPE html><p>x', '  <html><body>x', 'Notes\n<script>alert(1)</script>', '<svg xmlns="http://www.w3.org/2000/svg"/>', '<?xml version="1.0"?>', 'a</b>', '<!-- x -->']) {
      expect(isPlainText(new TextEncoder().encode(markup)), markup).toBe(false);
    }
    expect(isPlainText(bytes('I <3 this, and 3 < 4'))).toBe(true);
  });

  it('wants the name to agree with the content', () => {
    expect(allowedDocumentType(bytes('%PDF-1.7'), 'rules.pdf')).toBe('application/pdf');
    expect(allowedDocumentType(bytes('%PDF-1.7'), 'rules.png')).toBeNull();
    expect(allowedDocumentType(WEBM, 'clip.WEBM')).toBe('video/webm');
    expect(allowedDocumentType(WEBM, 'clip.mp4')).toBeNull();
    expect(allowedDocumentType(ftyp('M4A '), 'song.m4a')).toBe('audio/mp4');
    expect(allowedDocumentType(ftyp('M4A '), 'song.mp4')).toBeNull();
    expect(allowedDocumentType(bytes('plain words'), 'notes.txt')).toBe('text/plain');
    expect(allowedDocumentType(bytes('<html><script>x</script>'), 'notes.txt')).toBeNull();
    expect(allowedDocumentType(bytes('plain words'), 'notes.html')).toBeNull();
    expect(Object.keys(DOCUMENT_FILE_TYPES)).toHaveLength(12);
  });
});
