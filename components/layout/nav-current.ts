// Which top-navigation link names the page at `pathname`: the link's own path or a page under it, on a path
// segment boundary — "/settings/access" is not the current page of "/settings/access-log".
export function isCurrentNavLink(href: string, pathname: string): boolean {
  if (href === "/") return pathname === "/";
  return pathname === href || pathname.startsWith(`${href}/`);
}
