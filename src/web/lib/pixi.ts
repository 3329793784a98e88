// The page's Content-Security-Policy has no 'unsafe-eval': PixiJS then needs its eval-free
// shader and uniform code, which this import installs before any renderer starts. Import PixiJS
// from here, never from "pixi.js" directly (lib/pixi.test.ts checks).
import "pixi.js/unsafe-eval";

export * from "pixi.js";
