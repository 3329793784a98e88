import { toast } from "../state/toast";

/** Puts `text` on the clipboard; false where the browser refuses (no permission, an insecure page). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Copies `text` and says so in a toast titled `copied` ('Address Copied'); a browser that refuses gets the text shown to select. */
export async function copyWithToast(text: string, copied: string): Promise<void> {
  if (await copyText(text)) toast({ title: copied, description: text });
  else toast({ title: "Copy failed", description: `Your browser did not allow copying. Select it instead: ${text}`, variant: "destructive" });
}
