// Where a video's objects live in the object store. Every key is under one prefix per
// video, so deleting a video is deleting that prefix.
import type { Rendition } from "./table.ts";

type VideoRef = { ownerId: string; id: string };

export const videoPrefix = (v: VideoRef) => `videos/${v.ownerId}/${v.id}/`;
/** The uploaded bytes, as sent. */
export const originalKey = (v: VideoRef) => `${videoPrefix(v)}original`;
export const hlsPrefix = (v: VideoRef) => `${videoPrefix(v)}hls/`;
export const masterPlaylistKey = (v: VideoRef) => `${hlsPrefix(v)}master.m3u8`;
export const variantPlaylistKey = (v: VideoRef, r: Rendition) => `${hlsPrefix(v)}${r}/index.m3u8`;
/** Segment n (0-based) of a rendition: seg_00000.ts, seg_00001.ts, ... */
export const segmentKey = (v: VideoRef, r: Rendition, n: number) => `${hlsPrefix(v)}${r}/${segmentName(n)}`;
export const segmentName = (n: number) => `seg_${String(n).padStart(5, "0")}.ts`;
export const directKey = (v: VideoRef) => `${videoPrefix(v)}direct.mp4`;
/** The auto thumbnail, taken at the 5-second mark (or the middle of a shorter clip). */
export const thumbnailKey = (v: VideoRef) => `${videoPrefix(v)}thumb.jpg`;
/** A replacement thumbnail: a fresh name per upload, so caches never serve the old one. */
export const customThumbnailKey = (v: VideoRef, nonce: string) => `${videoPrefix(v)}thumb-custom-${nonce}.jpg`;
