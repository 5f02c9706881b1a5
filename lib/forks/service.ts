// The forks domain's operations, for routes and pages: make a fork, read it, answer its calls, drive its loop.
// One operation per file; this module is the table of contents.
import "server-only";
export { createFork, type ForkReply } from "./create-fork.ts";
export { getFork, getForkLinks, listForks, type ForkLinks } from "./fork-view.ts";
export { answerForkCall } from "./answer-call.ts";
export { continueFork, stopFork } from "./continue-fork.ts";
export { listModelTargets } from "../models/targets.ts";
