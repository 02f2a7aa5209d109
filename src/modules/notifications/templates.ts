// One template per message kind: the subject and the blocks of the body, written once
// and rendered both as plain text and as HTML (escaped), with the numbers formatted for
// people and a link into the dashboard (CENTER_URL).
import { escapeHtml, formatBytes, formatCount, formatInstant, formatMonth, formatNextMonthStart, formatPercent } from "./format.ts";

type Block = string | { items: { text: string; url?: string }[] };

interface Mail {
  subject: string;
  blocks: Block[];
  action: { label: string; url: string };
  /** Small print below the link (why this message came). */
  footer?: string;
}

export interface Rendered {
  subject: string;
  text: string;
  html: string;
}

interface Context {
  centerUrl: string;
  nickname: string | null;
}

/** The 100% message of a quota told by a refused upload: its subject, and its first line. */
interface Refused {
  subject: string;
  why: string;
}

/** What each quota dimension is called in a message, and how its numbers read. */
const DIMENSIONS: Record<
  string,
  { label: string; amount: (n: number) => string; full: string; holds?: (used: string, limit: string) => string; refused?: Refused }
> = {
  img_storage: {
    label: "image and document storage",
    amount: formatBytes,
    refused: {
      subject: "An upload was refused because your image and document storage is full",
      why: "An upload was refused because it needed more image and document storage than is left.",
    },
    full: "New image and document uploads are refused until you delete something or move to a larger plan; everything stored stays available.",
  },
  media_storage: {
    label: "video and audio storage",
    amount: formatBytes,
    refused: {
      subject: "An upload was refused because your video and audio storage is full",
      why: "An upload was refused because it needed more video and audio storage than is left.",
    },
    full: "New video and audio uploads are refused until you delete something or move to a larger plan; everything stored stays available.",
  },
  doc_count: {
    label: "documents",
    amount: formatCount,
    refused: {
      subject: "A new document was refused because your account holds all the documents its plan allows",
      why: "A new document was refused because your account holds all the documents its plan allows.",
    },
    holds: (used, limit) => `Your account holds ${used} of the ${limit} documents its plan allows`,
    full: "New documents are refused until you delete some or move to a larger plan; existing documents stay readable and deletable.",
  },
  image_bandwidth: {
    label: "image bandwidth",
    amount: formatBytes,
    full: "Your images keep being served: image bandwidth has no hard cutoff.",
  },
  media_bandwidth: {
    label: "video and audio bandwidth",
    amount: formatBytes,
    full: "New video playback sessions start at 360p until the month ends or you move to a larger plan.",
  },
};

interface QuotaPayload {
  dimension: string;
  period: string;
  mark: number;
  used: number;
  limit: number;
  /** Told by an upload refused for lack of room, not by a counter reaching the limit. */
  refused?: boolean;
}

interface BandwidthPayload {
  month: string;
  used: number;
  limit: number;
}

interface BranchesPayload {
  branches: { branchId: string; kbId: string; relativePath: string; expiresAt: string }[];
}

function quota(mark: 80 | 100, p: QuotaPayload, ctx: Context): Mail | null {
  const d = DIMENSIONS[p.dimension];
  if (!d) return null;
  const monthly = p.period !== "total";
  const of = monthly ? `${d.label} for ${formatMonth(p.period)}` : d.label;
  const holds = d.holds?.(d.amount(p.used), d.amount(p.limit)) ?? `Your account has used ${d.amount(p.used)} of its ${d.amount(p.limit)} of ${of}`;
  const usage = `${holds} (${formatPercent(p.used, p.limit)}).`;
  const restarts = monthly ? [`The count starts again on ${formatNextMonthStart(p.period)}.`] : [];
  const whenFull = `When it is full, ${d.full.charAt(0).toLowerCase()}${d.full.slice(1)}`;
  // A refused upload may leave some room that is too little for it: the usage then reads
  // under 100%, and the message says why it still counts as full.
  const refused = mark === 100 && p.refused === true ? d.refused : undefined;
  const blocks = mark === 80 ? [usage, ...(monthly ? restarts : [whenFull])] : [...(refused ? [refused.why] : []), usage, d.full, ...restarts];
  return {
    subject: refused?.subject ?? (mark === 80 ? `You have used 80% of your ${of}` : `You have used all of your ${of}`),
    blocks,
    action: { label: "See your usage", url: `${ctx.centerUrl}/usage` },
    footer: mark === 80 ? "This early warning is optional: turn quota warnings off in your account settings." : undefined,
  };
}

function videoBandwidth(mark: 100 | 110 | 120, p: BandwidthPayload, ctx: Context): Mail {
  const month = formatMonth(p.month);
  const usage = `Your account has used ${formatBytes(p.used)} of its ${formatBytes(p.limit)} of video and audio bandwidth for ${month} (${formatPercent(p.used, p.limit)}).`;
  const until = `until ${formatNextMonthStart(p.month)}, when the month's count starts again, or until you move to a larger plan`;
  const by = {
    100: {
      subject: `Video playback reduced to 360p: bandwidth for ${month} used up`,
      what: `New video playback sessions start at 360p ${until}; sessions already playing keep their quality. Past 120% video playback is suspended.`,
    },
    110: {
      subject: `Video bandwidth for ${month} is over 110%`,
      what: `New video playback sessions are at 360p. Past 120% video playback is suspended ${until}.`,
    },
    120: {
      subject: `Video playback suspended: bandwidth for ${month} over 120%`,
      what: `Video playback is suspended ${until}. Audio keeps playing; images and documents are not affected.`,
    },
  }[mark];
  return { subject: by.subject, blocks: [usage, by.what], action: { label: "See your usage", url: `${ctx.centerUrl}/usage` } };
}

function branchesExpiring(p: BranchesPayload, ctx: Context): Mail | null {
  if (!p.branches?.length) return null;
  const n = p.branches.length;
  const kbs = [...new Set(p.branches.map((b) => b.kbId))];
  const conflicts = (kbId: string) => `${ctx.centerUrl}/kbs/${encodeURIComponent(kbId)}/conflicts`;
  return {
    subject: n === 1 ? "A conflict branch will be discarded in 7 days" : `${n} conflict branches will be discarded in 7 days`,
    blocks: [
      `${n === 1 ? "This conflict branch was" : "These conflict branches were"} kept beside the document a sync would have overwritten, and ${n === 1 ? "is" : "are"} still unresolved:`,
      { items: p.branches.map((b) => ({ text: `${b.relativePath}: discarded on ${formatInstant(b.expiresAt)}`, url: conflicts(b.kbId) })) },
      "Accept a branch to make it the document, or discard it. An unresolved branch is discarded automatically 30 days after it was kept.",
    ],
    action: { label: "Review the conflicts", url: conflicts(kbs[0]!) },
  };
}

interface SyncV1Payload {
  /** When v1 answers 410 (SYNC_V1_SUNSET_AT). */
  sunsetAt: string;
  /** The last v1 call seen from this account. */
  lastSeenAt: string;
  /** What made it: an API key's name or an OAuth app's, when known. */
  caller?: string;
}

function syncV1Reminder(p: SyncV1Payload, ctx: Context): Mail | null {
  if (typeof p.sunsetAt !== "string" || typeof p.lastSeenAt !== "string") return null;
  return {
    subject: `Sync protocol version 1 ends on ${formatInstant(p.sunsetAt)}: update your sync client`,
    blocks: [
      `A sync client${p.caller ? ` (${p.caller})` : ""} last used version 1 of the sync protocol with your account on ${formatInstant(p.lastSeenAt)}.`,
      `From ${formatInstant(p.sunsetAt)} version 1 is refused, and a client that still speaks it stops syncing. Your notes and knowledge bases are not affected.`,
      "Update the client to one that speaks version 2 (the current `shelf sync` does), or ask its author to. This is the last reminder.",
    ],
    action: { label: "See your knowledge bases", url: `${ctx.centerUrl}/kbs` },
  };
}

interface VideoPayload {
  videoId: string;
  title: string;
  reason?: string;
}
interface BranchPayload {
  branchId: string;
  kbId: string;
  relativePath: string;
}
interface KeyPayload {
  keyId: string;
  name: string;
  last4: string;
}
interface ClientPayload {
  clientId: string;
  clientName: string;
  scopes?: string[];
  /** A registered client no administrator has approved. */
  unverified?: boolean;
}
interface ExportPayload {
  exportId: string;
  archiveBytes?: number;
  expiresAt?: string;
  reason?: string;
}
interface SignInPayload {
  device: string | null;
  address: string | null;
  at: string;
}
interface AddressPayload {
  to: string;
  link: string;
  expiresAt: string;
}
interface AddressChangedPayload {
  to: string;
  newEmail: string;
}
interface ResetPayload {
  link: string;
  expiresAt: string;
}
interface FailuresPayload {
  failures: number;
  windowMinutes: number;
}

/** A client's name, marked when no administrator has approved it (the name is its developer's word). */
const named = (p: ClientPayload) => (p.unverified ? `${p.clientName} (unverified app)` : p.clientName);
const unverified = (p: ClientPayload) =>
  p.unverified ? ["No administrator has reviewed this app, and its name may imitate another app's: revoke it if you do not know it."] : [];
const IF_NOT_YOU = "If this was not you, change your password and revoke the keys and authorizations you do not know.";
const security = (ctx: Context) => ({ label: "Review your account's security", url: `${ctx.centerUrl}/account` });

/** The events mailed only to users who turned their e-mail on (in-app by default). */
const EVENTS = {
  video_ready: (p: VideoPayload, ctx: Context): Mail => ({
    subject: `Your video "${p.title}" is ready`,
    blocks: [`"${p.title}" finished processing and can be played.`],
    action: { label: "Open the video", url: `${ctx.centerUrl}/videos/${encodeURIComponent(p.videoId)}` },
  }),
  video_failed: (p: VideoPayload, ctx: Context): Mail => ({
    subject: `Your video "${p.title}" could not be processed`,
    blocks: [`"${p.title}" failed to process${p.reason ? `: ${p.reason}` : "."}`],
    action: { label: "Open the video", url: `${ctx.centerUrl}/videos/${encodeURIComponent(p.videoId)}` },
  }),
  conflict_branch_created: (p: BranchPayload, ctx: Context): Mail => ({
    subject: `A sync conflict on ${p.relativePath} was kept as a branch`,
    blocks: [
      `A sync would have overwritten a newer ${p.relativePath}; its content was kept as a conflict branch beside the document. Accept it or discard it within 30 days.`,
    ],
    action: { label: "Review the conflicts", url: `${ctx.centerUrl}/kbs/${encodeURIComponent(p.kbId)}/conflicts` },
  }),
  api_key_created: (p: KeyPayload, ctx: Context): Mail => ({
    subject: `A new API key "${p.name}" was created`,
    blocks: [`The API key "${p.name}" (ending in ${p.last4}) was created on your account.`, IF_NOT_YOU],
    action: security(ctx),
  }),
  api_key_revoked: (p: KeyPayload, ctx: Context): Mail => ({
    subject: `The API key "${p.name}" was revoked`,
    blocks: [`The API key "${p.name}" (ending in ${p.last4}) was revoked and no longer works.`, IF_NOT_YOU],
    action: security(ctx),
  }),
  oauth_authorized: (p: ClientPayload, ctx: Context): Mail => ({
    subject: `${named(p)} was authorized to use your account`,
    blocks: [`${named(p)} was granted access to your account${p.scopes?.length ? ` (${p.scopes.join(", ")})` : ""}.`, ...unverified(p), IF_NOT_YOU],
    action: security(ctx),
  }),
  device_signed_in: (p: ClientPayload, ctx: Context): Mail => ({
    subject: `A device signed in to your account with ${named(p)}`,
    blocks: [`A device was approved to sign in to your account through ${named(p)}.`, ...unverified(p), IF_NOT_YOU],
    action: security(ctx),
  }),
  sign_in_failures: (p: FailuresPayload, ctx: Context): Mail => ({
    subject: "Failed attempts to sign in to your account",
    blocks: [
      `There were ${p.failures} failed attempts to sign in to your account within ${p.windowMinutes} minutes.`,
      "The browsers and addresses you signed in from before can still sign in; others may be refused for a while. If these attempts were not yours, someone may be guessing your password: change it to a long one you use nowhere else.",
    ],
    action: security(ctx),
  }),
  new_sign_in: (p: SignInPayload, ctx: Context): Mail => ({
    subject: "A new sign-in to your account",
    blocks: [
      `Your account was signed in with its password from ${p.device ?? "a device that did not say what it is"}${p.address ? ` at ${p.address}` : ""} on ${formatInstant(p.at)}: a browser or address it had not signed in from before.`,
      "If this was you, there is nothing to do. If not, sign that device out under Signed-in devices and change your password.",
    ],
    action: security(ctx),
  }),
  export_ready: (p: ExportPayload, ctx: Context): Mail => ({
    subject: "Your account export is ready to download",
    blocks: [
      `The archive of your account (${formatBytes(p.archiveBytes ?? 0)}) is ready.${p.expiresAt ? ` It can be downloaded until ${formatInstant(p.expiresAt)}, then it is removed.` : ""}`,
    ],
    action: { label: "Download it", url: `${ctx.centerUrl}/account#exports` },
  }),
  export_failed: (p: ExportPayload, ctx: Context): Mail => ({
    subject: "Your account export could not be made",
    blocks: [`The export of your account failed${p.reason ? `: ${p.reason}` : "."} You can start another one.`],
    action: { label: "Open your exports", url: `${ctx.centerUrl}/account#exports` },
  }),
  two_factor_enabled: (_p: object, ctx: Context): Mail => ({
    subject: "Two-factor authentication was turned on",
    blocks: ["Signing in to your account now asks for a code of your authenticator app after the password.", IF_NOT_YOU],
    action: security(ctx),
  }),
  two_factor_disabled: (_p: object, ctx: Context): Mail => ({
    subject: "Two-factor authentication was turned off",
    blocks: ["Signing in to your account no longer asks for a code of your authenticator app: the password alone signs in.", IF_NOT_YOU],
    action: security(ctx),
  }),
  recovery_code_used: (p: { left?: number }, ctx: Context): Mail => ({
    subject: "A recovery code was used to sign in",
    blocks: [
      `Your account was signed in with one of its recovery codes instead of a code of your authenticator app. ${p.left ?? 0} unused recovery codes are left.`,
      IF_NOT_YOU,
    ],
    action: security(ctx),
  }),
  passkey_added: (p: { name?: string }, ctx: Context): Mail => ({
    subject: "A passkey was added to your account",
    blocks: [
      `The passkey "${p.name ?? ""}" was added to your account. It signs in without the password, and is asked for after the password as a second step.`,
      IF_NOT_YOU,
    ],
    action: security(ctx),
  }),
  passkey_removed: (p: { name?: string; lastFactor?: boolean }, ctx: Context): Mail => ({
    subject: "A passkey was removed from your account",
    blocks: [
      `The passkey "${p.name ?? ""}" was removed from your account.${p.lastFactor ? " It was your last second factor: the password alone signs in now, and your recovery codes no longer work." : ""}`,
      IF_NOT_YOU,
    ],
    action: security(ctx),
  }),
  webhook_disabled: (p: { url: string; reason: string }, ctx: Context): Mail => ({
    subject: "A webhook endpoint was disabled",
    blocks: [`Events are no longer sent to ${p.url}: ${p.reason}. Once it answers again, enable it; its delivery log shows each answer.`],
    action: { label: "Open your webhooks", url: `${ctx.centerUrl}/#/webhooks` },
  }),
  password_changed: (_p: object, ctx: Context): Mail => ({
    subject: "Your password was changed",
    blocks: ["The password of your account was changed.", "If this was not you, reset your password at once and contact the operator of this instance."],
    action: security(ctx),
  }),
};

const TEMPLATES: Record<string, (payload: never, ctx: Context) => Mail | null> = {
  ...EVENTS,
  sync_v1_final_reminder: (p: SyncV1Payload, ctx) => syncV1Reminder(p, ctx),
  email_verify: (p: ResetPayload): Mail => ({
    subject: "Confirm your e-mail address",
    blocks: [
      `An account was made on this shelf with this address. Open the link below to confirm it is yours; until then the account cannot sign in. It works once, until ${formatInstant(p.expiresAt)}.`,
      "If you did not sign up, ignore this message: the account stays unusable.",
    ],
    action: { label: "Confirm the address", url: p.link },
  }),
  email_change: (p: AddressPayload): Mail => ({
    subject: "Confirm your new e-mail address",
    blocks: [
      `You asked to move your shelf account to ${p.to}. Open the link below to confirm it; the account keeps its old address until then. It works once, until ${formatInstant(p.expiresAt)}.`,
      "If you did not ask, ignore this message: nothing changes.",
    ],
    action: { label: "Confirm the new address", url: p.link },
  }),
  email_changed: (p: AddressChangedPayload, ctx: Context): Mail => ({
    subject: "The e-mail address of your account was changed",
    blocks: [
      `Your shelf account now signs in and is mailed at ${p.newEmail}, not at this address.`,
      "If this was not you, someone who knew your password has taken the account: contact the operator of this instance at once.",
    ],
    action: security(ctx),
  }),
  password_reset: (p: ResetPayload): Mail => ({
    subject: "Reset your password",
    blocks: [
      `Someone (we hope you) asked to reset the password of your account. The link below sets a new one; it works once, until ${formatInstant(p.expiresAt)}. Every device signed in to your account is then signed out.`,
      "If you did not ask, ignore this message: your password stays as it is.",
    ],
    action: { label: "Choose a new password", url: p.link },
  }),
  quota_80: (p: QuotaPayload, ctx) => quota(80, p, ctx),
  quota_100: (p: QuotaPayload, ctx) => quota(100, p, ctx),
  video_bandwidth_degraded: (p: BandwidthPayload, ctx) => videoBandwidth(100, p, ctx),
  video_bandwidth_over_110: (p: BandwidthPayload, ctx) => videoBandwidth(110, p, ctx),
  video_bandwidth_suspended: (p: BandwidthPayload, ctx) => videoBandwidth(120, p, ctx),
  conflict_branches_expiring: (p: BranchesPayload, ctx) => branchesExpiring(p, ctx),
};

function toText(m: Mail, greeting: string): string {
  const blocks = m.blocks.map((b) => (typeof b === "string" ? b : b.items.map((i) => `- ${i.text}${i.url ? `\n  ${i.url}` : ""}`).join("\n")));
  const parts = [greeting, ...blocks, `${m.action.label}: ${m.action.url}`];
  if (m.footer) parts.push(`--\n${m.footer}`);
  return `${parts.join("\n\n")}\n`;
}

function toHtml(m: Mail, greeting: string): string {
  const p = (s: string) => `<p>${escapeHtml(s)}</p>`;
  const link = (url: string, label: string) => `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`;
  const blocks = m.blocks.map((b) =>
    typeof b === "string" ? p(b) : `<ul>${b.items.map((i) => `<li>${escapeHtml(i.text)}${i.url ? ` (${link(i.url, "open")})` : ""}</li>`).join("")}</ul>`,
  );
  const footer = m.footer ? `<hr><p style="color:#666;font-size:small">${escapeHtml(m.footer)}</p>` : "";
  return `<!doctype html><html><body>${p(greeting)}${blocks.join("")}<p>${link(m.action.url, m.action.label)}</p>${footer}</body></html>`;
}

function mailOf(kind: string, payload: unknown, ctx: Context): Mail | null {
  const template = TEMPLATES[kind];
  if (!template || typeof payload !== "object" || payload === null) return null;
  return template(payload as never, ctx);
}

/**
 * The in-app item of an event: the e-mail's subject as its title, its blocks as plain text
 * (no greeting, links or small print: the client links from the item's data). Null when
 * no template reads it.
 */
export function summarize(kind: string, payload: unknown): { title: string; body: string } | null {
  const mail = mailOf(kind, payload, { centerUrl: "", nickname: null });
  if (!mail) return null;
  const blocks = mail.blocks.map((b) => (typeof b === "string" ? b : b.items.map((i) => `- ${i.text}`).join("\n")));
  return { title: mail.subject, body: blocks.join("\n\n") };
}

/** The message of an outbox row; null when its kind has no template or its payload is not one it can read. */
export function render(kind: string, payload: unknown, ctx: Context): Rendered | null {
  const mail = mailOf(kind, payload, ctx);
  if (!mail) return null;
  const greeting = ctx.nickname ? `Hello ${ctx.nickname},` : "Hello,";
  return { subject: mail.subject, text: toText(mail, greeting), html: toHtml(mail, greeting) };
}
