// The open-files limit of the bench's process (children inherit it): 10,000 sockets on each side of a
// capacity run need more descriptors than many shells allow. Raised to the hard limit through libc's
// setrlimit (no root needed for that); a higher hard limit is the operator's (ulimit -Hn, systemd's LimitNOFILE).
import { dlopen, FFIType, ptr } from "bun:ffi";

/** RLIMIT_NOFILE on Linux. */
const RLIMIT_NOFILE = 7;

export interface FdLimit {
  before: number;
  soft: number;
  hard: number;
}

/** Raises this process's soft open-files limit to its hard limit; returns both (Linux only: elsewhere the limit is left as it is and read as unknown). */
export function raiseFdLimit(): FdLimit | undefined {
  if (process.platform !== "linux") return undefined;
  const libc = dlopen("libc.so.6", {
    getrlimit: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 },
    setrlimit: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 },
  });
  try {
    const limit = new BigUint64Array(2); // struct rlimit { rlim_cur, rlim_max }
    if (libc.symbols.getrlimit(RLIMIT_NOFILE, ptr(limit)) !== 0) return undefined;
    const before = Number(limit[0]);
    if (limit[0]! < limit[1]!) {
      limit[0] = limit[1]!;
      libc.symbols.setrlimit(RLIMIT_NOFILE, ptr(limit));
      libc.symbols.getrlimit(RLIMIT_NOFILE, ptr(limit));
    }
    return { before, soft: Number(limit[0]), hard: Number(limit[1]) };
  } finally {
    libc.close();
  }
}
