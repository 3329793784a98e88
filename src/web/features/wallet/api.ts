import type {
  AuthStatusResponse,
  EnvironmentResponse,
  OauthCallbackResponse,
  OauthCompleteResponse,
  OauthInitiateResponse,
  PushAuthResponse,
  PushToSignStatusResponse,
  SignRequestResponse,
  SignStatusResponse,
  XAppSessionResponse,
} from "../../../shared/api/auth";

// The wallet's API types are the server's schemas (src/shared/api/auth.ts).
export type SignRequest = SignRequestResponse;
export type SignStatus = SignStatusResponse;
export type AuthStatus = AuthStatusResponse;
export type EnvironmentInfo = Omit<EnvironmentResponse, "success">;
export type OAuthInitiated = OauthInitiateResponse;
export type OAuthProgress = OauthCallbackResponse;
export type OAuthComplete = typeof OauthCompleteResponse.static;
export type PushAuth = PushAuthResponse;
export type PushStatus = PushToSignStatusResponse;
export type XAppSession = typeof XAppSessionResponse.static;
