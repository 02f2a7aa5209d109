// Where an audio file's objects live in the object store, and where the edge serves them.
// Every key is under one prefix per audio file.
type AudioRef = { ownerId: string; id: string };

const audioPrefix = (a: AudioRef) => `audio/${a.ownerId}/${a.id}/`;
/** The uploaded bytes, as sent. */
export const originalKey = (a: AudioRef) => `${audioPrefix(a)}original`;
/** The embedded cover, as a JPEG. */
export const coverKey = (a: AudioRef) => `${audioPrefix(a)}cover.jpg`;
