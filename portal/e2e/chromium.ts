/** Debian's Chromium (apt package `chromium`): Playwright cannot download its own build here. */
export const CHROMIUM = process.env.PORTAL_CHROMIUM ?? "/usr/bin/chromium";
