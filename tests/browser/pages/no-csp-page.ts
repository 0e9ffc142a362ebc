// Control page module: the same navigation probe as sandbox.html, on a page without the app's CSP.
import { navigationProbe } from './nav-probe.ts';

declare global {
  interface Window {
    spadeControl: { navigationProbe: typeof navigationProbe };
  }
}

window.spadeControl = { navigationProbe };
