// The KB module's public surface: what documents use of it (a KB the caller owns, its lock,
// and its counts and stamp moved with its documents). Sync and the manifest live here.
export { createKb, getKb, lockKb, moveKbCounts, nextStampAfter, setKbMoves } from "./service.ts";
