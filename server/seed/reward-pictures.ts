import sharp from 'sharp';

/**
 * Pictures of the demo rewards (issue 10): small illustrations drawn here as SVG (shapes only, no
 * text, so no font is needed) and turned into WebP with sharp when the demo data is written.
 * Each is 320×240 and a few kilobytes.
 */
const W = 320;
const H = 240;

const frame = (background: string, body: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><rect width="${W}" height="${H}" fill="${background}"/>${body}</svg>`;

const star = (cx: number, cy: number, r: number, fill: string) => {
  const points = Array.from({ length: 10 }, (_, i) => {
    const angle = (Math.PI / 5) * i - Math.PI / 2;
    const radius = i % 2 === 0 ? r : r * 0.45;
    return `${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`;
  });
  return `<polygon points="${points.join(' ')}" fill="${fill}"/>`;
};

export const REWARD_PICTURES = {
  cinema: frame(
    '#1e3a8a',
    `<g transform="rotate(-8 160 120)">
      <path d="M60 70 h200 a14 14 0 0 0 0 28 v44 a14 14 0 0 0 0 28 h-200 a14 14 0 0 0 0 -28 v-44 a14 14 0 0 0 0 -28 z" fill="#fbbf24"/>
      <line x1="205" y1="74" x2="205" y2="166" stroke="#92400e" stroke-width="4" stroke-dasharray="8 7"/>
      <rect x="80" y="92" width="100" height="14" rx="7" fill="#b45309"/>
      <rect x="80" y="118" width="70" height="10" rx="5" fill="#d97706"/>
      <rect x="80" y="138" width="84" height="10" rx="5" fill="#d97706"/>
      ${star(232, 120, 16, '#b45309')}
    </g>
    ${star(40, 40, 10, '#fde68a')}${star(285, 200, 12, '#fde68a')}${star(290, 45, 7, '#fde68a')}`,
  ),
  pizza: frame(
    '#fee2e2',
    `<circle cx="160" cy="124" r="92" fill="#d97706"/>
    <circle cx="160" cy="124" r="78" fill="#fcd34d"/>
    <path d="M160 124 L250 84 A98 98 0 0 1 258 150 Z" fill="#fee2e2"/>
    <path d="M206 132 L290 118 A86 86 0 0 1 278 178 Z" fill="#d97706" transform="translate(8 6)"/>
    <path d="M212 136 L284 124 A76 76 0 0 1 274 172 Z" fill="#fcd34d" transform="translate(8 6)"/>
    <circle cx="120" cy="100" r="13" fill="#dc2626"/><circle cx="150" cy="170" r="13" fill="#dc2626"/>
    <circle cx="112" cy="150" r="11" fill="#dc2626"/><circle cx="170" cy="80" r="11" fill="#dc2626"/>
    <circle cx="262" cy="152" r="8" fill="#dc2626"/>
    <circle cx="140" cy="128" r="5" fill="#16a34a"/><circle cx="186" cy="152" r="5" fill="#16a34a"/><circle cx="100" cy="124" r="4" fill="#16a34a"/>`,
  ),
  book: frame(
    '#dcfce7',
    `<path d="M40 70 Q100 50 160 74 Q220 50 280 70 V190 Q220 170 160 194 Q100 170 40 190 Z" fill="#15803d"/>
    <path d="M50 66 Q105 48 156 70 V184 Q105 164 50 182 Z" fill="#ffffff"/>
    <path d="M164 70 Q215 48 270 66 V182 Q215 164 164 184 Z" fill="#f8fafc"/>
    <g stroke="#94a3b8" stroke-width="4" stroke-linecap="round">
      <line x1="70" y1="88" x2="138" y2="94"/><line x1="70" y1="108" x2="138" y2="114"/><line x1="70" y1="128" x2="126" y2="133"/>
      <line x1="182" y1="94" x2="250" y2="88"/><line x1="182" y1="114" x2="250" y2="108"/><line x1="182" y1="134" x2="238" y2="129"/>
    </g>
    <path d="M230 40 v60 l12 -10 l12 10 v-60 z" fill="#dc2626"/>`,
  ),
  controller: frame(
    '#ede9fe',
    `<path d="M70 96 Q80 70 120 72 H200 Q240 70 250 96 L276 170 Q282 196 256 196 Q238 196 226 172 L214 150 H106 L94 172 Q82 196 64 196 Q38 196 44 170 Z" fill="#4c1d95"/>
    <rect x="88" y="108" width="14" height="44" rx="3" fill="#c4b5fd"/>
    <rect x="73" y="123" width="44" height="14" rx="3" fill="#c4b5fd"/>
    <circle cx="222" cy="112" r="9" fill="#f472b6"/><circle cx="242" cy="130" r="9" fill="#34d399"/>
    <circle cx="202" cy="130" r="9" fill="#60a5fa"/><circle cx="222" cy="148" r="9" fill="#fbbf24"/>
    <rect x="140" y="104" width="16" height="8" rx="4" fill="#a78bfa"/><rect x="164" y="104" width="16" height="8" rx="4" fill="#a78bfa"/>`,
  ),
  dayOut: frame(
    '#bae6fd',
    `<circle cx="250" cy="60" r="30" fill="#facc15"/>
    <path d="M0 170 Q80 110 160 160 Q230 120 320 150 V240 H0 Z" fill="#4ade80"/>
    <path d="M0 200 Q100 160 200 200 Q260 180 320 196 V240 H0 Z" fill="#16a34a"/>
    <path d="M150 240 Q170 200 160 168" stroke="#fde68a" stroke-width="18" fill="none" stroke-linecap="round"/>
    <rect x="66" y="120" width="10" height="40" fill="#78350f"/><circle cx="71" cy="112" r="24" fill="#15803d"/>
    <path d="M40 60 q10 -10 20 0 q10 -10 20 0" stroke="#ffffff" stroke-width="5" fill="none" stroke-linecap="round"/>
    <path d="M100 40 q8 -8 16 0 q8 -8 16 0" stroke="#ffffff" stroke-width="4" fill="none" stroke-linecap="round"/>`,
  ),
  bedtime: frame(
    '#0f172a',
    `<circle cx="150" cy="112" r="62" fill="#fde68a"/>
    <circle cx="182" cy="92" r="56" fill="#0f172a"/>
    ${star(240, 60, 12, '#fef9c3')}${star(270, 150, 9, '#fef9c3')}${star(70, 60, 8, '#fef9c3')}${star(220, 190, 7, '#fef9c3')}${star(60, 180, 10, '#fef9c3')}
    <circle cx="250" cy="112" r="3" fill="#fef9c3"/><circle cx="40" cy="120" r="3" fill="#fef9c3"/><circle cx="120" cy="200" r="3" fill="#fef9c3"/>`,
  ),
  skateboard: frame(
    '#ffedd5',
    `<rect x="50" y="104" width="220" height="30" rx="15" fill="#ea580c"/>
    <rect x="70" y="112" width="180" height="6" rx="3" fill="#fdba74"/>
    <rect x="90" y="134" width="20" height="12" fill="#57534e"/><rect x="210" y="134" width="20" height="12" fill="#57534e"/>
    <circle cx="100" cy="156" r="16" fill="#1c1917"/><circle cx="220" cy="156" r="16" fill="#1c1917"/>
    <circle cx="100" cy="156" r="6" fill="#a8a29e"/><circle cx="220" cy="156" r="6" fill="#a8a29e"/>
    <path d="M30 200 h260" stroke="#fb923c" stroke-width="6" stroke-linecap="round" stroke-dasharray="20 14"/>`,
  ),
  takeaway: frame(
    '#fef3c7',
    `<path d="M90 90 L230 90 L214 200 L106 200 Z" fill="#f8fafc" stroke="#cbd5e1" stroke-width="4"/>
    <path d="M90 90 L120 60 L200 60 L230 90 Z" fill="#e2e8f0"/>
    <path d="M130 60 Q160 20 190 60" stroke="#ef4444" stroke-width="6" fill="none"/>
    <circle cx="160" cy="140" r="26" fill="#ef4444"/>
    ${star(160, 140, 14, '#fef3c7')}`,
  ),
  phone: frame(
    '#e0f2fe',
    `<rect x="115" y="30" width="90" height="180" rx="16" fill="#0f172a"/>
    <rect x="124" y="48" width="72" height="134" rx="6" fill="#38bdf8"/>
    <circle cx="160" cy="196" r="6" fill="#475569"/>
    <circle cx="160" cy="115" r="22" fill="#f8fafc"/>
    <path d="M160 101 V115 L170 122" stroke="#0f172a" stroke-width="4" fill="none" stroke-linecap="round"/>
    <path d="M226 90 q14 25 0 50 M244 78 q24 37 0 74" stroke="#0284c7" stroke-width="5" fill="none" stroke-linecap="round"/>`,
  ),
  popcorn: frame(
    '#fce7f3',
    `<circle cx="130" cy="80" r="24" fill="#fffbeb"/><circle cx="160" cy="66" r="26" fill="#fef3c7"/><circle cx="190" cy="80" r="24" fill="#fffbeb"/>
    <circle cx="145" cy="92" r="20" fill="#fef9c3"/><circle cx="176" cy="94" r="20" fill="#fffbeb"/>
    <path d="M104 96 H216 L198 214 H122 Z" fill="#ef4444"/>
    <path d="M132 96 L140 214 H156 L152 96 Z M172 96 L168 214 H184 L192 96 Z" fill="#ffffff"/>`,
  ),
} as const;

export type RewardPicture = keyof typeof REWARD_PICTURES;

/** The picture as WebP bytes. */
export async function rewardPicture(name: RewardPicture): Promise<Buffer> {
  return sharp(Buffer.from(REWARD_PICTURES[name])).webp({ quality: 80 }).toBuffer();
}
