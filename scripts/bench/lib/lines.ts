/** A child process's stdout as lines (the benches' children answer in JSON lines). */
export async function* linesOf(stdout: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buf = "";
  for await (const chunk of stdout as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    let at: number;
    while ((at = buf.indexOf("\n")) >= 0) {
      yield buf.slice(0, at);
      buf = buf.slice(at + 1);
    }
  }
}
