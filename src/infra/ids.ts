import { nanoid } from "nanoid";

// nanoid's default alphabet: URL-safe, so an id needs no escaping in a path or a file name.
const ID_CHAR = "[A-Za-z0-9_-]";
const IMAGE_ID_LENGTH = 11;
const ID_LENGTH = 21;

/** Image ids are short because they appear in public URLs. */
export const newImageId = () => nanoid(IMAGE_ID_LENGTH);
/** Every other id: videos, audio, documents, users, keys, KBs. */
export const newId = () => nanoid(ID_LENGTH);

/** An image id inside a longer pattern (the edge's `<id>.<ext>`), unanchored. */
export const IMAGE_ID = `${ID_CHAR}{${IMAGE_ID_LENGTH}}`;
export const IMAGE_ID_PATTERN = `^${IMAGE_ID}$`;
export const ID_PATTERN = `^${ID_CHAR}{${ID_LENGTH}}$`;
const ID = new RegExp(ID_PATTERN);
/** Whether the text could be an id of length 21 (not an image's). */
export const isId = (text: string) => ID.test(text);
