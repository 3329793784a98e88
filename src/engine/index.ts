// The pure, deterministic engine shared by the server and the browser (no clock, no randomness, no I/O).
export * from "./calendar";
export * from "./crash";
export * from "./errors";
export * from "./fairness";
export * from "./hashing";
export * from "./money";
export * from "./racing";
export * from "./rewards";
export * from "./rtp";
export * from "./slots";
export * from "./tiers";
export * from "./wheel";
