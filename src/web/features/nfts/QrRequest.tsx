import { useSnapshot } from "valtio";
import { isMobile, walletState } from "../wallet/walletStore";
import { useOpenInXaman } from "../wallet/xapp";

/** A sign request's QR (256 px, 200 px on phones) with a link that opens it in the wallet app. */
export function QrRequest({ qrUrl, xummUrl, uuid, alt, testId }: { qrUrl: string | null; xummUrl: string | null; uuid: string | null; alt: string; testId: string }) {
  const { environment } = useSnapshot(walletState);
  const mobile = environment?.isMobile ?? isMobile();
  useOpenInXaman(uuid);
  // The spec's 200 px on phones; a narrow window gets the phone size too.
  const size = mobile || (typeof window !== "undefined" && window.innerWidth < 480) ? 200 : 256;
  return (
    <div className="qr-request" data-testid={testId} data-uuid={uuid ?? undefined}>
      {qrUrl && (
        <div className="qr-frame" style={{ width: size, height: size }}>
          <img src={qrUrl} alt={alt} width={size} height={size} />
        </div>
      )}
      {xummUrl &&
        (mobile ? (
          <a className="btn btn-primary" href={xummUrl} target="_blank" rel="noopener noreferrer">
            Open in Xaman
          </a>
        ) : (
          <a className="small" href={xummUrl} target="_blank" rel="noopener noreferrer">
            Open the request link
          </a>
        ))}
    </div>
  );
}
