// The shares module's public surface: what oEmbed reads of a link (a preview of what it opens).
export { shareCard } from "./card.ts";
