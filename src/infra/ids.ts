import { nanoid } from "nanoid";

/** Image ids are short because they appear in public URLs. */
export const newImageId = () => nanoid(11);
/** Every other id: videos, audio, documents, users, keys, KBs. */
export const newId = () => nanoid(21);

export const IMAGE_ID_PATTERN = "^[A-Za-z0-9_-]{11}$";
export const ID_PATTERN = "^[A-Za-z0-9_-]{21}$";
