// With PUBLIC_URL set, the dashboard is served at every address that reaches the server, but
// it works at CENTER_URL only (the API it calls is at PUBLIC_URL, and the refresh cookie is
// that host's). Opened at another address, it goes to CENTER_URL with the same screen. The
// browser's own address is compared, not the server's idea of it: a proxy may rewrite Host,
// and sending a person to the address they are already at would never end.
export function goToOwnAddress(): boolean {
  const center = document.body.dataset.center;
  if (document.body.dataset.fixed === undefined || !center) return false;
  const own = new URL(center);
  if (own.origin === location.origin) return false;
  location.replace(`${own.origin}${location.pathname}${location.search}${location.hash}`);
  return true;
}
