"use client";
// The top navigation; a client leaf only because it marks the current page.
import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/", label: "Overview" },
  { href: "/threads", label: "Threads" },
  { href: "/pending", label: "Pending calls" },
  { href: "/subscriptions", label: "Subscriptions" },
  { href: "/deliveries", label: "Deliveries" },
  { href: "/insights", label: "Insights" },
  { href: "/import", label: "Import" },
  { href: "/compare", label: "Compare" },
] as const;

export function MainNav() {
  const pathname = usePathname();
  return (
    <nav className="main-nav" aria-label="Main">
      {LINKS.map((link) => {
        const current = link.href === "/" ? pathname === "/" : pathname.startsWith(link.href);
        return (
          <Link key={link.href} href={link.href} aria-current={current ? "page" : undefined}>
            {link.label}
          </Link>
        );
      })}
    </nav>
  );
}
