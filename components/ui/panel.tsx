// One card with a titled header: the heading names the region (aria-labelledby), an optional link or controls
// sit on the right, an optional line says what the panel is for. Server- and client-safe (no hooks).
import Link from "next/link";
import { useId, type ReactNode } from "react";

type Props = {
  title: ReactNode;
  /** The heading's id; generated when left out. */
  id?: string;
  /** A link to the full list, shown at the right of the header. */
  link?: { href: string; label: string };
  /** Controls at the right of the header (replaces nothing: shown after the link). */
  actions?: ReactNode;
  description?: ReactNode;
  /** "article" for one item of a list (a held result, an approval), "section" for a region of a page. */
  as?: "section" | "article";
  className?: string;
  "data-testid"?: string;
  children?: ReactNode;
};

export function Panel({ title, id, link, actions, description, as = "section", className, children, ...rest }: Props) {
  const generated = useId();
  const headingId = id ?? generated;
  const Element = as;
  return (
    <Element
      className={`card panel${className ? ` ${className}` : ""}`}
      aria-labelledby={headingId}
      data-testid={rest["data-testid"]}
    >
      <div className="panel-header">
        <h2 id={headingId}>{title}</h2>
        {link ? (
          <Link href={link.href} className="small">
            {link.label} <span aria-hidden="true">→</span>
          </Link>
        ) : null}
        {actions}
      </div>
      {description ? <p className="panel-description small muted">{description}</p> : null}
      {children}
    </Element>
  );
}
