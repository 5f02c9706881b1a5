// Node's loader set-up for every script and server process: TypeScript through tsx, and `server-only`
// resolved to an empty module. Outside Next's react-server build (the custom server, the CLI, tests) server
// code is exactly where it should be; Next's build still refuses `server-only` modules in client components.
// Run as `node --import ./scripts/register.mjs scripts/<name>.ts` (npm scripts do), so the script is the
// process itself: signals such as SIGKILL reach it directly, with no tsx wrapper in between.
import { register } from "node:module";
import "tsx";

register("./server-only-hook.mjs", import.meta.url);
