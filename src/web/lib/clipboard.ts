import { toast } from "../state/toast";

/** Copies `text` and says so in a toast titled `copied` ('Address Copied'); a browser that refuses gets the text shown to select. */
export async function copyWithToast(text: string, copied: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: copied, description: text });
  } catch {
    toast({ title: "Copy failed", description: `Your browser did not allow copying. Select it instead: ${text}`, variant: "destructive" });
  }
}
