/** The app's views: one shows at a time in the main area. */
export type AppView =
  'setup' | 'new' | 'run' | 'runs' | 'sandbox' | 'learn' | 'explore' | 'env' | 'charts' | 'compare' | 'sweep';

/** The main menu: the views a user opens directly, in menu order (the others open from within a view). */
export const MAIN_NAV: ReadonlyArray<{ id: AppView; label: string }> = [
  { id: 'run', label: 'Live run' },
  { id: 'runs', label: 'Runs' },
  { id: 'explore', label: 'Explorer' },
  { id: 'charts', label: 'Charts' },
  { id: 'compare', label: 'Compare' },
  { id: 'sweep', label: 'Sweeps' },
  { id: 'learn', label: 'Learn' },
  { id: 'setup', label: 'Model' },
  { id: 'sandbox', label: 'Sandbox' },
];
