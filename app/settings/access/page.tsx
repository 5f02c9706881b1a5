// /settings/access – the access mode, API keys (create, last use, revoke) and users (sign-out is in the header).
import type { Metadata } from "next";
import { ApiKeysPanel } from "@/components/access/api-keys-panel.tsx";
import { UsersPanel } from "@/components/access/users-panel.tsx";
import { MIN_PASSWORD_LENGTH } from "@/lib/access/auth.ts";
import { listKeys } from "@/lib/access/keys.ts";
import { accessSettings } from "@/lib/access/settings.ts";
import { listUsers } from "@/lib/access/users.ts";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Access" };

export default async function AccessSettingsPage() {
  const exposed = accessSettings().mode === "exposed";
  const [keys, users] = await Promise.all([listKeys(), exposed ? listUsers() : Promise.resolve([])]);
  return (
    <>
      <div className="page-header">
        <div className="page-title">
          <h1>Access</h1>
          <p className="page-description small muted">
            {exposed
              ? "Exposed mode (TOOLSCOPE_SECRET is set): pages need a signed-in user, APIs an API key of the right scope."
              : "Local mode: Toolscope listens on this machine only and checks no credential. Keys made here are enforced once TOOLSCOPE_SECRET is set."}
          </p>
        </div>
      </div>
      <div className="access-panels">
        <ApiKeysPanel keys={keys} />
        {exposed ? <UsersPanel users={users} minPasswordLength={MIN_PASSWORD_LENGTH} /> : null}
      </div>
    </>
  );
}
