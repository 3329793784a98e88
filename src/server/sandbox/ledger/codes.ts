/**
 * rippled's transaction result codes (TER) with their numeric values and the
 * messages rippled prints, for the results this sandbox can produce. A test
 * checks every value against ripple-binary-codec's definitions.
 */
export const TER = {
  tesSUCCESS: 0,
  tecPATH_PARTIAL: 101,
  tecUNFUNDED_PAYMENT: 104,
  tecINSUF_RESERVE_LINE: 122,
  tecNO_DST: 124,
  tecNO_DST_INSUF_XRP: 125,
  tecNO_LINE_INSUF_RESERVE: 126,
  tecNO_LINE_REDUNDANT: 127,
  tecPATH_DRY: 128,
  tecNO_ISSUER: 133,
  tecNO_LINE: 135,
  tecNO_PERMISSION: 139,
  tecNO_ENTRY: 140,
  tecINSUFFICIENT_RESERVE: 141,
  tecDST_TAG_NEEDED: 143,
  tecEXPIRED: 148,
  tecDUPLICATE: 149,
  tecMAX_SEQUENCE_REACHED: 154,
  tecCANT_ACCEPT_OWN_NFTOKEN_OFFER: 158,
  tecINSUFFICIENT_FUNDS: 159,
  tecOBJECT_NOT_FOUND: 160,
  tecUNFUNDED_AMM: 162,
  tecUNFUNDED_OFFER: 103,
  tecNFTOKEN_OFFER_TYPE_MISMATCH: 157,
  tefALREADY: -198,
  tefBAD_AUTH: -196,
  tefPAST_SEQ: -190,
  tefMAX_LEDGER: -187,
  tefNOT_MULTI_SIGNING: -184,
  tefNFTOKEN_IS_NOT_TRANSFERABLE: -179,
  telINSUF_FEE_P: -394,
  telNO_DST_PARTIAL: -393,
  temMALFORMED: -299,
  temBAD_AMOUNT: -298,
  temBAD_CURRENCY: -297,
  temBAD_EXPIRATION: -296,
  temBAD_FEE: -295,
  temBAD_ISSUER: -294,
  temBAD_LIMIT: -293,
  temBAD_SEND_XRP_MAX: -287,
  temBAD_SEND_XRP_PARTIAL: -285,
  temBAD_SEND_XRP_PATHS: -284,
  temDST_IS_SRC: -279,
  temDST_NEEDED: -278,
  temINVALID_FLAG: -276,
  temREDUNDANT: -275,
  temDISABLED: -273,
  temBAD_NFTOKEN_TRANSFER_FEE: -262,
  terINSUF_FEE_B: -97,
  terNO_ACCOUNT: -96,
  terPRE_SEQ: -92,
  terNO_RIPPLE: -90,
} as const;

export type TerCode = keyof typeof TER;

const MESSAGES: Record<TerCode, string> = {
  tesSUCCESS: "The transaction was applied. Only final in a validated ledger.",
  tecPATH_PARTIAL: "Path could not send full amount.",
  tecUNFUNDED_PAYMENT: "Insufficient XRP balance to send.",
  tecUNFUNDED_OFFER: "Insufficient balance to fund created offer.",
  tecINSUF_RESERVE_LINE: "Insufficient reserve to add trust line.",
  tecNO_DST: "Destination does not exist. Send XRP to create it.",
  tecNO_DST_INSUF_XRP: "Destination does not exist. Too little XRP sent to create it.",
  tecNO_LINE_INSUF_RESERVE: "No such line. Too little reserve to create it.",
  tecNO_LINE_REDUNDANT: "Can't set non-existent line to default.",
  tecPATH_DRY: "Path could not send partial amount.",
  tecNO_ISSUER: "Issuer account does not exist.",
  tecNO_LINE: "No such line.",
  tecNO_PERMISSION: "No permission to perform requested operation.",
  tecNO_ENTRY: "No matching entry found.",
  tecINSUFFICIENT_RESERVE: "Insufficient reserve to complete requested operation.",
  tecDST_TAG_NEEDED: "A destination tag is required.",
  tecEXPIRED: "Expiration time is passed.",
  tecDUPLICATE: "Ledger object already exists.",
  tecMAX_SEQUENCE_REACHED: "The maximum sequence number was reached.",
  tecCANT_ACCEPT_OWN_NFTOKEN_OFFER: "An NFToken offer cannot be claimed by its owner.",
  tecINSUFFICIENT_FUNDS: "Not enough funds available to complete requested transaction.",
  tecOBJECT_NOT_FOUND: "A requested object could not be located.",
  tecUNFUNDED_AMM: "Insufficient balance to fund AMM.",
  tecNFTOKEN_OFFER_TYPE_MISMATCH: "The type of NFToken offer is incorrect.",
  tefALREADY: "The exact transaction was already in this ledger.",
  tefBAD_AUTH: "Transaction's public key is not authorized.",
  tefPAST_SEQ: "This sequence number has already passed.",
  tefMAX_LEDGER: "Ledger sequence too high.",
  tefNOT_MULTI_SIGNING: "Account has no appropriate list of multi-signers.",
  tefNFTOKEN_IS_NOT_TRANSFERABLE: "The specified NFToken is not transferable.",
  telINSUF_FEE_P: "Fee insufficient.",
  telNO_DST_PARTIAL: "Partial payment to create account not allowed.",
  temMALFORMED: "Malformed transaction.",
  temBAD_AMOUNT: "Malformed: Bad amount.",
  temBAD_CURRENCY: "Malformed: Bad currency.",
  temBAD_EXPIRATION: "Malformed: Bad expiration.",
  temBAD_FEE: "Invalid fee, negative or not XRP.",
  temBAD_ISSUER: "Malformed: Bad issuer.",
  temBAD_LIMIT: "Limits must be non-negative.",
  temBAD_SEND_XRP_MAX: "Malformed: Send max is not allowed for XRP to XRP.",
  temBAD_SEND_XRP_PARTIAL: "Malformed: Partial payment is not allowed for XRP to XRP.",
  temBAD_SEND_XRP_PATHS: "Malformed: Paths are not allowed for XRP to XRP.",
  temDST_IS_SRC: "Destination may not be source.",
  temDST_NEEDED: "Destination not specified.",
  temINVALID_FLAG: "The transaction has an invalid flag.",
  temREDUNDANT: "The transaction is redundant.",
  temDISABLED: "The transaction requires logic that is currently disabled.",
  temBAD_NFTOKEN_TRANSFER_FEE: "Malformed: The NFToken transfer fee must be between 1 and 5000, inclusive.",
  terINSUF_FEE_B: "Account balance can't pay fee.",
  terNO_ACCOUNT: "The source account does not exist.",
  terPRE_SEQ: "Missing/inapplicable prior transaction.",
  terNO_RIPPLE: "Path does not permit rippling.",
};

/** The `engine_result*` triple rippled puts on submit responses and stream messages. */
export function engineResult(code: TerCode) {
  return { engine_result: code, engine_result_code: TER[code], engine_result_message: MESSAGES[code] };
}

/** tec results claim the fee and land in a ledger; tes succeeds; everything else is not applied. */
export function isApplied(code: TerCode): boolean {
  return code === "tesSUCCESS" || code.startsWith("tec");
}

/** rippled's RPC error tokens, codes and messages (ErrorCodes.cpp) for the errors this server returns. */
export const RPC_ERRORS = {
  unknownCmd: [32, "Unknown method."],
  missingCommand: [47, "Missing command entry."],
  invalidParams: [31, "Invalid parameters."],
  actMalformed: [35, "Account malformed."],
  actNotFound: [19, "Account not found."],
  lgrNotFound: [21, "Ledger not found."],
  lgrIdxMalformed: [58, "Ledger index malformed."],
  entryNotFound: [98, "Entry not found."],
  txnNotFound: [29, "Transaction not found."],
  malformedStream: [71, "Stream malformed."],
  objectNotFound: [92, "The requested object was not found."],
  notSupported: [75, "Operation not supported."],
  badSyntax: [1, "Syntax error."],
  lgrIdxsInvalid: [57, "Ledger indexes invalid."],
  invalidLgrRange: [79, "Ledger range is invalid."],
  lgrNotValidated: [22, "Ledger not validated."],
  internal: [73, "Internal error."],
} as const satisfies Record<string, readonly [number, string]>;

export type RpcErrorName = keyof typeof RPC_ERRORS;

/** An RPC failure carrying rippled's error token; the dispatcher turns it into rippled's error envelope. */
export class RpcError extends Error {
  constructor(
    readonly error: RpcErrorName | "invalidTransaction",
    message?: string,
    /** rippled reports transaction check failures as `error_exception` rather than a coded error. */
    readonly exception?: string,
  ) {
    super(message ?? (error === "invalidTransaction" ? exception ?? "invalid transaction" : RPC_ERRORS[error][1]));
  }
}
