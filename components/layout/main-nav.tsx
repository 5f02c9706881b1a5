"use client";
// The top navigation; a client leaf because it marks the current page and, on a narrow screen, folds into a
// "Menu" button (closed again after each navigation).
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";
import { isCurrentNavLink } from "./nav-current.ts";

const LINKS = [
  { href: "/", label: "Overview" },
  { href: "/threads", label: "Threads" },
  { href: "/calls", label: "Calls" },
  { href: "/pending", label: "Pending calls" },
  { href: "/subscriptions", label: "Subscriptions" },
  { href: "/deliveries", label: "Deliveries" },
  { href: "/held", label: "Held" },
  { href: "/approvals", label: "Approvals" },
  { href: "/alerts", label: "Alerts" },
  { href: "/insights", label: "Insights" },
  { href: "/import", label: "Import" },
  { href: "/compare", label: "Compare" },
  { href: "/settings/models", label: "Model targets" },
  { href: "/settings/access-log", label: "Access log" },
  { href: "/settings/access", label: "Access" },
  { href: "/settings/storage", label: "Storage" },
] as const;

export function MainNav() {
  const pathname = usePathname();
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === pathname;
  return (
    <div className="main-nav-wrap">
      <button
        type="button"
        className="button main-nav-toggle"
        aria-expanded={open}
        aria-controls="main-nav"
        onClick={() => setOpenAt(open ? null : pathname)}
      >
        Menu
      </button>
      <nav id="main-nav" className="main-nav" aria-label="Main" data-open={open ? "true" : undefined}>
        {LINKS.map((link) => {
          const current = isCurrentNavLink(link.href, pathname);
          return (
            <Link key={link.href} href={link.href} aria-current={current ? "page" : undefined}>
              {link.label}
            </Link>
          );
        })}
      </nav>
    </div>
  );
}
