"use client";
// Dashboard users (exposed mode): the list, and a form to add one. Every user may do everything.
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { TimeAgo } from "@/components/ui/time-ago.tsx";
import type { UserView } from "@/lib/access/schemas.ts";
import { sendJson } from "@/components/ui/fetch-json.ts";

export function UsersPanel({ users, minPasswordLength }: { users: UserView[]; minPasswordLength: number }) {
  const router = useRouter();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    try {
      const user = await sendJson<{ email: string }>("POST", "/api/users", {
        email: String(data.get("email") ?? ""),
        password: String(data.get("password") ?? ""),
      });
      setMessage({ ok: true, text: `Added ${user.email}.` });
      form.reset();
      router.refresh();
    } catch (failure) {
      setMessage({ ok: false, text: failure instanceof Error ? failure.message : "Could not add the user" });
    }
  }

  return (
    <section className="card panel" aria-labelledby="users-heading">
      <div className="panel-header">
        <h2 id="users-heading">Users</h2>
      </div>
      {message ? (
        <p className={`notice ${message.ok ? "" : "notice-bad"}`} role={message.ok ? "status" : "alert"}>
          {message.text}
        </p>
      ) : null}
      <ul className="user-list">
        {users.map((user) => (
          <li key={user.id}>
            {user.email}{" "}
            <span className="muted small">
              added <TimeAgo iso={user.createdAt} />
            </span>
          </li>
        ))}
      </ul>
      <form className="key-form" onSubmit={add} aria-label="Add a user">
        <label className="field field-grow">
          <span>Email</span>
          <input className="input" name="email" type="email" required autoComplete="off" />
        </label>
        <label className="field field-grow">
          <span>Password ({minPasswordLength}+ characters)</span>
          <input
            className="input"
            name="password"
            type="password"
            minLength={minPasswordLength}
            required
            autoComplete="new-password"
          />
        </label>
        <button className="button" type="submit">
          Add user
        </button>
      </form>
    </section>
  );
}
