import { existsSync } from 'node:fs';
import path from 'node:path';
import { Font } from '@react-pdf/renderer';

// The PDF's font (docs/analytics.md#the-client-report). Next ships Geist (Latin, Latin Extended, Cyrillic, punctuation,
// arrows) with its image renderer; where that file is not found, the PDF's own Helvetica (Latin-1 and typographic
// punctuation). Either way a character the font cannot draw (emoji, CJK, Greek) becomes "·" instead of a wrong glyph.

/** Where Next keeps the font; a path built at run time, so no bundler takes the .ttf for a module to compile. */
const GEIST_PATH = ['node_modules', 'next', 'dist', 'compiled', '@vercel', 'og', 'Geist-Regular.ttf'];

function geistFile(): string | null {
  const file = path.join(process.cwd(), ...GEIST_PATH);
  return existsSync(file) ? file : null;
}

const GEIST = geistFile();
if (GEIST) Font.register({ family: 'Geist', src: GEIST });
// Long words (links) break anywhere instead of overflowing a cell.
Font.registerHyphenationCallback((word) => (word.length > 24 ? word.split('') : [word]));

export const PDF_FONT = GEIST ? 'Geist' : 'Helvetica';

/** Latin-1 and Latin Extended, Cyrillic, punctuation, currency and arrows: Geist's coverage. */
const GEIST_CHARS = /[\u0020-\u007e\u00a0-\u024f\u0400-\u04ff\u2010-\u205e\u20a0-\u20bf\u2190-\u21ff\n]/u;
/** WinAnsi: Latin-1 and the typographic punctuation Helvetica has. */
const WINANSI_CHARS = /[\u0020-\u007e\u00a0-\u00ff\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u20ac\u2122\n]/u;

/** Text the PDF's font can draw: anything else becomes "·". */
export function pdfText(text: string): string {
  const allowed = GEIST ? GEIST_CHARS : WINANSI_CHARS;
  return Array.from(text, (c) => (allowed.test(c) ? c : '·')).join('');
}
