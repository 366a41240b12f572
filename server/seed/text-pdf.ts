/**
 * A small, valid PDF of text pages, written here so the demo needs no PDF library: a catalog, a
 * page tree, one content stream per page in the standard Helvetica fonts (no font file needed),
 * document information, and a cross-reference table whose offsets are the real byte offsets
 * (tests/server/documents-seed.test.ts reads it back). Text is Latin-1; other characters become '?'.
 */
export interface PdfPage {
  heading: string;
  lines: string[];
}

const A4 = { width: 595, height: 842 };

/** A PDF string literal: backslash, parentheses escaped; outside Latin-1 replaced. */
function literal(text: string): string {
  const latin1 = text.replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/[–—]/g, '-').replace(/[^\x20-\xff]/g, '?');
  return `(${latin1.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

function pageContent(page: PdfPage, number: number, total: number): string {
  const body = page.lines.map((line, i) => `${i === 0 ? '' : 'T* '}${literal(line)} Tj`).join('\n');
  return [
    'BT /F2 22 Tf 56 770 Td', `${literal(page.heading)} Tj`, 'ET',
    'BT /F1 12 Tf 56 730 Td 18 TL', body, 'ET',
    `BT /F1 9 Tf 56 40 Td ${literal(`Page ${number} of ${total}`)} Tj ET`,
  ].join('\n');
}

export function textPdf(title: string, pages: PdfPage[]): Buffer {
  // Object numbers: 1 catalog, 2 pages, 3 and 4 fonts, 5 info, then a page and its content per page.
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 6 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  objects[5] = `<< /Title ${literal(title)} /Producer (Hearth demo) >>`;
  pages.forEach((page, i) => {
    const content = pageContent(page, i + 1, pages.length);
    objects[pageIds[i]!] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${A4.width} ${A4.height}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageIds[i]! + 1} 0 R >>`;
    objects[pageIds[i]! + 1] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
  });

  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = chunks[0]!.length;
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = offset;
    const chunk = Buffer.from(`${id} 0 obj\n${objects[id]}\nendobj\n`, 'latin1');
    chunks.push(chunk);
    offset += chunk.length;
  }
  const xref = [`xref\n0 ${objects.length}\n`, '0000000000 65535 f \n', ...offsets.slice(1).map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  chunks.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${offset}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(chunks);
}
