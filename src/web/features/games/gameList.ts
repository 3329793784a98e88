/** The three games, as shown on /games and the landing page. */
export const GAMES = [
  {
    path: "/games/crash",
    title: "Crash Game",
    icon: "crash",
    accent: "var(--green)",
    blurb: "Bet XRP and cash out before the rocket crashes. 1% of every XRP bet buys back and burns VVX.",
    meta: "1-100 XRP · Provably fair hash chain",
  },
  {
    path: "/games/unicorn-racing",
    title: "Unicorn Racing",
    icon: "racing",
    accent: "var(--pink)",
    blurb: "Five unicorns (Ripple, Wave, Drop, Flow, Splash) race every minute. Back the winner and win a multiple of your bet in XRP.",
    meta: "1-100 XRP · A race every 60 s",
  },
  {
    path: "/games/slots",
    title: "VVX Slots",
    icon: "slots",
    accent: "var(--amber)",
    blurb: "A 3-reel slot paid in VVX with a 1000x diamond jackpot and a maximum win of 10,000,000 VVX.",
    meta: "Spin packages from 10,000 VVX",
  },
] as const;
