/**
 * Markup that a browser, or a server-side include of an uploaded file, would act on. Found in
 * image metadata or after an image's end, it is how an image doubles as a page or a script.
 */
const ACTIVE_MARKUP = ["<script", "<html", "<?php", "<?=", "<iframe", "<svg", "<body", "<object", "<embed", "<!doctype html", "javascript:"];

/** The first active markup token in `bytes` (compared case-insensitively), or undefined. */
export function findActiveMarkup(bytes: Uint8Array): string | undefined {
  const text = new TextDecoder("latin1").decode(bytes).toLowerCase();
  return ACTIVE_MARKUP.find((token) => text.includes(token));
}
