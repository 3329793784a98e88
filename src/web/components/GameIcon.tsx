/** Inline SVG icons for the three games (no emoji font is needed to show them). */
export function GameIcon({ game, size = 44 }: { game: "crash" | "racing" | "slots"; size?: number }) {
  const common = { width: size, height: size, viewBox: "0 0 48 48", "aria-hidden": true, focusable: false } as const;
  if (game === "crash") {
    return (
      <svg {...common}>
        <path d="M6 40 L18 28 L24 32 L40 10" fill="none" stroke="#22c55e" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
        <path d="M34 8 L42 6 L40 14 Z" fill="#22c55e" />
        <circle cx="40" cy="10" r="3" fill="#fbbf24" />
        <path d="M4 44 H44" stroke="#3a4170" strokeWidth="2" />
      </svg>
    );
  }
  if (game === "racing") {
    return (
      <svg {...common}>
        <path d="M14 40 C14 30 16 24 22 20 L20 12 L26 17 C32 16 38 20 38 28 L34 30 L30 26 C28 30 26 34 26 40 Z" fill="#ec4899" />
        <path d="M22 20 L30 4 L27 18 Z" fill="#fbbf24" />
        <circle cx="31" cy="22" r="1.8" fill="#0b0d17" />
        <path d="M16 22 C10 22 8 28 6 32 C10 30 12 30 15 30" fill="#8b5cf6" />
      </svg>
    );
  }
  return (
    <svg {...common}>
      <rect x="5" y="10" width="34" height="30" rx="5" fill="#f59e0b" />
      <rect x="9" y="17" width="8" height="14" rx="2" fill="#0b0d17" />
      <rect x="18" y="17" width="8" height="14" rx="2" fill="#0b0d17" />
      <rect x="27" y="17" width="8" height="14" rx="2" fill="#0b0d17" />
      <text x="13" y="28" fontSize="9" textAnchor="middle" fill="#22d3ee" fontWeight="700">7</text>
      <text x="22" y="28" fontSize="9" textAnchor="middle" fill="#22d3ee" fontWeight="700">7</text>
      <text x="31" y="28" fontSize="9" textAnchor="middle" fill="#22d3ee" fontWeight="700">7</text>
      <path d="M41 14 V28" stroke="#9aa0c3" strokeWidth="2.5" strokeLinecap="round" />
      <circle cx="41" cy="12" r="3" fill="#ef4444" />
    </svg>
  );
}
