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
