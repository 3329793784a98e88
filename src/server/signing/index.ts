// Xaman sign requests for every feature (the routes that turn them into sessions live in auth/).
export { bindingHash, parseUuid, SigningService, type CreatePaymentRequest, type CreateSignRequest, type SignRequestCreated, type SignStatus } from "./service";
