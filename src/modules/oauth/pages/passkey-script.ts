// The one script of the consent and device pages (passkey.ts): on a page that offers a
// passkey, it shows the passkey form and sends the browser's answer. Allowed by its hash.
import { inlineSource } from "../../../http/page-headers.ts";

export const PASSKEY_SCRIPT = `(()=>{const P=window.PublicKeyCredential;if(!P||!P.parseRequestOptionsFromJSON||!navigator.credentials)return;
for(const f of document.querySelectorAll("form[data-passkey]")){f.hidden=false;const b=f.querySelector("button"),m=f.querySelector(".passkey-error");
b.addEventListener("click",async()=>{m.textContent="";b.disabled=true;try{const c=await navigator.credentials.get({publicKey:P.parseRequestOptionsFromJSON(JSON.parse(f.dataset.passkey))});
f.elements.namedItem("passkey").value=JSON.stringify(c.toJSON());f.submit()}catch(e){m.textContent=e&&e.name==="NotAllowedError"?"The passkey dialog was closed before it finished. Try again.":"The browser could not use a passkey.";b.disabled=false}})}})();`;

/** The CSP source of the script. */
export const PASSKEY_SCRIPT_SOURCE = inlineSource(PASSKEY_SCRIPT);
