declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.svg" {
  const path: string;
  export default path;
}
declare module "*.png" {
  const path: string;
  export default path;
}
// qrcode's browser entry (the package's "browser" field points "qrcode" there): the same API as "qrcode".
declare module "qrcode/lib/browser" {
  export * from "qrcode";
}
