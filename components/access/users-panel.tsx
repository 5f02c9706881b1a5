"use client";
// Dashboard users (exposed mode): the list, and a form to add one. Every user may do everything.
import { useRouter } from "next/navigation";
import type { FormEvent } from "react";
import { Panel } from "@/components/ui/panel.tsx";
import { TimeAgo } from "@/components/ui/time-ago.tsx";
import { FormError, useApiMutation } from "@/components/ui/use-api-mutation.tsx";
import type { UserView } from "@/lib/access/schemas.ts";
import { sendJson } from "@/components/ui/fetch-json.ts";

export function UsersPanel({ users, minPasswordLength }: { users: UserView[]; minPasswordLength: number }) {
  const router = useRouter();
  const add = useApiMutation({
    mutationFn: ({ data }: { data: FormData; form: HTMLFormElement }) =>
      sendJson<{ email: string }>("POST", "/api/users", {
        email: String(data.get("email") ?? ""),
        password: String(data.get("password") ?? ""),
      }),
    onSuccess: (_user, { form }) => {
      form.reset();
      router.refresh();
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    add.run({ data: new FormData(event.currentTarget), form: event.currentTarget });
  }

  return (
    <Panel title="Users" id="users-heading">
      <FormError error={add.error} />
      {add.data ? (
        <p className="notice" role="status">
          Added {add.data.email}.
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
      <form className="key-form" onSubmit={submit} aria-label="Add a user">
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
        <button className="button" type="submit" disabled={add.busy}>
          Add user
        </button>
      </form>
    </Panel>
  );
}
