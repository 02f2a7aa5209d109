// Where a video's objects live in the object store. Every key is under one prefix per
// video, so deleting a video is deleting that prefix.
type VideoRef = { ownerId: string; id: string };

export const videoPrefix = (v: VideoRef) => `videos/${v.ownerId}/${v.id}/`;
/** The uploaded bytes, as sent. */
export const originalKey = (v: VideoRef) => `${videoPrefix(v)}original`;
export const hlsPrefix = (v: VideoRef) => `${videoPrefix(v)}hls/`;
export const masterPlaylistKey = (v: VideoRef) => `${hlsPrefix(v)}master.m3u8`;
// Below hls/: <360p|720p|1080p>/index.m3u8 per rendition, with its segments beside it
// (seg_00000.ts, seg_00001.ts, ...), named relatively by the playlists.
export const directKey = (v: VideoRef) => `${videoPrefix(v)}direct.mp4`;
/** The auto thumbnail, taken at the 5-second mark (or the middle of a shorter clip). */
export const thumbnailKey = (v: VideoRef) => `${videoPrefix(v)}thumb.jpg`;
/** A replacement thumbnail: a fresh name per upload, so caches never serve the old one. */
export const customThumbnailKey = (v: VideoRef, nonce: string) => `${videoPrefix(v)}thumb-custom-${nonce}.jpg`;

/** Captions, as WebVTT, one object per upload (`<language>-<nonce>.vtt`, captions.ts). */
export const captionsPrefix = (v: VideoRef) => `${videoPrefix(v)}captions/`;

/**
 * Whether `key` names an object of this video: under its prefix, with no empty, `.` or
 * `..` segment (a store joining it to a folder would leave the prefix) and no backslash
 * or control character. A provider's callback names keys the video then serves and
 * deletes as its own; one naming another video's object would take that object with it.
 */
export function isOwnKey(v: VideoRef, key: string): boolean {
  const prefix = videoPrefix(v);
  if (!key.startsWith(prefix) || /[\\\u0000-\u001f\u007f]/.test(key)) return false;
  return key
    .slice(prefix.length)
    .split("/")
    .every((s) => s !== "" && s !== "." && s !== "..");
}
