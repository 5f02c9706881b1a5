// Where the sign-in page sends the visitor afterwards: `next` comes from the URL (anyone can craft a link), so
// only a page of this origin. Client-safe and pure.

/**
 * The same-origin path, query and hash `next` names, or "/". Decided on the URL the browser would navigate to,
 * not on the text: the URL parser drops tabs and newlines and reads "\" as "/", so "/\t/evil.com",
 * "/\n/evil.com" and "/\\evil.com" all lead to evil.com although they start with a single "/".
 */
export function safeNextPath(next: string | null | undefined, origin: string): string {
  if (!next || !next.startsWith("/")) return "/";
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return "/";
  }
  if (url.origin !== new URL(origin).origin) return "/";
  return `${url.pathname}${url.search}${url.hash}`;
}
