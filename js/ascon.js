export { AsconHash, ascon_aead128, ascon_cxof128, ascon_hash256, ascon_xof128 } from "./src/ascon.js";
