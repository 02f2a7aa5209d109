// The provider VIDEO_PROVIDER names, and every provider by name: a callback or a queued
// job names the provider it belongs to, which may differ from today's setting.
import type { Deps } from "../../../core/deps.ts";
import type { VideoProviderName } from "../table.ts";
import { localProvider } from "./local.ts";
import { muxProvider } from "./mux.ts";
import type { VideoProvider } from "./types.ts";

export type Providers = Record<VideoProviderName, VideoProvider> & { current: VideoProvider };

export function createProviders(deps: Deps, fetchFn: typeof fetch = fetch): Providers {
  const all = { local: localProvider(deps), mux: muxProvider(deps, fetchFn) };
  return { ...all, current: all[deps.config.VIDEO_PROVIDER] };
}
