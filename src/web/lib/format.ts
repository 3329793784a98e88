const number2 = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const whole = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
const percent = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 2 });
const shortDate = new Intl.DateTimeFormat("en-US", { dateStyle: "short" });

/** en-US with 2 decimals: 1,234.50 */
export const formatNumber = (n: number) => number2.format(n);
/** Whole number with thousands separators: 500,000 */
export const formatWhole = (n: number) => whole.format(n);
/** Purchase-flow amounts: "500,000 VVX" */
export const formatVvx = (n: number) => `${whole.format(n)} VVX`;
/** 24M, 1.2K */
export const formatCompact = (n: number) => compact.format(n);
/** 0.1 -> "10%" */
export const formatPercent = (fraction: number) => percent.format(fraction);
export const formatShortDate = (d: Date | number | string) => shortDate.format(new Date(d));
/** First 6 and last 4 characters of an address: rAbCdE...wXyZ */
export const shortAddress = (a: string) => (a.length > 12 ? `${a.slice(0, 6)}...${a.slice(-4)}` : a);
/** A transaction hash as its first 8 characters (token ids show their end instead: components/TokenId). */
export const shortHash = (hash: string) => hash.slice(0, 8);
