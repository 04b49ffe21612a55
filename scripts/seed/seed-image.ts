import sharp from 'sharp';

// The demo post's picture: drawn here (no binary in the repo), a calendar page with three post cards.
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="675" viewBox="0 0 1200 675">
  <rect width="1200" height="675" fill="#eef2ff"/>
  <rect x="250" y="90" width="700" height="500" rx="28" fill="#ffffff" stroke="#c7d2fe" stroke-width="6"/>
  <rect x="250" y="90" width="700" height="110" rx="28" fill="#4f46e5"/>
  <rect x="250" y="160" width="700" height="40" fill="#4f46e5"/>
  <circle cx="380" cy="90" r="18" fill="#312e81"/><circle cx="820" cy="90" r="18" fill="#312e81"/>
  <g fill="#e0e7ff">
    ${Array.from({ length: 15 }, (_, i) => `<rect x="${290 + (i % 5) * 128}" y="${235 + Math.floor(i / 5) * 110}" width="108" height="90" rx="12"/>`).join('')}
  </g>
  <rect x="418" y="235" width="108" height="90" rx="12" fill="#22c55e"/>
  <rect x="674" y="345" width="108" height="90" rx="12" fill="#f59e0b"/>
  <rect x="546" y="455" width="108" height="90" rx="12" fill="#6366f1"/>
</svg>`;

export async function demoImage(): Promise<Uint8Array> {
  const png = await sharp(Buffer.from(SVG)).png({ palette: true }).toBuffer();
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
