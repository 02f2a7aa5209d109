// What `shelf serve` says once it is ready: where the API and its reference are, and on an
// instance with no account yet, how to make the first (and what that account becomes). On
// a terminal it is a few lines for a person; otherwise one log line with the same facts,
// so a log collector still reads JSON only.
import { defaultDataDir } from "../config.ts";
import type { Deps } from "./deps.ts";
import { selfCommand } from "./cli/instance.ts";
import { hasAccounts } from "../modules/identity/public.ts";
import { VERSION } from "../infra/version.ts";

interface Banner {
  url: string;
  dashboard: string;
  /** Which addresses are in force: the one of PUBLIC_URL, or whichever a request came to. */
  addresses: string;
  apiReference: string;
  media: string;
  /** How to make the first account; absent once there is one. */
  firstAccount?: { signup: string; cli: string; becomes: string };
}

/**
 * The admin command that reaches this server: through its socket in DATA_DIR, so a DATA_DIR
 * other than the default is part of the command, or it would look for an instance elsewhere.
 */
function adminCommandFor(deps: Deps): string {
  const dir = deps.config.DATA_DIR;
  const quoted = /^[\w@%+=:,./-]+$/.test(dir) ? dir : `'${dir.replaceAll("'", `'\\''`)}'`;
  const dataDir = dir === defaultDataDir() ? "" : `DATA_DIR=${quoted} `;
  return `${dataDir}${selfCommand()} admin`;
}

async function bannerOf(deps: Deps): Promise<Banner> {
  const { config } = deps;
  const url = config.PUBLIC_URL;
  const banner: Banner = {
    url,
    dashboard: `${config.CENTER_URL}/`,
    addresses:
      config.addressesFromRequest.length > 0
        ? "PUBLIC_URL is unset: any address that reaches this machine works (localhost, 127.0.0.1, its name or LAN address), and the URLs it hands out follow it"
        : "PUBLIC_URL is set: the dashboard sends a browser that came by another address there",
    apiReference: `${url}/swagger`,
    media: config.MEDIA_URL,
  };
  if (!(await hasAccounts(deps.db))) {
    banner.firstAccount = {
      signup: `curl -X POST ${url}/v1/auth/signup -H 'content-type: application/json' -d '{"email":"you@example.com","password":"a long passphrase"}'`,
      cli: `${adminCommandFor(deps)} user create --email you@example.com --password 'a long passphrase'`,
      becomes: config.FIRST_USER_ADMIN
        ? `an administrator on plan ${config.FIRST_USER_PLAN} (later accounts: plan ${config.DEFAULT_PLAN})`
        : `an account on plan ${config.DEFAULT_PLAN} (FIRST_USER_ADMIN=false: make an administrator with --admin)`,
    };
  }
  return banner;
}

function bannerText(b: Banner): string {
  const lines = [
    `shelf ${VERSION} is ready`,
    `  Dashboard      ${b.dashboard}`,
    `  API            ${b.url}/v1`,
    `  API reference  ${b.apiReference}`,
    `  Media          ${b.media}`,
    `  (${b.addresses})`,
  ];
  if (b.firstAccount) {
    lines.push(
      "",
      `No account yet. The first one becomes ${b.firstAccount.becomes}. Create it with`,
      `  ${b.firstAccount.signup}`,
      "or, on this machine,",
      `  ${b.firstAccount.cli}`,
    );
  }
  return `${lines.join("\n")}\n\n`;
}

export async function printBanner(deps: Deps): Promise<void> {
  const banner = await bannerOf(deps);
  if (process.stdout.isTTY) process.stdout.write(bannerText(banner));
  else deps.log.info("ready", { ...banner });
}
