const whole = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
const shortDate = new Intl.DateTimeFormat("en-US", { dateStyle: "short" });

/** Whole number with thousands separators: 500,000 */
export const formatWhole = (n: number) => whole.format(n);
/** Purchase-flow amounts: "500,000 VVX" */
export const formatVvx = (n: number) => `${whole.format(n)} VVX`;
/** 24M, 1.2K */
export const formatCompact = (n: number) => compact.format(n);
export const formatShortDate = (d: Date | number | string) => shortDate.format(new Date(d));
/** First 6 and last 4 characters of an address: rAbCdE...wXyZ */
export const shortAddress = (a: string) => (a.length > 12 ? `${a.slice(0, 6)}...${a.slice(-4)}` : a);
/** A transaction hash as its first 8 characters (token ids show their end instead: components/TokenId). */
export const shortHash = (hash: string) => hash.slice(0, 8);
